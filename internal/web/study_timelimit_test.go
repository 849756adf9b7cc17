package web_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"annotate/internal/app"
	"annotate/internal/domain"
	"annotate/internal/tasks"
	"annotate/internal/web"
)

// TestStudyTimeOverOnThePage: a participant of a study with a 10-minute
// time limit saves a label; past the limit, the next save is refused with
// a message saying why, the labelling page sends them to the study page,
// and the study page ends with the completion code and says the time is
// over. The lead's study page marks them.
func TestStudyTimeOverOnThePage(t *testing.T) {
	ctx := context.Background()
	store, err := tasks.Open(ctx, filepath.Join(t.TempDir(), "web.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	var skew atomic.Int64 // how far the server's clock is ahead
	now := func() time.Time { return time.Now().Add(time.Duration(skew.Load())) }
	s, err := web.New(ctx, store, web.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	f := &fixture{t: t, store: store, srv: srv, ctx: ctx}
	lead := f.user("lea", false)
	p := f.project("crowd", map[*domain.User]string{lead: domain.RoleLead})
	var docs []domain.DocumentInput
	for i := 1; i <= 3; i++ {
		docs = append(docs, domain.DocumentInput{ExternalID: fmt.Sprintf("d%d", i), Sentences: []string{"The council met."},
			Summaries: []domain.SummaryInput{{ExternalID: fmt.Sprintf("s%d", i), Sentences: []domain.SentenceInput{{Text: "The council met."}}}}})
	}
	if _, err := store.Import(ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	st, err := app.New(store).CreateStudy(ctx, p, "timed", []byte(`{"round":"crowd","conditions":["none"],"k":1,"items_per_participant":3,
		"attention_rate":0,"time_limit":"10m","completion":{"completed":"DONE42"}}`))
	if err != nil {
		t.Fatal(err)
	}
	b := f.browser()
	pg := b.get("/s/" + st.EntryToken + "?" + url.Values{"pid": {"slow"}}.Encode())
	if pg.status != http.StatusSeeOther {
		t.Fatalf("entry: %d", pg.status)
	}
	tok := b.csrf("/study")
	b.post("/study", url.Values{"_csrf": {tok}, "answer": {"start"}})
	pg = b.get("/study")
	at := pg.header.Get("Location")
	if pg.status != http.StatusSeeOther || !strings.HasPrefix(at, "/a/") {
		t.Fatalf("after start: %d to %q", pg.status, at)
	}
	var id int64
	fmt.Sscanf(at, "/a/%d", &id)
	a := must(store.AssignmentByID(ctx, id))(t)
	sum := must(store.Summary(ctx, a.SummaryID))(t)
	save := func() page {
		form := url.Values{"label": {"faithful"}, "index": {"1"}, "version": {fmt.Sprint(a.Version)}}
		req, _ := http.NewRequest(http.MethodPost, fmt.Sprintf("%s/a/%d/s/%d", srv.URL, id, sum.Sentences[0].ID), strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-CSRF-Token", tok)
		req.Header.Set("HX-Request", "true")
		return b.do(req)
	}
	if pg := save(); pg.status != http.StatusOK {
		t.Fatalf("a save in time: %d %s", pg.status, pg.body)
	}
	a = must(store.AssignmentByID(ctx, id))(t)

	skew.Store(int64(11 * time.Minute))
	if pg := save(); pg.status != http.StatusForbidden || !strings.Contains(pg.body, "The time for this study is over") {
		t.Fatalf("a save past the limit: %d %s", pg.status, pg.body)
	}
	if pg := b.get(at); pg.status != http.StatusSeeOther || pg.header.Get("Location") != "/study" {
		t.Fatalf("the labelling page past the limit: %d to %q", pg.status, pg.header.Get("Location"))
	}
	pg = b.get("/study")
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(pg.body))
	if err != nil {
		t.Fatal(err)
	}
	if pg.status != http.StatusOK || doc.Find(`[data-testid="study-time-over"]`).Length() != 1 || doc.Find(`[data-testid="study-code"]`).Text() != "DONE42" {
		t.Fatalf("the study page past the limit: %d\n%s", pg.status, pg.body)
	}
	if a, _ := store.AssignmentByID(ctx, id); a.Status != domain.StatusReleased {
		t.Fatalf("the open item is %s after the time ran out, want released", a.Status)
	}

	lb := f.browser()
	lb.login("lea", testPassword)
	pg = lb.get("/p/crowd/studies/timed")
	doc, err = goquery.NewDocumentFromReader(strings.NewReader(pg.body))
	if err != nil {
		t.Fatal(err)
	}
	if step := doc.Find(`td[data-label="Step"]`).First().Text(); !strings.Contains(step, "(time over)") {
		t.Fatalf("the lead's row reads %q, want the time over marked", step)
	}
}
