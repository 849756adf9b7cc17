package tasks_test

import (
	"context"
	"testing"

	"annotate/internal/domain"
)

func TestSkipAndFlag(t *testing.T) {
	s, as, sents := labelFixture(t)
	ctx := context.Background()
	a, b := as[0], as[1]

	t.Run("a skip needs a reason and can be taken back", func(t *testing.T) {
		if err := s.SkipAssignment(ctx, a.ID, a.UserID, "  "); domain.ErrorCode(err) != domain.EInvalid {
			t.Fatalf("empty reason: %v", err)
		}
		if err := s.SkipAssignment(ctx, a.ID, b.UserID, "not mine"); domain.ErrorCode(err) != domain.ENotFound {
			t.Fatalf("another annotator's skip: %v", err)
		}
		if err := s.SkipAssignment(ctx, a.ID, a.UserID, "The transcript is cut off."); err != nil {
			t.Fatal(err)
		}
		k, ok, err := s.SkipOf(ctx, a.ID)
		if err != nil || !ok || k.Reason != "The transcript is cut off." {
			t.Fatalf("skip = %+v %v %v", k, ok, err)
		}
		if got, _ := s.Skipped(ctx, a.ProjectID, a.UserID); got[a.ID] != k.Reason || len(got) != 1 {
			t.Fatalf("skipped = %v", got)
		}
		if err := s.UnskipAssignment(ctx, a.ID, a.UserID); err != nil {
			t.Fatal(err)
		}
		if _, ok, _ := s.SkipOf(ctx, a.ID); ok {
			t.Fatal("still skipped")
		}
	})
	t.Run("a flag is kept with the label and removed when emptied", func(t *testing.T) {
		v, err := s.SaveSentenceLabel(ctx, a.ID, a.UserID, a.Version, domain.SentenceLabel{SentenceID: sents[0], Label: "faithful", Flag: "Two sentences in one unit."})
		if err != nil {
			t.Fatal(err)
		}
		if got := mustLabels(t, s, a.ID)[sents[0]]; got.Flag != "Two sentences in one unit." {
			t.Fatalf("flag = %q", got.Flag)
		}
		if _, err := s.SaveSentenceLabel(ctx, a.ID, a.UserID, v, domain.SentenceLabel{SentenceID: sents[0], Label: "faithful"}); err != nil {
			t.Fatal(err)
		}
		if got := mustLabels(t, s, a.ID)[sents[0]]; got.Flag != "" {
			t.Fatalf("flag after clearing = %q", got.Flag)
		}
	})
}
