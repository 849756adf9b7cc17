package tasks

import (
	"context"
	"reflect"
	"testing"

	"annotate/internal/domain"
)

// reportDataStore opens a store with a project whose two annotators
// labelled two sentences, one of them with error types and an ambiguity
// type, and returns it with the project's id.
func reportDataStore(t *testing.T) (*Store, int64) {
	t.Helper()
	ctx := context.Background()
	s := openTempStore(t)
	set := domain.DefaultSettings()
	set.Borderline = true
	p, err := s.CreateProject(ctx, domain.Project{Slug: "p", Settings: set})
	if err != nil {
		t.Fatal(err)
	}
	yes := true
	docs := []domain.DocumentInput{{
		ExternalID: "d1", Kind: domain.KindProse, Sentences: []string{"The council met on Monday.", "It approved the budget."},
		Summaries: []domain.SummaryInput{{ExternalID: "s1", Model: "m", Sentences: []domain.SentenceInput{
			{Text: "The council met.", Labels: []domain.SentenceLabelInput{{Annotator: "w1", Label: domain.LabelFaithful}, {Annotator: "w2", Label: domain.LabelFaithful}}},
			{Text: "It rejected the budget.", Labels: []domain.SentenceLabelInput{
				{Annotator: "w1", Label: domain.LabelUnfaithful, ErrorTypes: []string{"contradiction"}, Ambiguous: &yes, AmbiguityType: domain.AmbiguityTypes[0].Code},
				{Annotator: "w2", Label: domain.LabelBorderline}}},
		}}},
	}}
	if _, err := s.Import(ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	return s, p.ID
}

// comparable drops what cannot be compared: the functions reading details
// and unit names.
func comparable(d *domain.ReportData) *domain.ReportData {
	c := *d
	c.Details, c.UnitNames = nil, nil
	return &c
}

// The labels read in a transaction of their own give the data read in one
// transaction.
func TestReportDataApartSameAsTogether(t *testing.T) {
	s, project := reportDataStore(t)
	ctx := context.Background()
	apart, err := s.reportData(ctx, project, domain.ReportFilter{}, true)
	if err != nil {
		t.Fatal(err)
	}
	together, err := s.reportData(ctx, project, domain.ReportFilter{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(apart.Labels) != 4 {
		t.Fatalf("%d labels, want 4", len(apart.Labels))
	}
	if !reflect.DeepEqual(comparable(apart), comparable(together)) {
		t.Errorf("apart:\n%+v\ntogether:\n%+v", comparable(apart), comparable(together))
	}
	var coded domain.ReportLabel
	for _, l := range apart.Labels {
		if apart.Strings[l.Label] == domain.LabelUnfaithful {
			coded = l
		}
	}
	if got := apart.TypeLists[coded.ErrorTypes]; !reflect.DeepEqual(got, []string{"contradiction"}) {
		t.Errorf("error types %v, want [contradiction]", got)
	}
	if coded.Ambiguous != domain.AmbiguousYes || apart.Strings[coded.AmbiguityType] != domain.AmbiguityTypes[0].Code {
		t.Errorf("ambiguity %d %q, want yes %q", coded.Ambiguous, apart.Strings[coded.AmbiguityType], domain.AmbiguityTypes[0].Code)
	}
	details, err := apart.Details([]int64{apart.Sentences[1].ID})
	if err != nil {
		t.Fatal(err)
	}
	if got := details[apart.Sentences[1].ID]; got.Text != "It rejected the budget." || got.SummaryExternal != "s1" || got.DocumentExternal != "d1" {
		t.Errorf("details %+v", got)
	}
}

// A change landing between the two transactions is noticed and the data
// read again: what is returned is one version, the new one.
func TestReportDataChangedBetweenTransactions(t *testing.T) {
	s, project := reportDataStore(t)
	ctx := context.Background()
	calls, changes := 0, 0
	reportDataBetween = func() {
		calls++
		if changes > 0 {
			return
		}
		changes++
		if _, err := s.write.ExecContext(ctx, `UPDATE sentence_labels SET label = 'unfaithful' WHERE label = 'borderline'`); err != nil {
			t.Error(err)
		}
	}
	t.Cleanup(func() { reportDataBetween = nil })
	d, err := s.ReportData(ctx, project, domain.ReportFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if changes != 1 || calls != 2 {
		t.Fatalf("%d reads for %d changes; want the data read again after the change", calls, changes)
	}
	for _, l := range d.Labels {
		if d.Strings[l.Label] == domain.LabelBorderline {
			t.Errorf("the labels are from before the change")
		}
	}
	together, err := s.reportData(ctx, project, domain.ReportFilter{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(comparable(d), comparable(together)) {
		t.Errorf("read again:\n%+v\nin one transaction:\n%+v", comparable(d), comparable(together))
	}
}

// Many readings at once, more than the read pool has connections, all
// finish with the same data: only one at a time holds two connections.
func TestReportDataManyAtOnce(t *testing.T) {
	s, project := reportDataStore(t)
	ctx := context.Background()
	want, err := s.reportData(ctx, project, domain.ReportFilter{}, false)
	if err != nil {
		t.Fatal(err)
	}
	const readers = 16
	errs := make(chan error, readers)
	got := make([]*domain.ReportData, readers)
	for i := range readers {
		go func() {
			d, err := s.ReportData(ctx, project, domain.ReportFilter{})
			got[i] = d
			errs <- err
		}()
	}
	for range readers {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	for i, d := range got {
		if !reflect.DeepEqual(comparable(d), comparable(want)) {
			t.Errorf("reader %d: %+v", i, comparable(d))
		}
	}
}
