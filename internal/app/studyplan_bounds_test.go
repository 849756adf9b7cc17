package app_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"annotate/internal/app"
	"annotate/internal/experiment"
)

// A plan's form took any number of items per participant and any k:
// 10,000 items and one simulated study of 100 participants took 23 s and
// 9 GB. Each bound is refused naming its field, and the simulation stops
// when its request ends.
func TestPlanStudyIsBounded(t *testing.T) {
	for _, c := range []struct{ plan, field string }{
		{`{"accuracy":{"none":0.7,"debate":0.9},"items_per_participant":10001}`, "items_per_participant: 10001 is not between 1 and 10000"},
		{`{"accuracy":{"none":0.7,"debate":0.9},"items_per_participant":-3}`, "items_per_participant: -3 is not between 1 and 10000"},
		{`{"accuracy":{"none":0.7,"debate":0.9},"k":51}`, "k: 51 is not between 1 and 50"},
	} {
		_, err := app.ReadPlanForPower([]byte(c.plan))
		if err == nil || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%s: got %v, want an error naming %q", c.plan, err, c.field)
		}
	}
	plan, err := app.ReadPlanForPower([]byte(`{"accuracy":{"none":0.7,"debate":0.9},"items_per_participant":10000}`))
	if err != nil {
		t.Fatal(err)
	}
	in, ok := app.AsInvalid(func() error { _, err := app.PlanStudy(context.Background(), plan, []int{100}, 1); return err }())
	if !ok || len(in.Fields) != 1 || in.Fields[0].Field != "participants[0]" || !strings.Contains(in.Fields[0].Message, "1000000 labels in one simulated study") {
		t.Errorf("100 participants × 10,000 items: %+v", in)
	}
	small, err := experiment.ParsePlan([]byte(`{"participants":1,"accuracy":{"none":0.7,"debate":0.9}}`))
	if err != nil {
		t.Fatal(err)
	}
	in, ok = app.AsInvalid(func() error {
		_, err := app.PlanStudy(context.Background(), small, []int{1000, 1000, 1000}, 100)
		return err
	}())
	if !ok || len(in.Fields) != 1 || in.Fields[0].Field != "studies" || !strings.Contains(in.Fields[0].Message, "3000000 simulated labels") {
		t.Errorf("3,000,000 labels in all: %+v", in)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := app.PlanStudy(ctx, small, []int{20, 40}, 50); !errors.Is(err, context.Canceled) {
		t.Errorf("a plan whose request ended: %v, want context.Canceled", err)
	}
}
