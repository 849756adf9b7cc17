package web

import (
	"testing"

	"annotate/internal/domain"
	"annotate/web/templates"
)

// TestPace: an annotator's median time per submitted summary, their open
// work at that pace, and the round's end at the slowest annotator's pace.
func TestPace(t *testing.T) {
	v := templates.RoundView{Progress: []templates.ProgressRow{{Username: "ann"}, {Username: "bob"}}}
	rows := []domain.RoundAssignment{
		{Username: "ann", Status: domain.StatusSubmitted, ActiveSeconds: 60, SubmittedAt: "2026-11-25T10:00:00Z"},
		{Username: "ann", Status: domain.StatusSubmitted, ActiveSeconds: 180, SubmittedAt: "2026-11-25T10:05:00Z"},
		{Username: "ann", Status: domain.StatusSubmitted, ActiveSeconds: 120},
		{Username: "ann", Status: domain.StatusPending},
		{Username: "bob", Status: domain.StatusSubmitted, ActiveSeconds: 30},
		{Username: "bob", Status: domain.StatusInProgress, LastLabel: "2026-11-25T11:00:00Z"},
		{Username: "bob", Status: domain.StatusPending},
		{Username: "bob", Status: domain.StatusReleased, ActiveSeconds: 999},
	}
	pace(&v, rows)
	ann, bob := v.Progress[0], v.Progress[1]
	if ann.Median != "2m0s" || ann.ETA != "2m0s" || ann.LastActive != "2026-11-25T10:05:00Z" {
		t.Errorf("ann: %+v", ann)
	}
	if bob.Median != "30s" || bob.ETA != "1m0s" || bob.LastActive != "2026-11-25T11:00:00Z" {
		t.Errorf("bob: %+v", bob)
	}
	if v.ETA != "2m0s" {
		t.Errorf("round ETA %q, want the slowest annotator's", v.ETA)
	}
}
