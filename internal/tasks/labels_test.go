package tasks_test

import (
	"context"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/tasks"
)

// labelFixture makes a one-summary production round for two annotators and
// returns the store, the two users' assignments and the sentence ids.
func labelFixture(t *testing.T) (*tasks.Store, []domain.Assignment, []int64) {
	t.Helper()
	s, p, users, sums := roundFixture(t, 1, 1, 2)
	ctx := context.Background()
	if _, err := s.CreateRound(ctx, p.ID, domain.RoundSpec{Name: "r1", Kind: domain.RoundProduction, PerItem: 2, Annotators: users, Summaries: sums}); err != nil {
		t.Fatal(err)
	}
	var as []domain.Assignment
	for _, u := range users {
		q, err := s.Queue(ctx, p.ID, u)
		if err != nil || len(q) != 1 {
			t.Fatalf("queue of %d = %v, %v", u, q, err)
		}
		as = append(as, q[0])
	}
	sum, err := s.Summary(ctx, as[0].SummaryID)
	if err != nil {
		t.Fatal(err)
	}
	var sentences []int64
	for _, x := range sum.Sentences {
		sentences = append(sentences, x.ID)
	}
	return s, as, sentences
}

func TestSaveSentenceLabel(t *testing.T) {
	s, as, sents := labelFixture(t)
	ctx := context.Background()
	a, b := as[0], as[1]
	v := 0

	t.Run("save and read back", func(t *testing.T) {
		nv, err := s.SaveSentenceLabel(ctx, a.ID, a.UserID, v, domain.SentenceLabel{SentenceID: sents[0], Label: "unfaithful", ErrorTypes: []string{"contradiction", "contradiction"}, Explanation: "Says the opposite."})
		if err != nil || nv != v+1 {
			t.Fatalf("save = %d, %v", nv, err)
		}
		v = nv
		got, _ := s.SentenceLabels(ctx, a.ID)
		l := got[sents[0]]
		if l.Label != "unfaithful" || len(l.ErrorTypes) != 1 || l.Explanation != "Says the opposite." {
			t.Fatalf("read back %+v", l)
		}
	})
	t.Run("stale version is refused", func(t *testing.T) {
		_, err := s.SaveSentenceLabel(ctx, a.ID, a.UserID, v-1, domain.SentenceLabel{SentenceID: sents[0], Label: "faithful"})
		if domain.ErrorCode(err) != domain.EConflict {
			t.Fatalf("err = %v, want conflict", err)
		}
		got, _ := s.SentenceLabels(ctx, a.ID)
		if got[sents[0]].Label != "unfaithful" {
			t.Fatal("stale write overwrote the label")
		}
	})
	t.Run("another annotator's assignment is not found", func(t *testing.T) {
		_, err := s.SaveSentenceLabel(ctx, a.ID, b.UserID, v, domain.SentenceLabel{SentenceID: sents[0], Label: "faithful"})
		if domain.ErrorCode(err) != domain.ENotFound {
			t.Fatalf("err = %v, want not found", err)
		}
	})
	t.Run("a faithful label keeps no explanation or error types", func(t *testing.T) {
		no := false
		nv, err := s.SaveSentenceLabel(ctx, a.ID, a.UserID, v, domain.SentenceLabel{SentenceID: sents[0], Label: "faithful", ErrorTypes: []string{"contradiction"},
			Explanation: "Left from the unfaithful label.", Ambiguous: &no, AmbiguityType: "deduction", AmbiguityNote: "two readings"})
		if err != nil {
			t.Fatal(err)
		}
		v = nv
		l := mustLabels(t, s, a.ID)[sents[0]]
		if l.Explanation != "" || len(l.ErrorTypes) != 0 || l.AmbiguityType != "" || l.AmbiguityNote != "" {
			t.Fatalf("stored %+v", l)
		}
	})
	t.Run("invalid values", func(t *testing.T) {
		for name, l := range map[string]domain.SentenceLabel{
			"label":          {SentenceID: sents[0], Label: "maybe"},
			"borderline off": {SentenceID: sents[0], Label: "borderline"},
			"error type":     {SentenceID: sents[0], Label: "unfaithful", ErrorTypes: []string{"typo"}},
			"ambiguity type": {SentenceID: sents[0], AmbiguityType: "sarcasm"},
			"other sentence": {SentenceID: 9999, Label: "faithful"},
		} {
			if _, err := s.SaveSentenceLabel(ctx, a.ID, a.UserID, v, l); err == nil {
				t.Errorf("%s: accepted", name)
			}
		}
	})
	t.Run("reveal tracking", func(t *testing.T) {
		steps := []struct {
			label   string
			visible bool
			changed bool
			first   string
		}{
			{"faithful", false, false, "faithful"},
			{"faithful", true, false, "faithful"},
			{"unfaithful", true, true, "faithful"},
			{"faithful", true, false, "faithful"},
		}
		for i, st := range steps {
			nv, err := s.SaveSentenceLabel(ctx, a.ID, a.UserID, v, domain.SentenceLabel{SentenceID: sents[0], Label: st.label, AssistantVisible: st.visible})
			if err != nil {
				t.Fatal(err)
			}
			v = nv
			l := mustLabels(t, s, a.ID)[sents[0]]
			if l.ChangedAfterReveal != st.changed || l.FirstLabel != st.first {
				t.Errorf("step %d: changed=%v first=%q, want %v %q", i, l.ChangedAfterReveal, l.FirstLabel, st.changed, st.first)
			}
		}
	})
}

func mustLabels(t *testing.T, s *tasks.Store, id int64) map[int64]domain.SentenceLabel {
	t.Helper()
	m, err := s.SentenceLabels(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestMissing(t *testing.T) {
	set := domain.DefaultSettings()
	yes := true
	cases := []struct {
		name string
		l    domain.SentenceLabel
		want int
	}{
		{"empty", domain.SentenceLabel{}, 1},
		{"faithful", domain.SentenceLabel{Label: "faithful"}, 0},
		{"unfaithful bare", domain.SentenceLabel{Label: "unfaithful"}, 2},
		{"unfaithful complete", domain.SentenceLabel{Label: "unfaithful", ErrorTypes: []string{"contradiction"}, Explanation: "x"}, 0},
		{"ambiguous bare", domain.SentenceLabel{Label: "faithful", Ambiguous: &yes}, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.l.Missing(set); len(got) != tc.want {
				t.Fatalf("Missing = %v, want %d items", got, tc.want)
			}
		})
	}
}
