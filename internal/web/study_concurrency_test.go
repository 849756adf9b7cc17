package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"annotate/internal/app"
	"annotate/internal/domain"
)

// TestParticipantPagesUnderConcurrency opens participants' labelling
// pages many at once: each is read in a snapshot that holds one of the
// few read connections, and what the page asks of the study store must
// be read in that snapshot, not on a second connection, or as many
// pages as there are connections wait for each other until they time
// out (as 300 simulated participants found).
func TestParticipantPagesUnderConcurrency(t *testing.T) {
	f := newFixture(t)
	lead := f.user("lea", false)
	p := f.project("crowd", map[*domain.User]string{lead: domain.RoleLead})
	var docs []domain.DocumentInput
	for i := 1; i <= 40; i++ {
		docs = append(docs, domain.DocumentInput{ExternalID: fmt.Sprintf("d%d", i), Sentences: []string{"The council met."},
			Summaries: []domain.SummaryInput{{ExternalID: fmt.Sprintf("s%d", i), Sentences: []domain.SentenceInput{{Text: "The council met."}}}}})
	}
	if _, err := f.store.Import(f.ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	st, err := app.New(f.store).CreateStudy(f.ctx, p, "busy", []byte(`{"round":"crowd","conditions":["none"],"k":3,"items_per_participant":3,"attention_rate":0}`))
	if err != nil {
		t.Fatal(err)
	}
	const people = 16
	var pages []string
	var browsers []*browser
	for i := range people {
		b := f.browser()
		b.client.Timeout = 10 * time.Second
		if pg := b.get("/s/" + st.EntryToken + "?" + url.Values{"pid": {fmt.Sprintf("p%d", i)}}.Encode()); pg.status != http.StatusSeeOther {
			t.Fatalf("entry %d: %d", i, pg.status)
		}
		tok := b.csrf("/study")
		b.post("/study", url.Values{"_csrf": {tok}, "answer": {"start"}})
		pg := b.get("/study")
		if !strings.HasPrefix(pg.header.Get("Location"), "/a/") {
			t.Fatalf("participant %d was not sent to a summary: %d %q", i, pg.status, pg.header.Get("Location"))
		}
		pages = append(pages, pg.header.Get("Location"))
		browsers = append(browsers, b)
	}
	var wg sync.WaitGroup
	statuses := make(chan int, people*5)
	for i := range people {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				req, _ := http.NewRequest(http.MethodGet, f.srv.URL+pages[i], nil)
				resp, err := browsers[i].client.Do(req)
				if err != nil {
					statuses <- 0
					continue
				}
				resp.Body.Close()
				statuses <- resp.StatusCode
			}
		}()
	}
	wg.Wait()
	close(statuses)
	for s := range statuses {
		if s != http.StatusOK {
			t.Fatalf("a participant's labelling page answered %d (0: no answer within 10 s)", s)
		}
	}
}
