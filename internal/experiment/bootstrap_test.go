package experiment

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// smallStudy draws a small by-participant or by-item study.
func smallStudy(design string, seed uint64) *Data {
	p, err := ParsePlan([]byte(`{"participants":12,"items_per_participant":6,"k":3,"randomise":"` + design + `",
		"accuracy":{"none":0.7,"verdict":0.8,"debate":0.9},"follow_when_visible":0.4,"seed":` + strconv.FormatUint(seed, 10) + `}`))
	if err != nil {
		panic(err)
	}
	return Simulate(p)
}

// refBootstrap recomputes the bootstrap the slow way: it draws the
// participants and items of each replicate as lists, from the same
// random stream Analyse documents, builds the replicate's labels by
// pairing every drawn participant with every drawn item, and counts.
func refBootstrap(d *Data, seed uint64, reps int) [][]map[Figure]float64 {
	var strata [][]int
	byCond := map[int][]int{}
	seen := map[int]bool{}
	for _, o := range d.Observations {
		if !seen[o.Participant] {
			seen[o.Participant] = true
			byCond[o.Condition] = append(byCond[o.Condition], o.Participant)
		}
	}
	if d.Design == ByParticipant {
		for c := range d.Conditions {
			s := slices.Clone(byCond[c])
			slices.Sort(s)
			if len(s) > 0 {
				strata = append(strata, s)
			}
		}
	} else {
		var all []int
		for p := range seen {
			all = append(all, p)
		}
		slices.Sort(all)
		strata = [][]int{all}
	}
	itemSet := map[int]bool{}
	for _, o := range d.Observations {
		itemSet[o.Item] = true
	}
	var items []int
	for i := range itemSet {
		items = append(items, i)
	}
	slices.Sort(items)
	cell := map[[2]int][]Observation{}
	for _, o := range d.Observations {
		k := [2]int{o.Participant, o.Item}
		cell[k] = append(cell[k], o)
	}
	out := make([][]map[Figure]float64, reps)
	for r := range reps {
		rng := rand.New(rand.NewPCG(seed, uint64(r)))
		var ps, is []int
		for _, s := range strata {
			for range s {
				ps = append(ps, s[rng.IntN(len(s))])
			}
		}
		for range items {
			is = append(is, items[rng.IntN(len(items))])
		}
		byC := make([][]Observation, len(d.Conditions))
		for _, p := range ps {
			for _, i := range is {
				for _, o := range cell[[2]int{p, i}] {
					byC[o.Condition] = append(byC[o.Condition], o)
				}
			}
		}
		out[r] = make([]map[Figure]float64, len(d.Conditions))
		for c := range byC {
			out[r][c] = refFigures(byC[c])
		}
	}
	return out
}

// refInterval is the nearest-rank percentile interval of the defined values.
func refInterval(xs []float64) [2]float64 {
	var v []float64
	for _, x := range xs {
		if !math.IsNaN(x) {
			v = append(v, x)
		}
	}
	slices.Sort(v)
	n := float64(len(v))
	lo := int(math.Floor(n * 0.025))
	hi := int(math.Ceil(n*0.975)) - 1
	return [2]float64{v[lo], v[hi]}
}

// TestBootstrapMatchesReference pins Analyse's intervals, of the figures
// and of the differences from the baseline, against refBootstrap.
func TestBootstrapMatchesReference(t *testing.T) {
	for _, design := range []string{"participant", "item"} {
		t.Run(design, func(t *testing.T) {
			d := smallStudy(design, 3)
			const reps = 300
			res, err := Analyse(d, Options{Replicates: reps, Permutations: 10, Seed: 11, Workers: 3})
			if err != nil {
				t.Fatal(err)
			}
			ref := refBootstrap(d, 11, reps)
			for c, cr := range res.Conditions {
				for _, f := range Figures {
					var xs, ds []float64
					for r := range reps {
						xs = append(xs, ref[r][c][f])
						ds = append(ds, ref[r][c][f]-ref[r][d.Baseline][f])
					}
					want := refInterval(xs)
					got := cr.Figures[f].CI
					if !sameFloat(got[0], want[0]) || !sameFloat(got[1], want[1]) {
						t.Errorf("%s %s: interval %v, reference %v", cr.Name, f, got, want)
					}
					if c == d.Baseline {
						continue
					}
					want = refInterval(ds)
					got = cr.VsBaseline[f].CI
					if !sameFloat(got[0], want[0]) || !sameFloat(got[1], want[1]) {
						t.Errorf("%s − none %s: interval %v, reference %v", cr.Name, f, got, want)
					}
				}
			}
		})
	}
}

// TestAnalyseOrderFree reads the same labels in two row orders, indexing
// ids with NewIndex, and expects byte-identical results.
func TestAnalyseOrderFree(t *testing.T) {
	d := smallStudy("participant", 5)
	// Give participants and items string ids whose sorted order differs
	// from their numbers, then rebuild the data from shuffled rows.
	pid := func(p int) string { return "P" + strconv.Itoa(97-p) }
	iid := func(i int) string { return "doc" + strconv.Itoa(i*7%31) + "/" + strconv.Itoa(i) }
	rebuild := func(rows []Observation) *Data {
		var ps, is []string
		for _, o := range rows {
			ps, is = append(ps, pid(o.Participant)), append(is, iid(o.Item))
		}
		px, ix := NewIndex(ps), NewIndex(is)
		nd := *d
		nd.Observations = nil
		nd.Participants, nd.Items = px.Len(), ix.Len()
		for _, o := range rows {
			o.Participant, o.Item = px.Of(pid(o.Participant)), ix.Of(iid(o.Item))
			nd.Observations = append(nd.Observations, o)
		}
		return &nd
	}
	a := rebuild(d.Observations)
	rows := slices.Clone(d.Observations)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	b := rebuild(rows)
	ra, err := Analyse(a, Options{Replicates: 200, Permutations: 200, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	rb, err := Analyse(b, Options{Replicates: 200, Permutations: 200, Seed: 9, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	ja, _ := json.Marshal(ra)
	jb, _ := json.Marshal(rb)
	if string(ja) != string(jb) {
		t.Fatalf("results differ with row order:\n%s\n%s", ja, jb)
	}
}

// TestEstimateJSON writes NaN as null and keeps the documented keys.
func TestEstimateJSON(t *testing.T) {
	b, err := json.Marshal(Difference{Estimate: Estimate{Value: 0.25, CI: [2]float64{math.NaN(), 0.5}}, P: math.NaN()})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m["value"] != 0.25 || m["p"] != nil {
		t.Fatalf("got %s", b)
	}
	ci := m["ci95"].([]any)
	if ci[0] != nil || ci[1] != 0.5 {
		t.Fatalf("ci95 = %v", ci)
	}
}

// TestParticipantInTwoConditions refuses a by-participant study whose
// participant has labels in two conditions.
func TestParticipantInTwoConditions(t *testing.T) {
	d := &Data{Participants: 1, Items: 2, Conditions: []string{"none", "debate"}, Baseline: 0,
		Observations: []Observation{obs(0, 0, 0, "u", "u", -1, 1), obs(0, 1, 1, "u", "u", -1, 1)}}
	_, err := Analyse(d, Options{Replicates: 10, Permutations: 10})
	if err == nil || !strings.Contains(err.Error(), "randomises by participant") {
		t.Fatalf("err = %v", err)
	}
}
