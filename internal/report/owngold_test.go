package report_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/report"
	"annotate/internal/testkit"
)

// TestAnnotatorsNotScoredAgainstTheirOwnGold imports three annotators'
// labels with no gold on 40 sentences, and imported gold on 10 more:
// where they all agree the import makes unanimous gold out of their own
// labels. Each annotator's faithfulness "against gold" must use imported
// gold where there is some and, elsewhere, the strict majority of the two
// others (leave-one-out), never gold their own label made; an
// independent count over the same labels gives the expected figures,
// which are not the 1.000 that scoring against their own gold gave.
func TestAnnotatorsNotScoredAgainstTheirOwnGold(t *testing.T) {
	names := []string{"w1", "w2", "w3"}
	rng := rand.New(rand.NewPCG(5, 6))
	const free, withGold = 40, 10
	labels := make([][3]string, free+withGold)
	gold := make([]string, free+withGold)
	pick := func() string {
		if rng.IntN(3) == 0 {
			return domain.LabelUnfaithful
		}
		return domain.LabelFaithful
	}
	var sents []domain.SentenceInput
	for i := range labels {
		truth := pick()
		in := domain.SentenceInput{Text: fmt.Sprintf("Sentence %d.", i+1)}
		for a := range names {
			l := truth
			if rng.IntN(4) == 0 { // each annotator errs a quarter of the time
				l = map[string]string{domain.LabelFaithful: domain.LabelUnfaithful, domain.LabelUnfaithful: domain.LabelFaithful}[truth]
			}
			labels[i][a] = l
			li := domain.SentenceLabelInput{Annotator: names[a], Label: l}
			if l == domain.LabelUnfaithful {
				li.ErrorTypes, li.Explanation = []string{"contradiction"}, "Not so."
			}
			in.Labels = append(in.Labels, li)
		}
		if i >= free {
			gold[i] = truth
			g := &domain.GoldInput{Label: truth}
			if truth == domain.LabelUnfaithful {
				g.ErrorTypes, g.Explanation = []string{"contradiction"}, "Not so."
			}
			in.Gold = g
		}
		sents = append(sents, in)
	}
	rep := ownReport(t, []domain.DocumentInput{{ExternalID: "d", Sentences: []string{"Source."},
		Summaries: []domain.SummaryInput{{ExternalID: "s", Sentences: sents}}}})
	for a, name := range names {
		// The reference: imported gold where given, else the two others
		// when they agree.
		var n, k, independent, loo int
		for i, ls := range labels {
			ref := gold[i]
			if ref != "" {
				independent++
			} else {
				o1, o2 := ls[(a+1)%3], ls[(a+2)%3]
				if o1 != o2 {
					continue
				}
				ref = o1
				loo++
			}
			n++
			if ls[a] == ref {
				k++
			}
		}
		got := faithGold(rep, name, report.LevelSentence)
		if got == nil {
			t.Fatalf("%s: no faithfulness against gold", name)
		}
		if got.N != n || got.Accuracy.K != k || got.Independent != independent || got.LeaveOneOut != loo {
			t.Errorf("%s: n=%d k=%d independent=%d leave-one-out=%d; reference n=%d k=%d independent=%d leave-one-out=%d",
				name, got.N, got.Accuracy.K, got.Independent, got.LeaveOneOut, n, k, independent, loo)
		}
		if k == n {
			t.Errorf("%s: accuracy %d/%d: the test data should give some wrong labels", name, k, n)
		}
	}
}

// TestSummariesNotScoredAgainstTheirOwnGold checks the summary level: a
// summary's gold is the annotators' own when any of its sentences' is,
// and each annotator is then scored against the others (leave-one-out),
// where a summary whose every sentence has imported gold scores them
// against it. Ten summaries of each kind, three annotators who agree on
// every sentence: each annotator has ten summaries of each reference.
func TestSummariesNotScoredAgainstTheirOwnGold(t *testing.T) {
	names := []string{"w1", "w2", "w3"}
	var sums []domain.SummaryInput
	for i := range 20 {
		sum := domain.SummaryInput{ExternalID: fmt.Sprintf("s%d", i)}
		for j := range 2 {
			in := domain.SentenceInput{Text: fmt.Sprintf("Sentence %d of %d.", j+1, i)}
			for _, name := range names {
				in.Labels = append(in.Labels, domain.SentenceLabelInput{Annotator: name, Label: domain.LabelFaithful})
			}
			if i < 10 {
				in.Gold = &domain.GoldInput{Label: domain.LabelFaithful}
			}
			sum.Sentences = append(sum.Sentences, in)
		}
		sums = append(sums, sum)
	}
	rep := ownReport(t, []domain.DocumentInput{{ExternalID: "d", Sentences: []string{"Source."}, Summaries: sums}})
	for _, name := range names {
		got := faithGold(rep, name, report.LevelSummary)
		if got == nil {
			t.Fatalf("%s: no summary faithfulness against gold", name)
		}
		if got.Independent != 10 || got.LeaveOneOut != 10 || got.N != 20 {
			t.Errorf("%s: %d summaries against imported gold, %d against the others, %d in all; want 10, 10, 20",
				name, got.Independent, got.LeaveOneOut, got.N)
		}
	}
}

// ownReport imports docs into a new project of default settings and
// builds its report.
func ownReport(t *testing.T, docs []domain.DocumentInput) *report.Report {
	t.Helper()
	ctx := context.Background()
	s := testkit.OpenStore(t)
	p := testkit.Must(s.CreateProject(ctx, domain.Project{Slug: "own", Settings: domain.DefaultSettings()}))(t)
	testkit.Must(s.Import(ctx, p.ID, docs))(t)
	data := testkit.Must(s.ReportData(ctx, p.ID, domain.ReportFilter{}))(t)
	return testkit.Must(report.Build(p.Slug, data, p.Settings, report.Options{}))(t)
}

// faithGold is the annotator's faithfulness at level against gold in rep,
// or nil.
func faithGold(rep *report.Report, name, level string) *report.GoldAgreement {
	for _, ann := range rep.PerAnnotator {
		if ann.Name != name {
			continue
		}
		for _, d := range ann.Dimensions {
			if d.Dimension == "faithfulness" && d.Level == level {
				return d.Gold
			}
		}
	}
	return nil
}
