package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"annotate/internal/domain"
)

// BenchmarkQueueLength measures the labelling page, a sentence save and a
// submission (with its label) end to end over loopback for an annotator whose queue holds
// 200, 2,000 and 6,000 summaries: the demo-sized loadgen corpus's queue
// (1×), 10× and 30×. The assignment worked on sits in the middle of the
// queue. A figure that grows with the queue is a cost paid per queue
// entry.
func BenchmarkQueueLength(b *testing.B) {
	for _, n := range []int{200, 2000, 6000} {
		b.Run(fmt.Sprintf("queue=%d", n), func(b *testing.B) {
			f := newFixture(b)
			ann := f.user("ann", false)
			p := f.project("q", map[*domain.User]string{ann: domain.RoleAnnotator})
			docs := make([]domain.DocumentInput, n)
			for i := range docs {
				docs[i] = domain.DocumentInput{ExternalID: fmt.Sprintf("d%d", i), Sentences: []string{"The council met on Monday.", "It voted on the budget."},
					Summaries: []domain.SummaryInput{{ExternalID: fmt.Sprintf("s%d", i), Sentences: []domain.SentenceInput{{Text: "The council met."}, {Text: "It voted."}}}}}
			}
			if _, err := f.store.Import(f.ctx, p.ID, docs); err != nil {
				b.Fatal(err)
			}
			ids := must(f.store.SummaryIDs(f.ctx, p.ID, nil))(b)
			if _, err := f.store.CreateRound(f.ctx, p.ID, domain.RoundSpec{Name: "r", Kind: domain.RoundProduction, PerItem: 1, Annotators: []int64{ann.ID}, Summaries: ids}); err != nil {
				b.Fatal(err)
			}
			q := must(f.store.Queue(f.ctx, p.ID, ann.ID))(b)
			if len(q) != n {
				b.Fatalf("queue of %d, want %d", len(q), n)
			}
			br := f.browser()
			br.login("ann", testPassword)
			mid := q[n/2]
			sum := must(f.store.Summary(f.ctx, mid.SummaryID))(b)
			path := fmt.Sprintf("/a/%d", mid.ID)
			tok := br.csrf(path)
			b.Run("page", func(b *testing.B) {
				for b.Loop() {
					if pg := br.get(path); pg.status != http.StatusOK {
						b.Fatalf("status %d", pg.status)
					}
				}
			})
			version := mid.Version
			b.Run("save", func(b *testing.B) {
				i := 0
				for b.Loop() {
					form := url.Values{"label": {"faithful"}, "index": {"1"}, "version": {fmt.Sprint(version)}}
					req, _ := http.NewRequest(http.MethodPost, fmt.Sprintf("%s/a/%d/s/%d", f.srv.URL, mid.ID, sum.Sentences[i%2].ID), strings.NewReader(form.Encode()))
					req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
					req.Header.Set("X-CSRF-Token", tok)
					req.Header.Set("HX-Request", "true")
					if pg := br.do(req); pg.status != http.StatusOK {
						b.Fatalf("save: %d %s", pg.status, pg.body)
					}
					i++
					version++
				}
			})
			// A submission: the label of the one sentence, then the submit
			// and the look for the next open assignment. Each operation
			// uses up an assignment, so run it at most n/2 times
			// (-benchtime 90x covers every size).
			b.Run("submit", func(b *testing.B) {
				i := n / 2
				for b.Loop() {
					if i >= n {
						b.Fatalf("the queue of %d is used up; run with -benchtime %dx or less", n, n/2)
					}
					x := q[i]
					i++
					sum := must(f.store.Summary(f.ctx, x.SummaryID))(b)
					form := url.Values{"label": {"faithful"}, "index": {"1"}, "version": {fmt.Sprint(x.Version)}}
					if x.ID == mid.ID {
						form.Set("version", fmt.Sprint(version))
					}
					req, _ := http.NewRequest(http.MethodPost, fmt.Sprintf("%s/a/%d/s/%d", f.srv.URL, x.ID, sum.Sentences[0].ID), strings.NewReader(form.Encode()))
					req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
					req.Header.Set("X-CSRF-Token", tok)
					req.Header.Set("HX-Request", "true")
					if pg := br.do(req); pg.status != http.StatusOK {
						b.Fatalf("save: %d %s", pg.status, pg.body)
					}
					req, _ = http.NewRequest(http.MethodPost, fmt.Sprintf("%s/a/%d/submit", f.srv.URL, x.ID), strings.NewReader(url.Values{"_csrf": {tok}}.Encode()))
					req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
					if pg := br.do(req); pg.status != http.StatusSeeOther {
						b.Fatalf("submit: %d %s", pg.status, pg.body)
					}
				}
			})
		})
	}
}
