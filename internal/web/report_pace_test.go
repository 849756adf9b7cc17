package web_test

import (
	"database/sql"
	"encoding/json"
	"math"
	"testing"
)

// TestReportSecondsPerSentence: the report gives each annotator's active
// seconds over the sentences they labelled, computed here from the
// assignments themselves; an annotator with no time recorded has none.
func TestReportSecondsPerSentence(t *testing.T) {
	r := newReportFixture(t)
	ann := must(r.store.UserByName(r.ctx, "ann_a"))(t)
	q, err := r.store.Queue(r.ctx, r.project.ID, ann.ID)
	if err != nil || len(q) == 0 {
		t.Fatalf("queue %v %v", q, err)
	}
	// Time on submitted work, set straight in the database: the page's
	// route refuses time on a submitted summary.
	// Without a round, the report counts each annotator's latest
	// assignment of a summary.
	latest := map[int64]int64{}
	for _, a := range q {
		latest[a.SummaryID] = max(latest[a.SummaryID], a.ID)
	}
	var secs, sentences int
	for i, a := range q {
		s := 30 + 7*i
		err := r.store.WriteTx(r.ctx, func(tx *sql.Tx) error {
			_, err := tx.ExecContext(r.ctx, `UPDATE assignments SET active_seconds = ? WHERE id = ?`, s, a.ID)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		labels := must(r.store.SentenceLabels(r.ctx, a.ID))(t)
		if len(labels) > 0 && latest[a.SummaryID] == a.ID {
			secs += s
			sentences += len(labels)
		}
	}
	want := float64(secs) / float64(sentences)
	lead := r.lead(t)
	pg := lead.get("/p/rep/report.json?drafts=1")
	var rep struct {
		PerAnnotator []struct {
			Annotator string   `json:"annotator"`
			Labels    int      `json:"sentence_labels"`
			Pace      *float64 `json:"seconds_per_sentence"`
		} `json:"per_annotator"`
	}
	if err := json.Unmarshal([]byte(pg.body), &rep); err != nil {
		t.Fatalf("%v: %.300s", err, pg.body)
	}
	found := false
	for _, a := range rep.PerAnnotator {
		switch a.Annotator {
		case "ann_a":
			found = true
			if a.Pace == nil || math.Abs(*a.Pace-want) > 1e-9 || a.Labels != sentences {
				t.Errorf("ann_a: %v s a sentence over %d labels, want %v over %d", deref(a.Pace), a.Labels, want, sentences)
			}
		default:
			if a.Pace != nil {
				t.Errorf("%s has no time recorded but %v s a sentence", a.Annotator, *a.Pace)
			}
		}
	}
	if !found {
		t.Fatalf("no ann_a in %.300s", pg.body)
	}
}

func deref(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}
