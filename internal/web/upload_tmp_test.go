package web_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"annotate/internal/authn"
)

// TestUploadsLeaveNoTemporaryFiles sends imports larger than the part of
// an upload kept in memory, so that they are spooled to temporary files,
// through the Import page and the API: accepted, a dry run, refused for a
// bad record, and forbidden by a wrong CSRF token. After each the private
// temporary directory is empty.
func TestUploadsLeaveNoTemporaryFiles(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	w := newWorkFixture(t)
	b := w.browser()
	b.login("lea", testPassword)
	lea, err := w.store.UserByName(w.ctx, "lea")
	if err != nil {
		t.Fatal(err)
	}
	_, secret, err := authn.New(w.store).CreateToken(w.ctx, lea.ID, authn.TokenSpec{Name: "upload", TTL: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	const size = 9 << 20 // past the 8 MiB kept in memory
	bad := `{"id":"bad","sentences":["One."],"summaries":[{"id":"bad-s","sentences":[{"text":"One.","labels":[{"annotator":"w1","label":"maybe"}]}]}]}` + "\n"
	left := func(after string) {
		t.Helper()
		entries, err := os.ReadDir(tmp)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		if len(names) > 0 {
			t.Errorf("after %s, the temporary directory holds %v", after, names)
		}
	}
	api := func(dryRun bool) int {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		mw.WriteField("dry_run", fmt.Sprint(dryRun))
		fw, _ := mw.CreateFormFile("files", "large.jsonl")
		largeNative(fw, size)
		io.WriteString(fw, bad)
		mw.Close()
		req, _ := http.NewRequest(http.MethodPost, w.srv.URL+"/api/v1/projects/alpha/import", &body)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		req.Header.Set("Authorization", "Bearer "+secret)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode
	}

	if p, _ := b.uploadLarge("alpha", size, bad); p.status != http.StatusUnprocessableEntity {
		t.Fatalf("refused upload: %d", p.status)
	}
	left("a refused upload on the Import page")

	if code := api(true); code != http.StatusUnprocessableEntity {
		t.Fatalf("API dry run with a bad record: %d", code)
	}
	left("a refused dry run through the API")

	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("_csrf", "not-the-token")
	fw, _ := mw.CreateFormFile("files", "large.jsonl")
	largeNative(fw, size)
	mw.Close()
	req, _ := http.NewRequest(http.MethodPost, w.srv.URL+"/p/alpha/import", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if p := b.do(req); p.status != http.StatusForbidden {
		t.Fatalf("wrong CSRF token: %d", p.status)
	}
	left("an upload refused for its CSRF token")

	p, _ := b.uploadLarge("alpha", size, "")
	if p.status != http.StatusOK {
		t.Fatalf("accepted upload: %d\n%.1500s", p.status, p.body)
	}
	p.mustFind(t, tid("import-result"))
	left("an accepted upload on the Import page")
}

// TestCompressedUploadIsNamed: a gzip file uploaded with the format left
// to detection is refused with a 422 that names the file and says to
// unpack it, on the API and the Import page, instead of an error "on our
// side".
func TestCompressedUploadIsNamed(t *testing.T) {
	w := newWorkFixture(t)
	lea := must(w.store.UserByName(w.ctx, "lea"))(t)
	_, secret, err := authn.New(w.store).CreateToken(w.ctx, lea.ID, authn.TokenSpec{Name: "gz", TTL: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	io.WriteString(zw, `{"id":"d","text":"T.","summaries":[{"id":"s","text":"A."}]}`+"\n")
	zw.Close()
	want := "the file is gzip-compressed: unpack it and import the file inside"
	c := &apiClient{t: t, base: w.srv.URL, token: secret}
	res := c.upload("/api/v1/projects/alpha/import", map[string]string{"data.jsonl.gz": gz.String()})
	pr := res.problem(t)
	if res.status != http.StatusUnprocessableEntity || len(pr.Errors) != 1 || pr.Errors[0].File != "data.jsonl.gz" || pr.Errors[0].Message != want {
		t.Errorf("API: %s", res)
	}
	b := w.browser()
	b.login("lea", testPassword)
	if p := b.upload("alpha", "data.jsonl.gz", gz.String()); p.status != http.StatusUnprocessableEntity || !strings.Contains(p.body, "data.jsonl.gz: "+want) {
		t.Errorf("Import page: %d\n%.1500s", p.status, p.body)
	}
}
