package report

import (
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"annotate/internal/domain"
	"annotate/internal/reportseed"
	"annotate/internal/testkit"
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
	store, p := testkit.SeededProject(t, reportseed.Options{Documents: 10, Annotators: 4, Calibrate: 0.3, KeyFacts: 2, Links: true, Seed: 9})
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
	store, p := testkit.SeededProject(t, reportseed.Options{Documents: 4, Annotators: 3, Seed: 2})
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

// TestScopeAgainstReference: a scope's assignments, coders and parts are
// those worked out directly from the data, each annotator's latest
// assignment of a summary across rounds (or a round's own), its coders
// by name, for every round and with drafts or not, with the latest
// assignments found in a table and in a map.
func TestScopeAgainstReference(t *testing.T) {
	store, p := testkit.SeededProject(t, reportseed.Options{Documents: 12, Annotators: 5, Calibrate: 0.5, Seed: 6})
	d := seededData(t, store, p)
	// The same summaries dealt again to the same annotators in a later
	// round, some of them submitted: the later one is their latest.
	n := len(d.Assignments)
	for i := range n / 3 {
		a := d.Assignments[i*3]
		a.ID, a.RoundID = d.Assignments[n-1].ID+1+int64(i), 99
		if i%2 == 0 {
			a.Status = domain.StatusInProgress
		}
		d.Assignments = append(d.Assignments, a)
	}
	x := newIndex(d, p.Settings)
	rounds := []int64{0, 99}
	for _, r := range d.Rounds {
		rounds = append(rounds, r.ID)
	}
	defer func(old bool) { denseScopes = old }(denseScopes)
	for _, dense := range []bool{true, false} {
		denseScopes = dense
		for _, round := range rounds {
			for _, drafts := range []bool{false, true} {
				sc := x.scope(round, drafts)
				// The reference: the first place of each (annotator,
				// summary) in id order holds its latest assignment.
				var which []int32
				at := map[[2]int64]int{}
				names := map[string]bool{}
				for j, a := range d.Assignments {
					if (round != 0 && a.RoundID != round) || (!drafts && a.Status != domain.StatusSubmitted) {
						continue
					}
					k := [2]int64{a.UserID, a.SummaryID}
					if round != 0 {
						k = [2]int64{int64(j), 0}
					}
					if i, ok := at[k]; !ok {
						at[k] = len(which)
						which = append(which, int32(j))
					} else if a.RoundID > d.Assignments[which[i]].RoundID {
						which[i] = int32(j)
					}
					names[a.Username] = true
				}
				coders := slices.Sorted(maps.Keys(names))
				if !slices.Equal(sc.which, which) || !slices.Equal(sc.coders, coders) {
					t.Fatalf("dense %v, round %d, drafts %v: scope %v with %v, want %v with %v", dense, round, drafts, sc.which, sc.coders, which, coders)
				}
				for i, j := range which {
					a := d.Assignments[j]
					u, _ := x.summaryPos.of(a.SummaryID)
					want := part{lo: x.labelLo[j], hi: x.labelHi[j], coder: int32(slices.Index(coders, a.Username)), summary: u}
					if sc.parts[i] != want {
						t.Fatalf("dense %v, round %d, drafts %v: part %d %+v, want %+v", dense, round, drafts, i, sc.parts[i], want)
					}
				}
			}
		}
	}
}

// TestGoldViewsAreOneArray: the index's gold views lie one after another
// in a single array. Each sentence's gold points into it, so an array
// grown while they were made would leave the earlier sentences pointing
// into outgrown arrays, all kept alive.
func TestGoldViewsAreOneArray(t *testing.T) {
	store, p := testkit.SeededProject(t, reportseed.Options{Documents: 30, Annotators: 3, Gold: 0.9, Seed: 4})
	x := newIndex(seededData(t, store, p), p.Settings)
	var prev *label
	n := 0
	for _, g := range x.gold {
		if g == nil {
			continue
		}
		if prev != nil && uintptr(unsafe.Pointer(g)) != uintptr(unsafe.Pointer(prev))+unsafe.Sizeof(label{}) {
			t.Fatalf("gold view %d is not next to the one before it", n)
		}
		prev = g
		n++
	}
	if n < 100 {
		t.Fatalf("only %d sentences with gold: the fixture does not grow an array", n)
	}
}

// TestViewFirstLabel: a view codes the first label as its faithfulness
// code, −1 when there was none, and −2 when it was not a faithfulness
// label; and keeps whether the assistant was shown.
func TestViewFirstLabel(t *testing.T) {
	strs := []string{"", domain.LabelFaithful, domain.LabelUnfaithful, "not a label"}
	c := newStringCodes(strs)
	masks := []uint64{0}
	for _, tc := range []struct {
		first   uint32
		visible bool
		want    int8
	}{{0, false, -1}, {1, true, 0}, {2, true, 1}, {3, true, -2}} {
		v := c.view(&domain.ReportLabel{Label: 2, FirstLabel: tc.first, AssistantVisible: tc.visible}, masks)
		if v.first != tc.want || v.visible != tc.visible {
			t.Errorf("first label %q, visible %v: view first %d visible %v, want %d", strs[tc.first], tc.visible, v.first, v.visible, tc.want)
		}
	}
}
