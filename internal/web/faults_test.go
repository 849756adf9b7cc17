package web_test

import (
	"bytes"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"annotate/internal/tasks"
	"annotate/internal/web"
)

// TestDiskFullKeepsServing fills the database to its limit: the save that
// does not fit is refused with a message that says so (503, to be retried),
// nothing of it is written, the server keeps serving, and once there is
// room again the same save goes through.
func TestDiskFullKeepsServing(t *testing.T) {
	w := newWorkFixture(t)
	a := w.assign["ann"][0]
	sents := w.sentences[a.SummaryID]
	b := w.browser()
	b.login("ann", testPassword)

	size, err := w.store.Size(w.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.store.LimitSize(w.ctx, size); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("The figure is not in the meeting. ", 260) // about 9,000 characters: needs new pages
	form := url.Values{"label": {"unfaithful"}, "error_types": {"extrinsic_information"}, "explanation": {long}}
	p := b.save(a, sents[0], "0", form)
	if p.status != http.StatusServiceUnavailable || !strings.Contains(p.body, "disk is full") {
		t.Fatalf("save on a full disk: %d %q", p.status, p.body)
	}
	if p.header.Get("Retry-After") == "" {
		t.Error("no Retry-After on 503")
	}
	labels, err := w.store.SentenceLabels(w.ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(labels) != 0 {
		t.Fatalf("a refused save left %d labels", len(labels))
	}
	if p := b.get(fmt.Sprintf("/a/%d", a.ID)); p.status != http.StatusOK {
		t.Fatalf("labelling page on a full disk: %d", p.status)
	}

	if err := w.store.LimitSize(w.ctx, 0); err != nil {
		t.Fatal(err)
	}
	if p := b.save(a, sents[0], "0", form); p.status != http.StatusOK {
		t.Fatalf("the same save with room again: %d %s", p.status, p.body)
	}
}

// TestLockedDatabase holds the write lock from another connection, as a
// backup tool or a second process might. A save waits for it; one that
// waits past the busy timeout is refused with a clear message, and the
// server keeps serving. The server's store waits 2 s for a lock (serve
// --busy-timeout) rather than the default 10 s.
func TestLockedDatabase(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the busy timeout")
	}
	t.Parallel()
	w := newWorkFixture(t)
	store, err := tasks.Open(w.ctx, w.store.Path(), tasks.WithBusyTimeout(2*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	srv, err := web.New(w.ctx, store, web.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	w.srv = httptest.NewServer(srv.Handler())
	defer w.srv.Close()
	a := w.assign["ann"][0]
	sents := w.sentences[a.SummaryID]
	b := w.browser()
	b.login("ann", testPassword)

	other, err := sql.Open("sqlite", "file:"+w.store.Path()+"?_pragma=busy_timeout(1000)")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(w.ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	lock := func() {
		if _, err := conn.ExecContext(w.ctx, "BEGIN IMMEDIATE"); err != nil {
			t.Fatal(err)
		}
	}
	unlock := func() {
		if _, err := conn.ExecContext(w.ctx, "ROLLBACK"); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("a short lock only delays the save", func(t *testing.T) {
		lock()
		time.AfterFunc(500*time.Millisecond, unlock)
		if p := b.save(a, sents[0], "0", url.Values{"label": {"faithful"}}); p.status != http.StatusOK {
			t.Fatalf("save behind a short lock: %d %s", p.status, p.body)
		}
	})
	t.Run("a lock past the busy timeout refuses the save", func(t *testing.T) {
		lock()
		defer unlock()
		p := b.save(a, sents[1], "1", url.Values{"label": {"faithful"}})
		if p.status != http.StatusServiceUnavailable || !strings.Contains(p.body, "busy") {
			t.Fatalf("save behind a long lock: %d %q", p.status, p.body)
		}
		if p := b.get("/healthz"); p.status != http.StatusOK {
			t.Fatalf("healthz while locked: %d", p.status)
		}
	})
	if p := b.save(a, sents[1], "1", url.Values{"label": {"faithful"}}); p.status != http.StatusOK {
		t.Fatalf("save after the lock: %d %s", p.status, p.body)
	}
}

// TestUploadLimit sends an import larger than the server's limit: it is
// refused with 413 and a page that says so, and nothing is imported.
func TestUploadLimit(t *testing.T) {
	w := newWorkFixture(t)
	s, err := web.New(w.ctx, w.store, web.Config{MaxUploadBytes: 4096, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	small := httptest.NewServer(s.Handler())
	defer small.Close()
	w.srv = small
	b := w.browser()
	b.login("lea", testPassword)
	tok := b.csrf("/p/alpha/import")

	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("_csrf", tok)
	mw.WriteField("format", "native")
	fw, _ := mw.CreateFormFile("files", "big.jsonl")
	line := `{"id":"big-%d","sentences":["One sentence."],"summaries":[{"id":"s","sentences":[{"text":"One."}]}]}` + "\n"
	for i := 0; i < 200; i++ {
		fmt.Fprintf(fw, line, i)
	}
	mw.Close()
	// Browsers send a Content-Length with a form upload, so the limit
	// answers before the body is read.
	req, _ := http.NewRequest(http.MethodPost, small.URL+"/p/alpha/import", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if p := b.do(req); p.status != http.StatusRequestEntityTooLarge || !strings.Contains(p.body, "Upload too large") {
		t.Fatalf("oversized upload: %d", p.status)
	}
	o, err := w.store.ProjectOverview(w.ctx, w.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	if o.Documents != 1 {
		t.Fatalf("documents after a refused upload: %d, want 1", o.Documents)
	}
}
