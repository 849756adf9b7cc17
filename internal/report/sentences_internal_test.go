package report

import (
	"context"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/reportseed"
	"annotate/internal/tasks"
)

// Each sentence-level dimension's ratings built in the scope's sentence
// order are those the collector builds from the same labels, for the
// whole project and for one round.
func TestSentenceRatingsAsCollected(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "seed.db")
	if _, err := reportseed.Seed(ctx, path, reportseed.Options{Documents: 12, Annotators: 5, Calibrate: 0.3, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	store, err := tasks.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	p, err := store.ProjectBySlug(ctx, "big")
	if err != nil {
		t.Fatal(err)
	}
	d, err := store.ReportData(ctx, p.ID, domain.ReportFilter{})
	if err != nil {
		t.Fatal(err)
	}
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

// sameFloats compares float slices taking NaN (no gold) as equal to NaN.
func sameFloats(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return x == y || x != x && y != y })
}
