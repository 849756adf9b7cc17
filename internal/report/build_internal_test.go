package report

import (
	"math/rand/v2"
	"strings"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/reportseed"
)

// TestAssignmentAfter looks up ids present and absent, in order and out
// of it, and expects the position of the assignment with the id, or no
// position, whatever the previous position given.
func TestAssignmentAfter(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var as []domain.ReportAssignment
	at := map[int64]int{}
	for id := int64(1); id < 400; id++ {
		if rng.IntN(3) != 0 {
			at[id] = len(as)
			as = append(as, domain.ReportAssignment{ID: id})
		}
	}
	for _, ordered := range []bool{true, false} {
		prev := -1
		for n := range 1000 {
			id := int64(rng.IntN(420))
			if ordered {
				id = int64(n/2 + 1)
			}
			got, ok := assignmentAfter(as, id, prev)
			want, present := at[id]
			switch {
			case ok != present:
				t.Fatalf("id %d after %d: found %v, want %v", id, prev, ok, present)
			case ok && got != want:
				t.Fatalf("id %d after %d: position %d, want %d", id, prev, got, want)
			case !ok && got != prev:
				t.Fatalf("id %d absent: position %d, want the previous %d", id, got, prev)
			}
			prev = got
		}
	}
}

// Labels that do not come each assignment's together are put in order
// before the report is built: the report of the labels shuffled is the
// report of the labels as the store reads them.
func TestBuildLabelsInAnyOrder(t *testing.T) {
	store, p := seededStore(t, reportseed.Options{Documents: 10, Annotators: 4, Calibrate: 0.3, KeyFacts: 2, Links: true, Seed: 9})
	report := func(shuffle bool) string {
		d := seededData(t, store, p)
		if shuffle {
			rng := rand.New(rand.NewPCG(3, 4))
			rng.Shuffle(len(d.Labels), func(i, j int) { d.Labels[i], d.Labels[j] = d.Labels[j], d.Labels[i] })
			rng.Shuffle(len(d.KeyFactLinks), func(i, j int) { d.KeyFactLinks[i], d.KeyFactLinks[j] = d.KeyFactLinks[j], d.KeyFactLinks[i] })
		}
		rep, err := Build(p.Slug, d, p.Settings, Options{Bootstrap: 50, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := rep.Write(&b, "json"); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	if a, b := report(false), report(true); a != b {
		t.Errorf("the report of shuffled labels differs:\n%.2000s\nwant\n%.2000s", b, a)
	}
}

// A summary assigned but without sentences is a unit of the summary
// level all the same, after those with sentences, and each assignment's
// part names its summary's position.
func TestSummariesWithoutSentencesAreUnits(t *testing.T) {
	store, p := seededStore(t, reportseed.Options{Documents: 4, Annotators: 3, Seed: 2})
	d := seededData(t, store, p)
	last := d.Assignments[len(d.Assignments)-1]
	for k := range int64(2) {
		a := last
		a.ID, a.SummaryID = last.ID+1+k, 1<<40 // twice the same summary, far from the others
		d.Assignments = append(d.Assignments, a)
	}
	x := newIndex(d, p.Settings)
	n := len(x.summaryIDs)
	if x.summaryIDs[n-1] != 1<<40 || x.summaryLen[n-1] != 0 || x.summaryIDs[n-2] == 1<<40 {
		t.Fatalf("last summaries %v with %v sentences, want the bare one once, last, with none", x.summaryIDs[n-2:], x.summaryLen[n-2:])
	}
	sc := x.scope(0, true)
	for i, part := range sc.parts {
		if id := sc.assignment(i).SummaryID; x.summaryIDs[part.summary] != id {
			t.Fatalf("assignment %d of summary %d: part names summary %d", i, id, x.summaryIDs[part.summary])
		}
	}
}
