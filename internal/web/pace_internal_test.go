package web

import (
	"testing"

	"annotate/internal/domain"
	"annotate/web/templates"
)

// TestPace: an annotator's median time per submitted summary, their open
// work at that pace, and the round's end at the slowest annotator's pace.
// (What each annotator's pace is counted from is checked against the
// round's assignments in tasks' TestRoundAssignmentsPagesAndPace.)
func TestPace(t *testing.T) {
	var v templates.RoundView
	paces := []domain.AnnotatorPace{
		{AnnotatorProgress: domain.AnnotatorProgress{Username: "ann", Submitted: 3}, LastActive: "2026-11-25T10:05:00Z", Open: 1, MedianSeconds: 120},
		{AnnotatorProgress: domain.AnnotatorProgress{Username: "bob", Submitted: 1}, LastActive: "2026-11-25T11:00:00Z", Open: 2, MedianSeconds: 30},
	}
	v.Progress, v.ETA = pace(paces)
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
	// Open work with no submitted summary to measure a pace on: no round
	// end.
	v.Progress, v.ETA = pace(append(paces[:1:1], domain.AnnotatorPace{AnnotatorProgress: domain.AnnotatorProgress{Username: "cat"}, Open: 3}))
	if v.ETA != "" || v.Progress[1].Median != "" {
		t.Errorf("with an annotator not yet measured: round ETA %q, cat %+v", v.ETA, v.Progress[1])
	}
}
