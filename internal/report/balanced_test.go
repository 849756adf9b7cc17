package report_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/report"
	"annotate/internal/testkit"
)

// goldPair is one sentence's gold label and annotator w1's label.
type goldPair struct{ gold, label string }

// borderlineReport builds the report of a project with borderline labels
// on, one sentence per pair, labelled by w1 with imported gold.
func borderlineReport(t *testing.T, pairs []goldPair) *report.Report {
	t.Helper()
	var sents []domain.SentenceInput
	for i, p := range pairs {
		in := domain.SentenceInput{Text: fmt.Sprintf("Sentence %d.", i+1)}
		l := domain.SentenceLabelInput{Annotator: "w1", Label: p.label}
		g := &domain.GoldInput{Label: p.gold}
		if p.label != domain.LabelFaithful {
			l.ErrorTypes, l.Explanation = []string{"contradiction"}, "Not so."
		}
		if p.gold != domain.LabelFaithful {
			g.ErrorTypes, g.Explanation = []string{"contradiction"}, "Not so."
		}
		in.Labels, in.Gold = []domain.SentenceLabelInput{l}, g
		sents = append(sents, in)
	}
	ctx := context.Background()
	s := testkit.OpenStore(t)
	set := domain.DefaultSettings()
	set.Borderline = true
	p := testkit.Must(s.CreateProject(ctx, domain.Project{Slug: "ba", Settings: set}))(t)
	testkit.Must(s.Import(ctx, p.ID, []domain.DocumentInput{{ExternalID: "d", Sentences: []string{"Source."},
		Summaries: []domain.SummaryInput{{ExternalID: "s", Sentences: sents}}}}))(t)
	data := testkit.Must(s.ReportData(ctx, p.ID, domain.ReportFilter{}))(t)
	return testkit.Must(report.Build(p.Slug, data, p.Settings, report.Options{}))(t)
}

// TestBalancedAccuracyWeighsBorderlineAsItsOwnValue: in a project with
// borderline labels, an annotator's balanced accuracy against gold is the
// mean of the recalls of faithful, unfaithful and borderline gold (see
// iaa.BalancedAccuracy), so borderline gold labelled faithful is a miss,
// as it is in their accuracy. Hand counts: gold faithful 8 (6 labelled
// faithful, 2 unfaithful), unfaithful 4 (3, 1 faithful), borderline 4 (3
// faithful, 1 borderline): (6/8 + 3/4 + 1/4)/3. Counting borderline with
// faithful as "the rest" of unfaithful gave 1 − (2/12 + 1/4)/2 = 0.792.
// With faithful gold alone it is undefined, and says so of gold.
func TestBalancedAccuracyWeighsBorderlineAsItsOwnValue(t *testing.T) {
	const f, u, b = domain.LabelFaithful, domain.LabelUnfaithful, domain.LabelBorderline
	var pairs []goldPair
	add := func(g, l string, n int) {
		for range n {
			pairs = append(pairs, goldPair{g, l})
		}
	}
	add(f, f, 6)
	add(f, u, 2)
	add(u, u, 3)
	add(u, f, 1)
	add(b, f, 3)
	add(b, b, 1)
	g := faithGold(borderlineReport(t, pairs), "w1", report.LevelSentence)
	if g == nil || g.BalancedAccuracy == nil || g.BalancedAccuracy.Value == nil {
		t.Fatalf("no balanced accuracy against gold: %+v", g)
	}
	if g.N != 16 || g.Accuracy.K != 10 {
		t.Errorf("accuracy %d/%d, want 10/16", g.Accuracy.K, g.N)
	}
	if got, want := *g.BalancedAccuracy.Value, (6.0/8+3.0/4+1.0/4)/3; math.Abs(got-want) > 1e-12 {
		t.Errorf("balanced accuracy %.6f, want %.6f", got, want)
	}
	g = faithGold(borderlineReport(t, pairs[:8]), "w1", report.LevelSentence)
	if g == nil || g.BalancedAccuracy == nil || g.BalancedAccuracy.Value != nil ||
		g.BalancedAccuracy.Undefined != "gold has only one value on these units" {
		t.Errorf("with faithful gold only: %+v", g.BalancedAccuracy)
	}
}
