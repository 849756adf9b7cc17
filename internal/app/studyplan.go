package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"annotate/internal/domain"
	"annotate/internal/experiment"
)

// PlanRow is the power, for one number of participants, to detect each
// condition's planted difference from none in accuracy.
type PlanRow struct {
	Participants int                      `json:"participants"`
	Power        []experiment.PowerResult `json:"power"`
}

// Bounds of a power calculation, so that a page's request stays short.
const (
	maxPlanSizes        = 8
	maxPlanParticipants = 1000
	maxPlanStudies      = 1000
	planPermutations    = 99
	// maxPlanStudyLabels bounds the labels of one simulated study
	// (participants × items per participant): 100,000 take about 3 s of
	// one processor with 40 MB; ten times as many took 23 s and 9 GB.
	maxPlanStudyLabels = 100_000
	// maxPlanLabels bounds the labels simulated in all (the sum over the
	// sizes tried of participants × items per participant, times the
	// studies): the command line's default of 200 studies of the example
	// plan simulates 740,000.
	maxPlanLabels = 2_000_000
)

// DefaultPlanSizes are the numbers of participants a plan is tried with
// when none are given.
var DefaultPlanSizes = []int{20, 40, 60, 100, 150}

// PlanStudy tells a lead, before a study is paid for, how likely it is to
// detect each condition's planted difference from none in accuracy with
// each number of participants: the share of studies simulated from the
// plan (seeds plan.seed, +1, …; 1 to 1,000 of them per size) whose
// permutation p-value (99 shuffles) is below 0.05 (see docs/studies.md).
// The sizes are computed side by side, one per processor. The plan needs
// a none condition; sizes are 1 to 1,000 participants, at most 8 of them;
// one simulated study holds at most 100,000 labels and all of them
// together at most 2,000,000. It stops with ctx's error when ctx ends.
func PlanStudy(ctx context.Context, plan *experiment.Plan, sizes []int, studies int) ([]PlanRow, error) {
	if studies < 1 || studies > maxPlanStudies {
		return nil, &Invalid{Fields: []FieldError{{"studies", fmt.Sprintf("%d is not between 1 and %d", studies, maxPlanStudies)}}}
	}
	if !slices.Contains(plan.Conditions, "none") {
		return nil, &Invalid{Fields: []FieldError{{"accuracy", "give the accuracy of \"none\": power is the chance to detect a difference from no assistance"}}}
	}
	if len(sizes) == 0 {
		sizes = DefaultPlanSizes
	}
	if len(sizes) > maxPlanSizes {
		return nil, &Invalid{Fields: []FieldError{{"participants", fmt.Sprintf("try at most %d numbers of participants at once", maxPlanSizes)}}}
	}
	for i, n := range sizes {
		if n < 1 || n > maxPlanParticipants {
			return nil, &Invalid{Fields: []FieldError{{fmt.Sprintf("participants[%d]", i), fmt.Sprintf("%d is not between 1 and %d", n, maxPlanParticipants)}}}
		}
	}
	total := 0
	for i, n := range sizes {
		if labels := n * plan.ItemsPerParticipant; labels > maxPlanStudyLabels {
			return nil, &Invalid{Fields: []FieldError{{fmt.Sprintf("participants[%d]", i), fmt.Sprintf(
				"%d participants × %d items per participant is %d labels in one simulated study, more than %d: try fewer of either",
				n, plan.ItemsPerParticipant, labels, maxPlanStudyLabels)}}}
		}
		total += n * plan.ItemsPerParticipant * studies
	}
	if total > maxPlanLabels {
		return nil, &Invalid{Fields: []FieldError{{"studies", fmt.Sprintf(
			"%d simulated labels in all (participants tried × items per participant × studies), more than %d: try fewer studies or sizes",
			total, maxPlanLabels)}}}
	}
	out := make([]PlanRow, len(sizes))
	errs := make([]error, len(sizes))
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(sizes)) {
		wg.Go(func() {
			for i := range work {
				q := *plan
				q.Participants = sizes[i]
				power, err := experiment.Power(ctx, &q, experiment.Accuracy, studies, planPermutations, 0.05)
				out[i], errs[i] = PlanRow{Participants: sizes[i], Power: power}, err
			}
		})
	}
	for i := range sizes {
		work <- i
	}
	close(work)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, domain.Op("App.PlanStudy", err)
	}
	return out, nil
}

// ParsePlanSizes reads the numbers of participants to try, written
// "20, 40, 60" as the command line and the page take them; empty gives
// none (PlanStudy then tries DefaultPlanSizes).
func ParsePlanSizes(list string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(list, ",") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		n, err := strconv.Atoi(part)
		if err != nil {
			return nil, &Invalid{Fields: []FieldError{{"participants", fmt.Sprintf("%q is not a whole number", part)}}}
		}
		out = append(out, n)
	}
	return out, nil
}

// ReadPlanForPower reads a plan for PlanStudy, which sets the number of
// participants itself: a plan may leave "participants" out (as the
// Studies page's form and a plan written for planning do). An empty plan
// is refused as such.
func ReadPlanForPower(b []byte) (*experiment.Plan, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, &Invalid{Fields: []FieldError{{"plan", "empty: give a plan such as {\"accuracy\": {\"none\": 0.75, \"debate\": 0.88}}"}}}
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, &Invalid{Fields: []FieldError{{"plan", "not a JSON object: " + err.Error()}}}
	}
	if _, ok := raw["participants"]; !ok {
		raw["participants"] = json.RawMessage("1")
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return nil, domain.Op("App.ReadPlanForPower", err)
	}
	plan, err := experiment.ParsePlan(b)
	if err != nil {
		return nil, &Invalid{Fields: []FieldError{{"plan", strings.TrimPrefix(err.Error(), "plan: ")}}}
	}
	return plan, nil
}
