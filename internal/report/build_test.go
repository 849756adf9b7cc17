package report_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"annotate/internal/assiststore"
	"annotate/internal/domain"
	"annotate/internal/iaa"
	"annotate/internal/report"
	"annotate/internal/reportseed"
	"annotate/internal/tasks"
	"annotate/internal/testkit"
)

// The fixture: two summaries of three sentences each, three annotators and
// two calibration rounds. In round c1 they label (F faithful, U unfaithful):
//
//	sentence  gold  ann_a  ann_b  ann_c
//	s1        F     F      F      F
//	s2        F     F      F      U
//	s3        U     U      U      U
//	s4        U     F      U      U
//	s5        F     F      F      F
//	s6        U     U      U      F   (ann_c first said U, then saw the assistant)
//
// In round c2 everyone gives the gold label. The assistant says gold
// except F on s4 and s6.
var (
	gold   = "FFUUFU"
	labels = map[string]string{"ann_a": "FFUFFU", "ann_b": "FFUUFU", "ann_c": "FUUUFF"}
	// relevance of summary 1 and 2 in round c1.
	relevance = map[string][2]int{"ann_a": {4, 2}, "ann_b": {5, 2}, "ann_c": {4, 3}}
)

type fixture struct {
	ctx       context.Context
	store     *tasks.Store
	project   *domain.Project
	sentences []int64 // s1..s6
}

