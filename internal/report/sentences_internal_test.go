package report

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/reportseed"
	"annotate/internal/tasks"
	"annotate/internal/testkit"
)

// Each sentence-level dimension's ratings built in the scope's sentence
// order are those the collector builds from the same labels, for the
// whole project and for one round.
func TestSentenceRatingsAsCollected(t *testing.T) {
	store, p := testkit.SeededProject(t, reportseed.Options{Documents: 12, Annotators: 5, Calibrate: 0.3, Seed: 7})
	d := seededData(t, store, p)
	x := newIndex(d, p.Settings)
	for _, round := range append([]domain.Round{{}}, d.Rounds...) {
		sc := x.scope(round.ID, true)
		n := 0
		for _, src := range x.sources() {
			if src.sentence == nil {
				continue
			}
			n++
			got := x.sentenceRatings(src, sc)
			src.sentence = nil
			want := x.ratings(src, sc)
			if !reflect.DeepEqual(got.c, want.c) || !sameFloats(got.gold, want.gold) || !reflect.DeepEqual(got.keys, want.keys) {
				t.Errorf("round %q, %s: ratings differ from those collected", round.Name, src.spec.key())
			}
		}
		if n < 5 || sc.labels == 0 {
			t.Fatalf("round %q: %d sentence dimensions, %d labels", round.Name, n, sc.labels)
		}
	}
}

// seededData reads the report data of the whole project p.
func seededData(t *testing.T, store *tasks.Store, p *domain.Project) *domain.ReportData {
	t.Helper()
	d, err := store.ReportData(context.Background(), p.ID, domain.ReportFilter{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// sameFloats compares float slices taking NaN (no gold) as equal to NaN.
func sameFloats(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return x == y || x != x && y != y })
}
