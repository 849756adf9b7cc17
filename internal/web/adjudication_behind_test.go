package web_test

import (
	"database/sql"
	"net/http"
	"strings"
	"testing"
	"time"

	"annotate/internal/domain"
	"annotate/internal/tasks"
	"annotate/web/templates"
)

// TestAdjudicationQueueWhileTheWriterIsHeld: with rows of the gold index
// waiting to be rewritten and the write lock held by another process (an
// import, a backup tool), the queue page does not wait for the lock: it
// answers from the index as it is and says that it is behind, with how
// many sentences; far behind, it shows only that. Once the lock is
// released, the next view brings the index up to date and the notice is
// gone.
func TestAdjudicationQueueWhileTheWriterIsHeld(t *testing.T) {
	// Each page below waits for the writer as long as the store lets it,
	// then reads the index as it is: a shorter wait makes the test quick
	// and changes nothing else. The test is not parallel, so no other
	// test runs while the wait is changed. A page that must bring the
	// index up to date once the lock is gone (caughtUp) may take as long
	// as it needs: on a busy machine 200 ms did not rewrite 1,001 rows.
	t.Cleanup(tasks.SetFreshWaitForTests(200 * time.Millisecond))
	f := newAdjFixture(t)
	lea := f.as("lea")
	caughtUp := func(path string) page {
		defer tasks.SetFreshWaitForTests(time.Minute)()
		return lea.get(path)
	}
	if p := lea.get("/p/alpha/adjudication"); p.status != http.StatusOK || p.testText("n-pending") != "1" {
		t.Fatalf("queue: %d, pending %q", p.status, p.testText("n-pending"))
	}

	other, err := sql.Open("sqlite", "file:"+f.store.Path()+"?_pragma=busy_timeout(1000)")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(f.ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// addStale adds n sentences without labels to a summary of the
	// project, ids from base+1 on, and marks their gold index rows stale:
	// they stand in for the many rows a catch-up has to rewrite.
	addStale := func(base, n int) {
		t.Helper()
		if _, err := conn.ExecContext(f.ctx, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
			INSERT INTO summary_sentences (id, summary_id, idx, text) SELECT ?2 + i, ?3, ?2 + i, 'Added.' FROM n`, n, base, f.sum); err != nil {
			t.Fatal(err)
		}
		if _, err := conn.ExecContext(f.ctx, `INSERT INTO gold_tallies_stale (sentence_id) SELECT id FROM summary_sentences WHERE id > ?`, base); err != nil {
			t.Fatal(err)
		}
	}
	res, err := conn.ExecContext(f.ctx, `INSERT INTO gold_tallies_stale (sentence_id) SELECT sentence_id FROM gold_sentences`)
	if err != nil {
		t.Fatal(err)
	}
	stale, err := res.RowsAffected()
	if err != nil || stale < 2 {
		t.Fatalf("marked %d rows stale (%v); the fixture has gold on at least two sentences", stale, err)
	}
	roundPage := "/p/alpha/rounds/" + itoa(f.assign["ann"][0].RoundID)
	if _, err := conn.ExecContext(f.ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	p := lea.get("/p/alpha/adjudication")
	rp := lea.get(roundPage)
	if _, err := conn.ExecContext(f.ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	if rp.status != http.StatusOK {
		t.Fatalf("round page while the writer is held: %d", rp.status)
	}
	rp.textIn(t, tid("round-behind"), "catching up on "+itoa(stale)+" changed sentences of this project")
	if got := rp.testText("round-waiting"); !strings.HasPrefix(got, "1 sentences of this round wait") {
		t.Fatalf("round waiting %q while behind; the index's rows were current, only marked", got)
	}
	if p.status != http.StatusOK {
		t.Fatalf("queue while the writer is held: %d %s", p.status, p.body)
	}
	notice := p.mustFind(t, tid("queue-behind"))
	if got := notice.Text(); !strings.Contains(got, "catching up on ") || !strings.Contains(got, " changed sentences") {
		t.Fatalf("notice %q", got)
	}
	if n := p.testText("n-pending"); n != "1" {
		t.Fatalf("pending %q while behind; the index's rows were current, only marked", n)
	}
	if !strings.Contains(notice.Text(), " "+itoa(stale)+" ") {
		t.Fatalf("notice %q does not give the %d sentences behind", notice.Text(), stale)
	}

	p = caughtUp("/p/alpha/adjudication")
	if p.status != http.StatusOK || p.testText("n-pending") != "1" {
		t.Fatalf("queue after the lock: %d, pending %q", p.status, p.testText("n-pending"))
	}
	p.noneIn(t, "main", tid("queue-behind"))
	caughtUp(roundPage).noneIn(t, "main", tid("round-behind"))

	// Another project's changed sentences are not this project's: with the
	// writer held and only they behind, alpha's pages show no notice.
	beta := f.fixture.project("beta", nil)
	if _, err := f.store.Import(f.ctx, beta.ID, []domain.DocumentInput{{ExternalID: "b-1", Sentences: []string{"The board met."},
		Summaries: []domain.SummaryInput{{ExternalID: "b-1-s", Sentences: []domain.SentenceInput{{Text: "The board met."}, {Text: "It voted."}}}}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(f.ctx, `INSERT INTO gold_tallies_stale (sentence_id) SELECT ss.id FROM summary_sentences ss
		JOIN summaries s ON s.id = ss.summary_id WHERE s.project_id = ?`, beta.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(f.ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	p = lea.get("/p/alpha/adjudication")
	rp = lea.get(roundPage)
	if _, err := conn.ExecContext(f.ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	if p.status != http.StatusOK || rp.status != http.StatusOK {
		t.Fatalf("pages while another project is behind: %d, %d", p.status, rp.status)
	}
	p.noneIn(t, "main", tid("queue-behind"))
	rp.noneIn(t, "main", tid("round-behind"))
	if n := must(f.store.StaleGoldRows(f.ctx, beta.ID))(t); n != 2 {
		t.Fatalf("beta's rows behind: %d, want its 2 sentences", n)
	}

	// Far behind (as after an upgrade), the counts would mislead: the page
	// shows only that it is catching up.
	addStale(1_000_000, templates.AdjBehindShown+1)
	if _, err := conn.ExecContext(f.ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	p = lea.get("/p/alpha/adjudication")
	if _, err := conn.ExecContext(f.ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	if p.status != http.StatusOK {
		t.Fatalf("queue far behind: %d", p.status)
	}
	p.textIn(t, tid("queue-behind"), "being brought up to date", itoa(int64(templates.AdjBehindShown+1))+" changed sentences")
	p.noneIn(t, "main", tid("gold-counts"))
	p.noneIn(t, "main", tid("adj-queue"))
	p = caughtUp("/p/alpha/adjudication")
	p.noneIn(t, "main", tid("queue-behind"))
	if p.testText("n-pending") != "1" {
		t.Fatalf("pending %q once caught up", p.testText("n-pending"))
	}

	// Further behind than the store counts (as after a large import), the
	// page says "more than", and does not bring the index up to date
	// itself: the server's keeper does, in the background (none runs in
	// this test, so the notice stays).
	addStale(2_000_000, tasks.StaleRowsCounted+5)
	if n := must(f.store.StaleGoldRows(f.ctx, f.project.ID))(t); n != tasks.StaleRowsCounted+1 {
		t.Fatalf("StaleGoldRows = %d, want it to stop counting at %d", n, tasks.StaleRowsCounted+1)
	}
	for range 2 {
		p = lea.get("/p/alpha/adjudication")
		if p.status != http.StatusOK {
			t.Fatalf("queue further behind than counted: %d", p.status)
		}
		p.textIn(t, tid("queue-behind"), "being brought up to date", "more than "+itoa(tasks.StaleRowsCounted)+" changed sentences")
		p.noneIn(t, "main", tid("adj-queue"))
	}
	lea.get(roundPage).textIn(t, tid("round-behind"), "catching up on more than "+itoa(tasks.StaleRowsCounted)+" changed sentences")
}
