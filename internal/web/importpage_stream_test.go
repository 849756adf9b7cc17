package web_test

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// largeNative writes a native file of about size bytes: documents of long
// sentences, each with a summary labelled by two annotators. The line
// number of the last document is returned.
func largeNative(w io.Writer, size int) int {
	sentence := strings.Repeat("The council met and voted on the harbour budget. ", 5)
	var sents []string
	for range 40 {
		sents = append(sents, fmt.Sprintf("%q", strings.TrimSpace(sentence)))
	}
	body := strings.Join(sents, ",")
	written, line := 0, 0
	for written < size {
		line++
		n, _ := fmt.Fprintf(w, `{"id":"big-%d","sentences":[%s],"summaries":[{"id":"big-%d-s","sentences":[`+
			`{"text":"The council voted.","labels":[{"annotator":"w1","label":"faithful"},{"annotator":"w2","label":"faithful"}]},`+
			`{"text":"It was unanimous.","labels":[{"annotator":"w1","label":"faithful"},{"annotator":"w2","label":"unfaithful","error_types":["contradiction"]}]}]}]}`+"\n",
			line, body, line)
		written += n
	}
	return line
}

// uploadLarge posts a generated file of about size bytes, with tail
// appended, to the project's import page.
func (b *browser) uploadLarge(slug string, size int, tail string) (page, int) {
	b.f.t.Helper()
	tok := b.csrf("/p/" + slug + "/import")
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("_csrf", tok)
	fw, _ := mw.CreateFormFile("files", "large.jsonl")
	lines := largeNative(fw, size)
	io.WriteString(fw, tail)
	mw.Close()
	req, _ := http.NewRequest(http.MethodPost, b.f.srv.URL+"/p/"+slug+"/import", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return b.do(req), lines
}

// TestImportPageStreamsLargeUpload uploads native files larger than the
// part of an upload kept in memory, so that they are spooled to disk and
// streamed into the import: a bad record at the very end refuses the whole
// file, naming its file, line and field, and writes nothing of the
// documents before it; the same file without it lands whole, labels and
// resolved gold included.
func TestImportPageStreamsLargeUpload(t *testing.T) {
	w := newWorkFixture(t)
	b := w.browser()
	b.login("lea", testPassword)
	const size = 10 << 20 // past the 8 MiB kept in memory
	count := func() (docs, sentences int) {
		t.Helper()
		o, err := w.store.ProjectOverview(w.ctx, w.project.ID)
		if err != nil {
			t.Fatal(err)
		}
		return o.Documents, o.Sentences
	}
	docs0, sents0 := count()

	bad := `{"id":"bad","sentences":["One."],"summaries":[{"id":"bad-s","sentences":[{"text":"One.","labels":[{"annotator":"w1","label":"maybe"}]}]}]}` + "\n"
	p, lines := b.uploadLarge("alpha", size, bad)
	want := fmt.Sprintf("large.jsonl:%d: summaries[0].sentences[0].labels[0]", lines+1)
	if p.status != http.StatusUnprocessableEntity {
		t.Fatalf("bad last record: %d, want 422 naming %q\n%.2000s", p.status, want, p.body)
	}
	p.textIn(t, tid("import-errors"), want, "maybe")
	if d, s := count(); d != docs0 || s != sents0 {
		t.Fatalf("a refused upload wrote documents: %d documents and %d sentences, want %d and %d", d, s, docs0, sents0)
	}

	p, lines = b.uploadLarge("alpha", size, "")
	if p.status != http.StatusOK || !p.testID("import-result") {
		t.Fatalf("good upload: %d\n%.2000s", p.status, p.body)
	}
	if d, s := count(); d != docs0+lines || s != sents0+2*lines {
		t.Fatalf("after the upload: %d documents and %d sentences, want %d and %d", d, s, docs0+lines, sents0+2*lines)
	}
	if got := textOf(p.mustFind(t, tid("import-result")+" "+tid("imported-labels"))); got != strconv.Itoa(4*lines) {
		t.Errorf("the page shows %q labels imported, want %d", got, 4*lines)
	}
	counts, err := w.store.RoundGoldCounts(w.ctx, w.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	unanimous, pending := 0, 0
	for _, c := range counts {
		unanimous += c.Unanimous
		pending += c.Pending
	}
	if unanimous != lines || pending != lines {
		t.Errorf("gold after the upload: %d unanimous, %d pending; want %d of each", unanimous, pending, lines)
	}
}
