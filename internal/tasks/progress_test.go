package tasks_test

import (
	"context"
	"testing"

	"annotate/internal/domain"
)

func TestRoundManagement(t *testing.T) {
	s, p, users, sums := roundFixture(t, 2, 1, 3)
	ctx := context.Background()
	r, err := s.CreateRound(ctx, p.ID, domain.RoundSpec{Name: "r", Kind: domain.RoundProduction, PerItem: 1, Annotators: users[:2], Summaries: sums})
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := s.RoundAssignments(ctx, r.ID)
	if len(rows) != 2 {
		t.Fatalf("%d assignments", len(rows))
	}
	first := rows[0]
	a, _ := s.AssignmentByID(ctx, first.ID)
	sum, _ := s.Summary(ctx, a.SummaryID)

	t.Run("history keeps every change", func(t *testing.T) {
		v := a.Version
		for _, l := range []string{"faithful", "unfaithful", "faithful"} {
			nv, err := s.SaveSentenceLabel(ctx, a.ID, a.UserID, v, domain.SentenceLabel{SentenceID: sum.Sentences[0].ID, Label: l})
			if err != nil {
				t.Fatal(err)
			}
			v = nv
		}
		h, err := s.LabelHistory(ctx, a.ID)
		if err != nil || len(h) != 3 || h[1].Label.Label != "unfaithful" || h[0].SentenceIndex != 1 {
			t.Fatalf("history = %+v, %v", h, err)
		}
	})
	t.Run("reassign moves the summary and keeps the old labels", func(t *testing.T) {
		newID, err := s.ReassignAssignment(ctx, r.ID, a.ID, users[2])
		if err != nil {
			t.Fatal(err)
		}
		old, _ := s.AssignmentByID(ctx, a.ID)
		moved, _ := s.AssignmentByID(ctx, newID)
		if old.Status != domain.StatusReleased || moved.UserID != users[2] || moved.SummaryID != a.SummaryID {
			t.Fatalf("old %+v new %+v", old, moved)
		}
		if l, _ := s.SentenceLabels(ctx, a.ID); len(l) != 1 {
			t.Fatal("labels of the released assignment were lost")
		}
		if _, err := s.SaveSentenceLabel(ctx, a.ID, a.UserID, old.Version, domain.SentenceLabel{SentenceID: sum.Sentences[0].ID, Label: "faithful"}); domain.ErrorCode(err) != domain.EConflict {
			t.Fatalf("save into a released assignment: %v", err)
		}
		if _, err := s.ReassignAssignment(ctx, r.ID, newID, users[2]); domain.ErrorCode(err) != domain.EConflict {
			t.Fatalf("reassign to the same person: %v", err)
		}
	})
	t.Run("progress and close", func(t *testing.T) {
		prog, err := s.RoundProgress(ctx, r.ID)
		if err != nil || len(prog) != 3 {
			t.Fatalf("progress = %+v, %v", prog, err)
		}
		if err := s.CloseRound(ctx, r.ID); err != nil {
			t.Fatal(err)
		}
		other := rows[1]
		oa, _ := s.AssignmentByID(ctx, other.ID)
		osum, _ := s.Summary(ctx, oa.SummaryID)
		if _, err := s.SaveSentenceLabel(ctx, oa.ID, oa.UserID, oa.Version, domain.SentenceLabel{SentenceID: osum.Sentences[0].ID, Label: "faithful"}); domain.ErrorCode(err) != domain.EConflict {
			t.Fatalf("save into a closed round: %v", err)
		}
	})
	t.Run("settings change reports existing labels", func(t *testing.T) {
		set := domain.DefaultSettings()
		set.ErrorPreset = "frank"
		if err := s.UpdateSettings(ctx, p.ID, set, "New guidelines."); err != nil {
			t.Fatalf("UpdateSettings: %v", err)
		}
		if n, err := s.UpdateSettingsPreview(ctx, p.ID); err != nil || n != 1 {
			t.Fatalf("UpdateSettingsPreview = %d, %v", n, err)
		}
		got, _ := s.ProjectByID(ctx, p.ID)
		if got.Settings.ErrorPreset != "frank" || got.Guidelines != "New guidelines." {
			t.Fatalf("settings not stored: %+v", got.Settings)
		}
		set.ErrorPreset = "nope"
		if err := s.UpdateSettings(ctx, p.ID, set, ""); domain.ErrorCode(err) != domain.EInvalid {
			t.Fatalf("bad preset: %v", err)
		}
	})
	t.Run("gold counts with a released assignment and a second round", func(t *testing.T) {
		// The first counts are kept; a new round must be seen all the same.
		first := checkRoundGold(t, ctx, s, p.ID)
		if len(first) != 1 {
			t.Fatalf("counts %+v", first)
		}
		if _, err := s.CreateRound(ctx, p.ID, domain.RoundSpec{Name: "again", Kind: domain.RoundCalibration, Annotators: users, Summaries: sums[:1]}); err != nil {
			t.Fatal(err)
		}
		counts := checkRoundGold(t, ctx, s, p.ID)
		if len(counts) != 2 || counts[0].Sentences == 0 || counts[1].Sentences == 0 || counts[1].Sentences != counts[1].Waiting {
			t.Fatalf("counts %+v", counts)
		}
	})
}
