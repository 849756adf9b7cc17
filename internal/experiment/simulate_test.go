package experiment

import (
	"context"
	"math"
	"strings"
	"testing"
)

const issuePlan = `{"participants":60,"screening_pass":0.8,"attention_pass":0.9,
	"accuracy":{"none":0.75,"verdict":0.8,"debate":0.88},"follow_when_visible":0.4,"seconds_per_sentence":20,"seed":1}`

// TestPlantedValuesRecovered simulates the issue's example plan with more
// participants and expects each condition's accuracy, reliance and
// seconds within the bootstrap interval of what Analyse recovers.
func TestPlantedValuesRecovered(t *testing.T) {
	for _, design := range []string{"participant", "item"} {
		t.Run(design, func(t *testing.T) {
			p, err := ParsePlan([]byte(issuePlan))
			if err != nil {
				t.Fatal(err)
			}
			p.Participants, p.ItemsPerParticipant, p.Randomise = 150, 20, design
			d := Simulate(p)
			res, err := Analyse(d, Options{Replicates: 400, Permutations: 400, Seed: 2})
			if err != nil {
				t.Fatal(err)
			}
			for _, cr := range res.Conditions {
				for _, f := range []Figure{Accuracy, BalancedAccuracy, FollowedWhenRight, FollowedWhenWrong, WrongEqualAssistant, SecondsPerSentence} {
					want := Planted(p, cr.Name, f)
					e := cr.Figures[f]
					if !(e.CI[0] <= want && want <= e.CI[1]) {
						t.Errorf("%s %s: planted %.4f outside [%.4f, %.4f] (estimate %.4f)", cr.Name, f, want, e.CI[0], e.CI[1], e.Value)
					}
				}
			}
			debate := res.Conditions[2].VsBaseline[Accuracy]
			if debate.P >= 0.05 || debate.CI[0] <= 0 {
				t.Errorf("debate − none accuracy: planted %.3f, got %+v", Planted(p, "debate", Accuracy)-Planted(p, "none", Accuracy), debate)
			}
		})
	}
}

// TestIntervalCoverage measures, over 120 simulated studies of 30
// participants, how often the 95% interval of each condition's accuracy
// holds the planted value; the two-way cluster bootstrap should not be
// narrow. The seeds are fixed, so the count is too.
func TestIntervalCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	p, err := ParsePlan([]byte(issuePlan))
	if err != nil {
		t.Fatal(err)
	}
	p.Participants, p.ItemsPerParticipant = 30, 10
	const studies = 120
	covered, total := 0, 0
	for s := range uint64(studies) {
		p.Seed = 1000 + s
		res, err := Analyse(Simulate(p), Options{Replicates: 300, Permutations: 1, Seed: s})
		if err != nil {
			t.Fatal(err)
		}
		for _, cr := range res.Conditions {
			e := cr.Figures[Accuracy]
			total++
			if want := Planted(p, cr.Name, Accuracy); e.CI[0] <= want && want <= e.CI[1] {
				covered++
			}
		}
	}
	cov := float64(covered) / float64(total)
	t.Logf("coverage of the 95%% accuracy interval: %d of %d (%.3f)", covered, total, cov)
	if cov < 0.92 {
		t.Errorf("coverage %.3f below 0.92", cov)
	}
}

// TestPowerGrowsWithParticipants expects more power with more
// participants for the plan's debate effect, and little for a condition
// planted equal to none.
func TestPowerGrowsWithParticipants(t *testing.T) {
	p, err := ParsePlan([]byte(`{"participants":12,"accuracy":{"none":0.75,"verdict":0.75,"debate":0.9},"follow_when_visible":0,"seed":1}`))
	if err != nil {
		t.Fatal(err)
	}
	small, err := Power(context.Background(), p, Accuracy, 40, 199, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	p.Participants = 60
	large, err := Power(context.Background(), p, Accuracy, 40, 199, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("12 participants: %+v; 60: %+v", small, large)
	if large[1].Condition != "debate" || large[1].Power <= small[1].Power || large[1].Power < 0.7 {
		t.Errorf("debate power %.2f with 12, %.2f with 60", small[1].Power, large[1].Power)
	}
	if large[0].Power > 0.2 {
		t.Errorf("verdict, planted equal to none, detected in %.2f of studies", large[0].Power)
	}
}

// TestReadPlanErrorsNameTheField checks the messages of bad plans.
func TestReadPlanErrorsNameTheField(t *testing.T) {
	for _, tc := range []struct{ plan, want string }{
		{`{"participants":10,"accuracy":{"none":0.7},"colour":1}`, `unknown field "colour"`},
		{`{"participants":0,"accuracy":{"none":0.7}}`, "participants: must be at least 1"},
		{`{"participants":5,"accuracy":{"none":1.7}}`, "accuracy.none: 1.7 is not between 0 and 1"},
		{`{"participants":5,"accuracy":{"nothing":0.5}}`, "accuracy: give at least one condition"},
		{`{"participants":5,"conditions":["none","chat"],"accuracy":{"none":0.5}}`, `conditions[1]: "chat" is not one of none, verdict, debate, after`},
		{`{"participants":5,"accuracy":{"none":0.5},"randomise":"cluster"}`, `randomise: "cluster" is not one of participant, item`},
		{`{"participants":5,"accuracy":{"none":0.5},"follow_when_visible":-1}`, "follow_when_visible: -1 is not between 0 and 1"},
	} {
		_, err := ParsePlan([]byte(tc.plan))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.plan, err, tc.want)
		}
	}
	p, err := ParsePlan([]byte(issuePlan))
	if err != nil {
		t.Fatal(err)
	}
	if p.ItemsPerParticipant != 10 || p.K != 3 || len(p.Conditions) != 3 || p.Conditions[0] != "none" || math.Abs(p.AttentionPass-0.9) > 0 {
		t.Errorf("defaults: %+v", p)
	}
}
