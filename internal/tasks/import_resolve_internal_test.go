package tasks

import (
	"context"
	"reflect"
	"testing"

	"annotate/internal/domain"
)

// The gold of a summary an import makes is resolved from the labels the
// import wrote, without reading them back; it must be the gold that
// resolving from the database gives, which is what importing the same
// labels onto summaries already there does.
func TestImportResolvesMadeSummariesAsTheDatabaseWould(t *testing.T) {
	yes, no := true, false
	lab := func(who, round, label string, types ...string) domain.SentenceLabelInput {
		return domain.SentenceLabelInput{Annotator: who, Round: round, Label: label, ErrorTypes: types}
	}
	sentences := []domain.SentenceInput{
		// agreement: unanimous gold
		{Text: "A.", Labels: []domain.SentenceLabelInput{lab("w1", "", domain.LabelFaithful), lab("w2", "", domain.LabelFaithful)}},
		// disagreement: unresolved
		{Text: "B.", Labels: []domain.SentenceLabelInput{lab("w1", "", domain.LabelFaithful), lab("w2", "", domain.LabelUnfaithful, "contradiction")}},
		// w2 again in a later round, agreeing this time: that label counts
		{Text: "C.", Labels: []domain.SentenceLabelInput{lab("w1", "", domain.LabelFaithful), lab("w2", "", domain.LabelUnfaithful, "contradiction"), lab("w2", "r2", domain.LabelFaithful)}},
		// gold given as unanimous that the labels contradict: replaced
		{Text: "D.", Gold: &domain.GoldInput{Label: domain.LabelUnfaithful, ErrorTypes: []string{"contradiction"}, Provenance: domain.ProvUnanimous},
			Labels: []domain.SentenceLabelInput{lab("w1", "", domain.LabelFaithful), lab("w2", "", domain.LabelFaithful)}},
		// imported gold: kept whatever the labels say
		{Text: "E.", Gold: &domain.GoldInput{Label: domain.LabelUnfaithful, ErrorTypes: []string{"contradiction"}},
			Labels: []domain.SentenceLabelInput{lab("w1", "", domain.LabelFaithful), lab("w2", "", domain.LabelFaithful)}},
		// ambiguity answers that differ: unresolved
		{Text: "F.", Labels: []domain.SentenceLabelInput{{Annotator: "w1", Label: domain.LabelFaithful, Ambiguous: &yes, AmbiguityType: "commonsense_inference"},
			{Annotator: "w2", Label: domain.LabelFaithful, Ambiguous: &no}}},
		// no labels: no gold
		{Text: "G."},
	}
	rel := 3
	doc := func(withLabels bool) domain.DocumentInput {
		sents := make([]domain.SentenceInput, len(sentences))
		copy(sents, sentences)
		for i := range sents {
			if !withLabels {
				sents[i].Labels = nil
			}
		}
		s := domain.SummaryInput{ExternalID: "s", Sentences: sents}
		if withLabels {
			s.Labels = []domain.SummaryLabelInput{{Annotator: "w1", Relevance: &rel}}
		}
		return domain.DocumentInput{ExternalID: "d", Sentences: []string{"Text."}, Summaries: []domain.SummaryInput{s}}
	}
	ctx := context.Background()
	gold := func(t *testing.T, s *Store) (map[int][]any, domain.SummaryGoldLabel) {
		var id int64
		if err := s.read.QueryRowContext(ctx, `SELECT id FROM summaries WHERE external_id = 's'`).Scan(&id); err != nil {
			t.Fatal(err)
		}
		rows, err := s.read.QueryContext(ctx, `SELECT ss.idx, g.label, g.error_types, g.ambiguous, g.ambiguity_type, g.provenance, g.version
			FROM summary_sentences ss JOIN gold_sentences g ON g.sentence_id = ss.id WHERE ss.summary_id = ?`, id)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		out := map[int][]any{}
		for rows.Next() {
			var idx, version int
			var label, types, typ, prov string
			var amb *bool
			if err := rows.Scan(&idx, &label, &types, &amb, &typ, &prov, &version); err != nil {
				t.Fatal(err)
			}
			out[idx] = []any{label, types, amb != nil && *amb, typ, prov, version}
		}
		sg, err := s.SummaryGoldOf(ctx, id)
		if err != nil && domain.ErrorCode(err) != domain.ENotFound {
			t.Fatal(err)
		}
		return out, sg
	}
	open := func(t *testing.T) (*Store, int64) {
		s := openTempStore(t)
		p, err := s.CreateProject(ctx, domain.Project{Slug: "p", Settings: domain.DefaultSettings()})
		if err != nil {
			t.Fatal(err)
		}
		return s, p.ID
	}

	made, p := open(t)
	if _, err := made.Import(ctx, p, []domain.DocumentInput{doc(true)}); err != nil {
		t.Fatal(err)
	}
	there, q := open(t)
	if _, err := there.Import(ctx, q, []domain.DocumentInput{doc(false)}); err != nil {
		t.Fatal(err)
	}
	if _, err := there.Import(ctx, q, nil, nestedLabels([]domain.DocumentInput{doc(true)})...); err != nil {
		t.Fatal(err)
	}
	got, gotSummary := gold(t, made)
	want, wantSummary := gold(t, there)
	if !reflect.DeepEqual(got, want) || gotSummary != wantSummary {
		t.Errorf("gold of a summary the import made:\n%v %+v\nresolved from the database:\n%v %+v", got, gotSummary, want, wantSummary)
	}
	if len(want) != 6 || want[1][4] != domain.ProvUnanimous || want[2][4] != domain.ProvUnresolved || want[3][4] != domain.ProvUnanimous ||
		want[4][0] != domain.LabelFaithful || want[5][4] != domain.ProvImported || want[6][4] != domain.ProvUnresolved {
		t.Errorf("resolution from the database gave %v", want)
	}
}
