package report

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/reportseed"
	"annotate/internal/testkit"
)

// The key-fact ratings made in place are those a collector builds by
// adding, assignment after assignment, each key fact with each sentence of
// the summary as present when the assignment linked them: for the whole
// project (whose scope counts an annotator's production assignment of a
// summary also in the calibration round) and for each round, with the
// links as read and shuffled.
func TestKeyFactRatingsAsCollected(t *testing.T) {
	store, p := testkit.SeededProject(t, reportseed.Options{Documents: 12, Annotators: 5, Calibrate: 0.3, KeyFacts: 3, Links: true, Seed: 7})
	for _, shuffled := range []bool{false, true} {
		d := seededData(t, store, p)
		linked := map[[3]int64]bool{}
		for _, l := range d.KeyFactLinks {
			linked[[3]int64{l.AssignmentID, l.KeyFactID, l.SentenceID}] = true
		}
		if shuffled {
			rand.New(rand.NewPCG(1, 2)).Shuffle(len(d.KeyFactLinks), func(i, j int) {
				d.KeyFactLinks[i], d.KeyFactLinks[j] = d.KeyFactLinks[j], d.KeyFactLinks[i]
			})
		}
		x := newIndex(d, p.Settings)
		for _, round := range append([]domain.Round{{}}, d.Rounds...) {
			sc := x.scope(round.ID, true)
			sp := &spec{name: "key_facts"}
			got := x.keyFactRatings(sp, sc)
			c := x.newCollector(sp, len(sc.coders))
			base := x.summaryBlocks()
			for i := range sc.which {
				a := sc.assignment(i)
				coder := int(sc.parts[i].coder)
				u, _ := x.summaryPos.of(a.SummaryID)
				sents := x.data.Sentences[x.summaryFirst[u] : x.summaryFirst[u]+x.summaryLen[u]]
				kfs := x.data.SummaryKeyFacts[a.SummaryID]
				if base[u] < 0 {
					base[u] = len(c.keys)
					for _, kf := range kfs {
						for _, s := range sents {
							c.keys = append(c.keys, unitKey{kf, s.ID})
						}
					}
				}
				k := base[u]
				for _, kf := range kfs {
					for _, s := range sents {
						c.addAt(k, coder, boolValue(linked[[3]int64{a.ID, kf, s.ID}]))
						k++
					}
				}
			}
			want := c.build()
			if !reflect.DeepEqual(got.c, want.c) || !reflect.DeepEqual(got.keys, want.keys) {
				t.Errorf("shuffled %v, round %q: key-fact ratings differ from those collected", shuffled, round.Name)
			}
			counts := map[int32]int{}
			for _, k := range got.c.Code {
				counts[k]++
			}
			if len(got.c.Values) != 2 || counts[0] == 0 || counts[1] == 0 || len(got.keys) == 0 {
				t.Fatalf("round %q: values %v, %v ratings of each: want present and absent", round.Name, got.c.Values, counts)
			}
		}
	}
}
