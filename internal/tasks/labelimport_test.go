package tasks_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/testkit"
)

// labelledDocs is sampleDocs with two annotators' labels on the first
// summary: they agree on its first sentence and not on its second.
func labelledDocs(secondLabel string) []domain.DocumentInput {
	docs := testkit.SampleDocs()
	s := &docs[0].Summaries[0]
	s.Sentences[0].Gold, s.Sentences[1].Gold = nil, nil
	s.Sentences[0].Labels = []domain.SentenceLabelInput{{Annotator: "w1", Label: "faithful"}, {Annotator: "w2", Label: "faithful"}}
	s.Sentences[1].Labels = []domain.SentenceLabelInput{{Annotator: "w1", Label: "unfaithful", ErrorTypes: []string{"contradiction"}}, {Annotator: "w2", Label: secondLabel}}
	rel := 4
	s.Labels = []domain.SummaryLabelInput{{Annotator: "w1", Relevance: &rel, TopicCategory: "main"}}
	return docs
}

func TestImportLabels(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	p, _ := s.CreateProject(ctx, domain.Project{Slug: "p", Settings: domain.DefaultSettings()})
	st, err := s.Import(ctx, p.ID, labelledDocs("faithful"))
	if err != nil {
		t.Fatal(err)
	}
	if st.Labels != 4 || st.SummaryLabels != 1 || st.Assignments != 2 || st.Rounds != 1 || st.Accounts != 2 {
		t.Fatalf("stats %+v", st)
	}
	u, err := s.UserByName(ctx, "w1")
	if err != nil || !u.Disabled {
		t.Fatalf("imported account %+v, %v", u, err)
	}
	r, err := s.RoundByName(ctx, p.ID, domain.ImportedRound)
	if err != nil || r.Status != "closed" || r.PerItem != 2 {
		t.Fatalf("imported round %+v, %v", r, err)
	}

	t.Run("the import resolves their gold and the queue sees them", func(t *testing.T) {
		counts := checkRoundGold(t, ctx, s, p.ID)
		if len(counts) != 1 || counts[0].Unanimous != 1 || counts[0].Pending != 1 {
			t.Fatalf("gold counts %+v", counts)
		}
		rs, err := s.ResolveReady(ctx, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		if rs != (domain.ResolveStats{}) {
			t.Fatalf("resolving again did %+v, want nothing", rs)
		}
	})

	t.Run("the same labels again add nothing", func(t *testing.T) {
		st, err := s.Import(ctx, p.ID, labelledDocs("faithful"))
		if err != nil {
			t.Fatal(err)
		}
		if st.Labels != 0 || st.LabelsExisting != 5 || st.Assignments != 0 || st.Rounds != 0 || st.Accounts != 0 {
			t.Fatalf("stats %+v", st)
		}
	})

	t.Run("a changed label is listed and written only on update", func(t *testing.T) {
		_, err := s.Import(ctx, p.ID, labelledDocs("unfaithful"))
		var ce *domain.ChangesError
		if !errors.As(err, &ce) || len(ce.Changes) != 1 || ce.Changes[0].Kind != domain.ChangeLabel ||
			!strings.Contains(ce.Error(), `summary d1-s1 sentence 2, w2 in round imported: label: "faithful" → "unfaithful"`) {
			t.Fatalf("err = %v", err)
		}
		_, applied, err := s.ImportWith(ctx, domain.ImportRequest{Project: p.ID, Documents: labelledDocs("unfaithful"), Update: true})
		if err != nil || len(applied) != 1 {
			t.Fatalf("update: %v, %v", applied, err)
		}
	})

	t.Run("labels of a summary the project lacks are refused", func(t *testing.T) {
		_, err := s.Import(ctx, p.ID, nil, domain.LabelRecord{Summary: "nope", Sentence: 1, Label: &domain.SentenceLabelInput{Annotator: "w1", Label: "faithful"}, Source: "x.jsonl:3"})
		if err == nil || !strings.Contains(err.Error(), `x.jsonl:3: summary "nope" is neither in this import nor in the project`) {
			t.Fatalf("err = %v", err)
		}
		_, err = s.Import(ctx, p.ID, nil, domain.LabelRecord{Summary: "d1-s1", Sentence: 9, Label: &domain.SentenceLabelInput{Annotator: "w9", Label: "faithful"}, Source: "x.jsonl:4"})
		if err == nil || !strings.Contains(err.Error(), `x.jsonl:4: summary "d1-s1" has no sentence 9 (it has 2)`) {
			t.Fatalf("err = %v", err)
		}
		if _, err := s.UserByName(ctx, "w9"); err == nil {
			t.Error("a refused import left an account behind")
		}
	})
}

// TestImportCannotEnrolAccounts: labels for an account that is not an
// annotator of the project are refused and nothing is written; labels for
// an unknown name make an identity that cannot log in, and that identity
// moves aside when an administrator adds a user of its name.
func TestImportCannotEnrolAccounts(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	p, _ := s.CreateProject(ctx, domain.Project{Slug: "p", Settings: domain.DefaultSettings()})
	w1, err := s.CreateUser(ctx, "w1", "", "a long enough password", false)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Import(ctx, p.ID, labelledDocs("faithful"))
	if err == nil || !strings.Contains(err.Error(), `"w1" is an account of this server but not an annotator of this project`) {
		t.Fatalf("labels for a non-member: %v", err)
	}
	if o, _ := s.ProjectOverview(ctx, p.ID); o.Documents != 0 {
		t.Fatalf("a refused import wrote %d documents", o.Documents)
	}
	if q, _ := s.Queue(ctx, p.ID, w1.ID); len(q) != 0 {
		t.Fatalf("the non-member got %d assignments", len(q))
	}

	// As an annotator of the project, w1 is credited; w2 is no account
	// and becomes an imported identity.
	if err := s.SetMember(ctx, p.ID, w1.ID, domain.RoleAnnotator); err != nil {
		t.Fatal(err)
	}
	st, err := s.Import(ctx, p.ID, labelledDocs("faithful"))
	if err != nil {
		t.Fatal(err)
	}
	if st.Accounts != 1 {
		t.Fatalf("stats %+v, want one imported identity (w2)", st)
	}
	w2, err := s.UserByName(ctx, "w2")
	if err != nil || !w2.Disabled {
		t.Fatalf("w2: %+v, %v", w2, err)
	}
	if _, err := s.Authenticate(ctx, "w2", ""); err == nil {
		t.Fatal("an imported identity logs in")
	}

	// An administrator adds a real w2: the identity moves aside.
	real, err := s.CreateUser(ctx, "w2", "", "another long password", false)
	if err != nil {
		t.Fatalf("adding a user with an imported name: %v", err)
	}
	if real.ID == w2.ID || real.Disabled {
		t.Fatalf("the new w2 is the imported identity: %+v", real)
	}
	moved, err := s.UserByID(ctx, w2.ID)
	if err != nil || moved.Username != "w2~"+strconv.FormatInt(w2.ID, 10) || moved.DisplayName != "w2" {
		t.Fatalf("the imported identity: %+v, %v", moved, err)
	}
}

// TestImportKeepsUnknownErrorTypes: an annotator's label with an error type
// the project's taxonomy lacks is kept, and the type is added to the
// taxonomy (a preset becomes a custom taxonomy holding its types and the
// new one), and the import's counts say so.
func TestImportKeepsUnknownErrorTypes(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	p, _ := s.CreateProject(ctx, domain.Project{Slug: "p", Settings: domain.DefaultSettings()})
	docs := labelledDocs("faithful")
	docs[0].Summaries[0].Sentences[1].Labels[0].ErrorTypes = []string{"invented_fact", "contradiction"}
	st, err := s.Import(ctx, p.ID, docs)
	if err != nil {
		t.Fatalf("an unknown error type refused the import: %v", err)
	}
	if strings.Join(st.ErrorTypesAdded, ",") != "invented_fact" {
		t.Fatalf("added %v", st.ErrorTypesAdded)
	}
	got, _ := s.ProjectByID(ctx, p.ID)
	codes := map[string]bool{}
	for _, tt := range got.Settings.ErrorTaxonomy() {
		codes[tt.Code] = true
	}
	if got.Settings.ErrorPreset != "custom" || !codes["invented_fact"] || !codes["contradiction"] || !codes["nuanced_meaning_shift"] {
		t.Fatalf("taxonomy after the import: %s %v", got.Settings.ErrorPreset, codes)
	}
	docs[0].Summaries[0].Sentences[1].Labels[0].ErrorTypes = []string{"not a code!"}
	if _, err := s.Import(ctx, p.ID, docs); err == nil || !strings.Contains(err.Error(), `"not a code!" is not an error type code`) {
		t.Fatalf("a type that is no code: %v", err)
	}
}