func word(c byte) string {
	if c == 'U' {
		return domain.LabelUnfaithful
	}
	return domain.LabelFaithful
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	s, err := tasks.Open(ctx, filepath.Join(t.TempDir(), "report.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	set := domain.DefaultSettings()
	set.KeyFacts = false
	p, err := s.CreateProject(ctx, domain.Project{Slug: "rep", Name: "Report", Settings: set})
	if err != nil {
		t.Fatal(err)
	}
	var docs []domain.DocumentInput
	for d := range 2 {
		sum := domain.SummaryInput{ExternalID: "sum" + string(rune('1'+d))}
		for i := range 3 {
			g := gold[d*3+i]
			sum.Sentences = append(sum.Sentences, domain.SentenceInput{Text: "Sentence " + string(rune('1'+d*3+i)) + ".", Gold: &domain.GoldInput{Label: word(g)}})
		}
		docs = append(docs, domain.DocumentInput{ExternalID: "doc" + string(rune('1'+d)), Sentences: []string{"Source."}, Summaries: []domain.SummaryInput{sum}})
	}
	if _, err := s.Import(ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	var users []int64
	for _, name := range []string{"ann_a", "ann_b", "ann_c"} {
		u, err := s.CreateUser(ctx, name, "", "a long enough password", false)
		if err != nil {
			t.Fatal(err)
		}
		s.SetMember(ctx, p.ID, u.ID, domain.RoleAnnotator)
		users = append(users, u.ID)
	}
	sums, _ := s.SummaryIDs(ctx, p.ID, nil)
	f := &fixture{ctx: ctx, store: s, project: p}
	for _, id := range sums {
		sum, err := s.Summary(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range sum.Sentences {
			f.sentences = append(f.sentences, x.ID)
		}
	}
	for round, r := range []string{"c1", "c2"} {
		if _, err := s.CreateRound(ctx, p.ID, domain.RoundSpec{Name: r, Kind: domain.RoundCalibration, Annotators: users, Summaries: sums}); err != nil {
			t.Fatal(err)
		}
		for i, uid := range users {
			name := []string{"ann_a", "ann_b", "ann_c"}[i]
			q, err := s.Queue(ctx, p.ID, uid)
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range q {
				rd, _ := s.RoundByID(ctx, a.RoundID)
				if rd.Name != r {
					continue
				}
				v := a.Version
				save := func(l domain.SentenceLabel) {
					t.Helper()
					if v, err = s.SaveSentenceLabel(ctx, a.ID, uid, v, l); err != nil {
						t.Fatal(err)
					}
				}
				for j, sid := range f.sentences {
					if f.summaryOf(t, sid) != a.SummaryID {
						continue
					}
					want := gold[j]
					if round == 0 {
						want = labels[name][j]
					}
					l := domain.SentenceLabel{SentenceID: sid, Label: word(want), Ambiguous: new(bool)}
					if want == 'U' {
						l.ErrorTypes = []string{"contradiction"}
						l.Explanation = "Not what the source says."
					}
					if round == 0 && j == 2 && name == "ann_c" {
						l.ErrorTypes = []string{"extrinsic_information"}
					}
					if round == 0 && j == 5 && name == "ann_c" {
						save(domain.SentenceLabel{SentenceID: sid, Label: domain.LabelUnfaithful, ErrorTypes: []string{"contradiction"}, Ambiguous: new(bool)})
						l.AssistantVisible = true
					}
					save(l)
				}
				if round == 0 {
					k := 0
					if a.SummaryID == sums[1] {
						k = 1
					}
					if v, err = s.SaveSummaryLabel(ctx, a.ID, uid, v, domain.SummaryLabel{Relevance: relevance[name][k], TopicCategory: "main"}); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
	var outs []assiststore.AssistOutput
	for j, sid := range f.sentences {
		l := word(gold[j])
		if j == 3 || j == 5 {
			l = domain.LabelFaithful
		}
		outs = append(outs, assiststore.AssistOutput{SentenceID: sid, Label: l, Status: assiststore.AssistOutputOK, Output: []byte("{}")})
	}
	if _, err := assiststore.New(s).ImportAssistRuns(ctx, p.ID, []assiststore.AssistRunImport{{Run: assiststore.AssistRun{Protocol: "single", Model: "secret-model"}, Outputs: outs}}); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) summaryOf(t *testing.T, sid int64) int64 {
	for i, id := range f.sentences {
		if id == sid {
			sums, _ := f.store.SummaryIDs(f.ctx, f.project.ID, nil)
			return sums[i/3]
		}
	}
	t.Fatalf("sentence %d not in the fixture", sid)
	return 0
}

// build reports on the fixture. Its assignments are drafts (none is
// submitted), so drafts count unless a test says otherwise.
func (f *fixture) build(t *testing.T, opt report.Options) *report.Report {
	t.Helper()
	opt.IncludeDrafts = true
	d, err := f.store.ReportData(f.ctx, f.project.ID, domain.ReportFilter{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := report.Build(f.project.Slug, d, f.project.Settings, opt)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func dim(t *testing.T, rep *report.Report, key string) *report.Dimension {
	t.Helper()
	for i := range rep.Dimensions {
		if rep.Dimensions[i].Key() == key {
			return &rep.Dimensions[i]
		}
	}
	t.Fatalf("no dimension %s", key)
	return nil
}

func near(t *testing.T, name string, got *float64, want float64) {
	t.Helper()
	if got == nil || math.Abs(*got-want) > 1e-9 {
		t.Errorf("%s = %v, want %.6f", name, got, want)
	}
}

// columns turns label strings ("FFU...") into iaa columns, U = 1.
func columns(names ...string) *iaa.Ratings {
	var cols [][]float64
	for _, n := range names {
		var col []float64
		for _, c := range labels[n] {
			col = append(col, map[rune]float64{'F': 0, 'U': 1}[c])
		}
		cols = append(cols, col)
	}
	return iaa.FromColumns(cols...)
}

func TestReportRoundOne(t *testing.T) {
	f := newFixture(t)
	rep := f.build(t, report.Options{Round: "c1", Bootstrap: 200, Seed: 3})

	t.Run("faithfulness", func(t *testing.T) {
		d := dim(t, rep, "faithfulness@sentence")
		if d.Units != 6 || d.Ratings != 18 || d.Pairable != 6 {
			t.Errorf("units %d ratings %d pairable %d, want 6, 18, 6", d.Units, d.Ratings, d.Pairable)
		}
		// By hand: n = 18 values, 10 F and 8 U; three units split 2:1 give
		// D_o = 6/18 and D_e = 2·10·8/(18·17), so α = 1 − 306/480.
		a := d.Statistics.KrippendorffAlpha
		near(t, "alpha", a.Value, 1-306.0/480)
		// A replicate that draws only units whose values are all alike
		// has no α and is left out, so up to a few of the 200 may be.
		if a.CI95 == nil || *a.Bootstrap > 200 || *a.Bootstrap < 190 || !(a.CI95[0] <= *a.Value && *a.Value <= a.CI95[1]) {
			t.Errorf("alpha interval = %v around %v, %d replicates", *a.CI95, *a.Value, *a.Bootstrap)
		}
		if a.BootstrapInterval != iaa.IntervalBCa {
			t.Errorf("alpha interval is %q, want the units bootstrap's BCa interval", a.BootstrapInterval)
		}
		var text strings.Builder
		if err := rep.Write(&text, "text"); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text.String(), "drawing units with all their labels (Zapf et al. 2016), as BCa intervals") {
			t.Errorf("the text report does not say the intervals are BCa:\n%s", text.String())
		}
		// 8 of the 18 ratings are U, fewer than 20: the κ-type intervals
		// are flagged, in the JSON, the text and the dimensions CSV.
		if !strings.Contains(d.IntervalCaution, "the pairable ratings hold only 8 other than the most common value") {
			t.Errorf("interval caution = %q", d.IntervalCaution)
		}
		if !strings.Contains(text.String(), "caution, faithfulness@sentence: the pairable ratings hold only 8 other") {
			t.Errorf("the text report lacks the caution:\n%s", text.String())
		}
		var csvOut strings.Builder
		if err := rep.WriteCSV(&csvOut, "dimensions"); err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(strings.NewReader(csvOut.String())).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		col := slices.Index(rows[0], "interval_caution")
		found := false
		for _, row := range rows[1:] {
			if row[0] == "faithfulness" && row[1] == "sentence" {
				found = col >= 0 && row[col] == d.IntervalCaution
			}
		}
		if !found {
			t.Errorf("the dimensions CSV does not give faithfulness's caution in interval_caution (header %v)", rows[0])
		}
		want, _ := iaa.FleissKappa(mustCounts(columns("ann_a", "ann_b", "ann_c")))
		near(t, "fleiss", d.Statistics.FleissKappa.Value, want.Kappa)
		// ann_a–ann_b: 3 FF, 1 FU, 2 UU: p_o = 5/6, p_e = 1/2, κ = 2/3.
		p := d.Pairwise[0]
		if p.Coders != [2]string{"ann_a", "ann_b"} || p.N != 6 {
			t.Fatalf("first pair = %+v", p)
		}
		near(t, "kappa a-b", p.CohenKappa, 2.0/3)
	})
	t.Run("error types", func(t *testing.T) {
		d := dim(t, rep, "error_type:contradiction@sentence")
		// U with contradiction everywhere but ann_c on s3.
		r := columns("ann_a", "ann_b", "ann_c")
		r.Set(2, 2, 0)
		want, _ := iaa.Alpha(r, iaa.Nominal)
		near(t, "alpha contradiction", d.Statistics.KrippendorffAlpha.Value, want)
		set := dim(t, rep, "error_types@sentence")
		if set.Scale != "masi" || set.Statistics.KrippendorffAlpha.Value == nil {
			t.Errorf("error_types = %+v", set)
		}
	})
	t.Run("summary level", func(t *testing.T) {
		// Every annotator finds an unfaithful sentence in both summaries:
		// one category only, so α is undefined with its reason.
		d := dim(t, rep, "faithfulness@summary")
		if d.Units != 2 || d.Ratings != 6 {
			t.Errorf("units %d ratings %d", d.Units, d.Ratings)
		}
		if a := d.Statistics.KrippendorffAlpha; a.Value != nil || a.Undefined == "" {
			t.Errorf("alpha = %+v, want undefined", a)
		}
		if v := d.Statistics.PercentAgreement.Value; v == nil || *v != 1 {
			t.Errorf("percent agreement = %v, want 1", v)
		}
	})
	t.Run("relevance", func(t *testing.T) {
		d := dim(t, rep, "relevance@summary")
		r := iaa.FromColumns([]float64{4, 2}, []float64{5, 2}, []float64{4, 3})
		want, _ := iaa.Alpha(r, iaa.Ordinal)
		near(t, "alpha ordinal", d.Statistics.KrippendorffAlpha.Value, want)
		if d.Scale != "ordinal" {
			t.Errorf("scale = %s", d.Scale)
		}
	})
	t.Run("annotators", func(t *testing.T) {
		a := annotator(t, rep, "ann_a", "faithfulness", "sentence")
		// Shares of the others agreeing with ann_a: 1, ½, 1, 0, 1, ½.
		near(t, "agreement with rest", a.Agreement.Value, 4.0/6)
		// Without ann_c: 12 values, 7 F and 5 U, one split unit.
		near(t, "alpha without ann_c", annotator(t, rep, "ann_c", "faithfulness", "sentence").AlphaWithout.Value, 1-264.0/840)
		for name, k := range map[string]int{"ann_a": 5, "ann_b": 6, "ann_c": 4} {
			g := annotator(t, rep, name, "faithfulness", "sentence").Gold
			if g == nil || g.Accuracy.K != k || g.Accuracy.N != 6 {
				t.Errorf("%s vs gold = %+v, want %d/6", name, g, k)
			}
		}
		var c report.Annotator
		for _, x := range rep.PerAnnotator {
			if x.Name == "ann_c" {
				c = x
			}
		}
		if len(c.Disagree) == 0 || c.Disagree[0].Count != 2 {
			t.Errorf("ann_c disagrees most = %+v", c.Disagree)
		}
	})
	t.Run("assistant", func(t *testing.T) {
		as := rep.Assistant
		if as.Labels != 18 || as.WithAssistant != 18 || as.WithGold != 18 {
			t.Fatalf("assistant counts = %+v", as)
		}
		var reveal report.AssistSplit
		for _, s := range as.Splits {
			if s.Condition == "after_first_label" {
				reveal = s
			}
		}
		// ann_c's s6: first U (gold), then F (the assistant's, wrong).
		if reveal.Labels != 1 || reveal.FollowedWrong.K != 1 || reveal.FollowedWrong.N != 1 {
			t.Errorf("after_first_label = %+v", reveal)
		}
		rv := as.Reveal
		if rv.Revealed != 1 || rv.Changed.K != 1 || rv.ToAssistant != 1 || rv.AwayFromGold != 1 || rv.TowardGold != 0 {
			t.Errorf("reveal = %+v", rv)
		}
		if g := as.Assistant; g == nil || g.Accuracy.K != 4 || g.Accuracy.N != 6 {
			t.Errorf("assistant vs gold = %+v", g)
		}
	})
	t.Run("disagreements", func(t *testing.T) {
		var got []int
		for _, d := range rep.Disagreements {
			got = append(got, d.Index+3*map[string]int{"sum1": 0, "sum2": 1}[d.Summary])
		}
		want := []int{2, 4, 6, 3} // split 2/3 first (by sentence), then s3 on error types
		if len(got) != len(want) || rep.DisagreementsTotal != 4 {
			t.Fatalf("disagreements = %v (total %d), want %v", got, rep.DisagreementsTotal, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("disagreements = %v, want %v", got, want)
			}
		}
		if d := rep.Disagreements[0]; math.Abs(d.Split-2.0/3) > 1e-12 || len(d.Votes) != 2 || d.Assignment == 0 {
			t.Errorf("first disagreement = %+v", d)
		}
	})
	t.Run("json", func(t *testing.T) {
		var b bytes.Buffer
		if err := rep.Write(&b, "json"); err != nil {
			t.Fatal(err)
		}
		if s := b.String(); strings.Contains(s, "NaN") || strings.Contains(s, "secret-model") {
			t.Fatal("the JSON holds NaN or a model name")
		}
		var back report.Report
		if err := json.Unmarshal(b.Bytes(), &back); err != nil || len(back.Dimensions) != len(rep.Dimensions) {
			t.Fatalf("round trip: %v", err)
		}
	})
	t.Run("csv tables", func(t *testing.T) {
		for _, tb := range report.Tables {
			var b bytes.Buffer
			if err := rep.WriteCSV(&b, tb); err != nil || strings.Count(b.String(), "\n") < 2 {
				t.Errorf("%s: %v\n%s", tb, err, b.String())
			}
		}
	})
}

func TestReportRoundsAndTrend(t *testing.T) {
	f := newFixture(t)
	all := f.build(t, report.Options{})
	// Across rounds each annotator's latest assignment counts: round c2,
	// where everyone gives gold.
	near(t, "alpha all rounds", dim(t, all, "faithfulness@sentence").Statistics.KrippendorffAlpha.Value, 1)
	if len(all.Trend) != 2 || all.Trend[0].Round != "c1" {
		t.Fatalf("trend = %+v", all.Trend)
	}
	for i, want := range []float64{1 - 306.0/480, 1} {
		p := all.Trend[i].Dimensions[0]
		if p.Dimension != "faithfulness" || p.Level != "sentence" {
			t.Fatalf("trend point = %+v", p)
		}
		near(t, "trend alpha "+all.Trend[i].Round, p.Statistics.KrippendorffAlpha.Value, want)
	}
	if all.DisagreementsTotal != 0 {
		t.Errorf("disagreements across rounds = %d, want 0", all.DisagreementsTotal)
	}
}

func TestReportOptions(t *testing.T) {
	f := newFixture(t)
	d, _ := f.store.ReportData(f.ctx, f.project.ID, domain.ReportFilter{})
	if _, err := report.Build("rep", d, f.project.Settings, report.Options{Round: "nope"}); domain.ErrorCode(err) != domain.ENotFound {
		t.Errorf("unknown round: %v", err)
	}
	if _, err := report.Build("rep", d, f.project.Settings, report.Options{Dimension: "colour"}); domain.ErrorCode(err) != domain.EInvalid {
		t.Errorf("unknown dimension: %v", err)
	}
	rep, err := report.Build("rep", d, f.project.Settings, report.Options{Dimension: "faithfulness@summary"})
	if err != nil || len(rep.Dimensions) != 1 || rep.Dimensions[0].Level != "summary" {
		t.Fatalf("one dimension: %v %+v", err, rep)
	}
}

func TestReportEmptyProject(t *testing.T) {
	ctx := context.Background()
	s, err := tasks.Open(ctx, filepath.Join(t.TempDir(), "empty.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p, _ := s.CreateProject(ctx, domain.Project{Slug: "e", Name: "E", Settings: domain.DefaultSettings()})
	d, err := s.ReportData(ctx, p.ID, domain.ReportFilter{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := report.Build("e", d, p.Settings, report.Options{Bootstrap: 10})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := rep.Write(&b, "json"); err != nil || strings.Contains(b.String(), "NaN") {
		t.Fatalf("json: %v", err)
	}
	for _, dm := range rep.Dimensions {
		if dm.Statistics.KrippendorffAlpha.Undefined == "" {
			t.Errorf("%s: alpha defined on no data", dm.Key())
		}
	}
	if rep.Assistant.Note == "" {
		t.Error("no note on an empty assistant section")
	}
}

func annotator(t *testing.T, rep *report.Report, name, dimension, level string) report.AnnotatorDimension {
	t.Helper()
	for _, a := range rep.PerAnnotator {
		if a.Name != name {
			continue
		}
		for _, d := range a.Dimensions {
			if d.Dimension == dimension && d.Level == level {
				return d
			}
		}
	}
	t.Fatalf("no %s on %s@%s", name, dimension, level)
	return report.AnnotatorDimension{}
}

func mustCounts(r *iaa.Ratings) iaa.Counts {
	c, _ := iaa.CountsOf(r)
	return c
}

func TestReportSubmittedOnly(t *testing.T) {
	f := newFixture(t)
	d, err := f.store.ReportData(f.ctx, f.project.ID, domain.ReportFilter{})
	if err != nil {
		t.Fatal(err)
	}
	// Drafts only: by default nothing counts, on any dimension.
	rep, err := report.Build("rep", d, f.project.Settings, report.Options{Round: "c1"})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.SubmittedOnly || len(rep.Annotators) != 0 {
		t.Fatalf("submitted only = %v, annotators %v; want true and none", rep.SubmittedOnly, rep.Annotators)
	}
	for _, dm := range rep.Dimensions {
		if dm.Ratings != 0 {
			t.Errorf("%s: %d ratings from drafts", dm.Key(), dm.Ratings)
		}
	}
	// ann_a submits round c1: their labels count, the others' drafts not.
	var user int64
	for _, a := range d.Assignments {
		if a.Username == "ann_a" {
			user = a.UserID
		}
	}
	rounds := map[int64]string{}
	for _, r := range d.Rounds {
		rounds[r.ID] = r.Name
	}
	for _, a := range d.Assignments {
		if a.Username == "ann_a" && rounds[a.RoundID] == "c1" {
			if err := f.store.Submit(f.ctx, a.ID, user); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, filter := range []domain.ReportFilter{{}, {Round: "c1", SubmittedOnly: true}} {
		d, err := f.store.ReportData(f.ctx, f.project.ID, filter)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := report.Build("rep", d, f.project.Settings, report.Options{Round: "c1"})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Annotators) != 1 || rep.Annotators[0] != "ann_a" {
			t.Errorf("filter %+v: annotators %v, want ann_a only", filter, rep.Annotators)
		}
		if got := dim(t, rep, "faithfulness@sentence").Ratings; got != 6 {
			t.Errorf("filter %+v: %d faithfulness ratings, want ann_a's 6", filter, got)
		}
		if a := dim(t, rep, "faithfulness@sentence").Statistics.KrippendorffAlpha; a.Undefined == "" {
			t.Errorf("filter %+v: α with one annotator = %+v, want undefined", filter, a)
		}
	}
	// With drafts, all three count.
	rep, err = report.Build("rep", d, f.project.Settings, report.Options{Round: "c1", IncludeDrafts: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Annotators) != 3 || rep.SubmittedOnly {
		t.Errorf("with drafts: annotators %v, submitted only %v", rep.Annotators, rep.SubmittedOnly)
	}
}

// TestBuildTakesLabels: with TakeLabels, Build drops the data's labels
// and gives the report it gives without.
func TestBuildTakesLabels(t *testing.T) {
	ctx := context.Background()
	store, p := testkit.SeededProject(t, reportseed.Options{Documents: 20, Annotators: 4, Calibrate: 0.3, Gold: 0.5, Runs: 1, Seed: 3})
	var out [2]string
	for i, take := range []bool{false, true} {
		data, err := store.ReportData(ctx, p.ID, domain.ReportFilter{SubmittedOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := report.Build(p.Slug, data, p.Settings, report.Options{Bootstrap: 50, Seed: 1, TakeLabels: take})
		if err != nil {
			t.Fatal(err)
		}
		if (data.Labels == nil) != take {
			t.Fatalf("TakeLabels %v: %d labels left in the data", take, len(data.Labels))
		}
		var b strings.Builder
		if err := rep.Write(&b, "json"); err != nil {
			t.Fatal(err)
		}
		out[i] = b.String()
	}
	if out[0] != out[1] || len(out[0]) < 1000 {
		t.Fatalf("the report with the labels taken differs (%d and %d bytes)", len(out[0]), len(out[1]))
	}
}
