package web_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"annotate/internal/web"
)

// failAfter passes n bytes on, then fails as a server-side fault would.
type failAfter struct {
	w io.Writer
	n int
}

var errDiskFailed = errors.New("the disk failed")

func (f *failAfter) Write(p []byte) (int, error) {
	if f.n -= len(p); f.n < 0 {
		return 0, errDiskFailed
	}
	return f.w.Write(p)
}

// An export that fails part-way must not look whole to the client: the
// page's download was aborted, while the API's ended its response as if
// the file were complete (a CSV client could not tell). Both now abort,
// and both end a whole download with the X-Export-Complete trailer.
func TestExportFailingPartWayIsAbortedOnEveryRoute(t *testing.T) {
	f := newStallFixture(t, web.Config{ExportWriteTimeout: time.Hour})
	get := func(t *testing.T, path string) (*http.Response, []byte, error) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, f.srv.URL+path, nil)
		if strings.HasPrefix(path, "/api/") {
			req.Header.Set("Authorization", "Bearer "+f.token)
		} else {
			req.Header.Set("Cookie", f.cookie)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		res, err := http.DefaultClient.Do(req.WithContext(ctx))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		return res, body, err
	}
	for _, path := range []string{stallExportPath, "/api/v1/projects/bulk/labels?format=csv"} {
		t.Run(strings.SplitN(path, "?", 2)[0], func(t *testing.T) {
			f.s.ExportSinkForTest(nil)
			res, body, err := get(t, path)
			if err != nil || res.StatusCode != http.StatusOK || res.Trailer.Get("X-Export-Complete") != "true" || res.Trailer.Get("X-Export-Records") == "" {
				t.Fatalf("a whole download: %v, status %d, %d bytes, trailers %v", err, res.StatusCode, len(body), res.Trailer)
			}
			f.s.ExportSinkForTest(func(w io.Writer) io.Writer { return &failAfter{w: w, n: 200 << 10} })
			f.logs.reset()
			res, body, err = get(t, path)
			if err == nil {
				t.Errorf("a download that failed after %d bytes read as a whole file", len(body))
			}
			if res.Trailer.Get("X-Export-Complete") != "" {
				t.Errorf("a failed download said it was complete: %v", res.Trailer)
			}
			if !strings.Contains(f.logs.text(), errDiskFailed.Error()) {
				t.Errorf("the failure was not logged with its cause:\n%s", f.logs.text())
			}
		})
	}
}
