package assiststore

import (
	"context"
	"errors"
	"math"

	"annotate/internal/domain"
	"annotate/internal/iaa"
)

// AssistEval judges one run's tentative labels against the gold labels,
// with "unfaithful" as the positive class (MADISSE Table 3 reports the same
// numbers). A number whose *Undefined reason is set has no value.
type AssistEval struct {
	RunID int64
	// N counts sentences with both a complete assistant result and a gold
	// label of faithful or unfaithful (borderline gold is left out).
	N int
	// TP, FP, TN and FN count unfaithful (positive) and faithful
	// (negative) sentences by gold and assistant label.
	TP, FP, TN, FN int
	// BalancedAccuracy = 1 − (FPR + FNR)/2.
	BalancedAccuracy float64
	// FPR = FP/(FP+TN): faithful sentences the assistant called unfaithful.
	FPR float64
	// FNR = FN/(FN+TP): unfaithful sentences the assistant called faithful.
	FNR float64
	// RatesUndefined says why BalancedAccuracy, FPR and FNR have no value
	// (the gold has only one class, or there is no pair at all).
	RatesUndefined string
	// Alpha is Krippendorff's α (nominal) between the assistant and gold,
	// treated as two coders.
	Alpha          float64
	AlphaUndefined string
}

// LabelPair is one sentence's gold label and the assistant's label.
type LabelPair struct {
	Gold, Assistant string
}

// EvalLabels computes an AssistEval from label pairs; pairs whose labels
// are not both faithful or unfaithful are skipped.
func EvalLabels(pairs []LabelPair) AssistEval {
	code := map[string]float64{domain.LabelFaithful: 0, domain.LabelUnfaithful: 1}
	var gold, asst []float64
	for _, p := range pairs {
		g, okG := code[p.Gold]
		a, okA := code[p.Assistant]
		if okG && okA {
			gold, asst = append(gold, g), append(asst, a)
		}
	}
	e := AssistEval{N: len(gold)}
	if e.N == 0 {
		const none = "no sentence has both a gold label and an assistant label"
		e.RatesUndefined, e.AlphaUndefined = none, none
		return e
	}
	b, err := iaa.BinaryRates(iaa.ConfusionMatrix(gold, asst), 1)
	e.TP, e.FP, e.TN, e.FN = b.TP, b.FP, b.TN, b.FN
	if err != nil {
		e.RatesUndefined = undefinedReason(err)
	} else {
		e.BalancedAccuracy, e.FPR, e.FNR = b.BalancedAccuracy, b.FPR, b.FNR
	}
	alpha, err := iaa.Alpha(iaa.FromColumns(gold, asst), iaa.Nominal)
	if err != nil || math.IsNaN(alpha) {
		e.AlphaUndefined = undefinedReason(err)
	} else {
		e.Alpha = alpha
	}
	return e
}

// undefinedReason words why a statistic has no value.
func undefinedReason(err error) string {
	var u *iaa.UndefinedError
	if errors.As(err, &u) {
		return u.Reason
	}
	if err != nil {
		return err.Error()
	}
	return "not a number"
}

// evalPairsQuery reads the gold and the run's label of each sentence with
// both, from the gold to the run's outputs, a seek each: the other way
// round, SQLite read every output of the run (1.65M on the 30x load
// corpus, for 1,096 gold sentences: 1.6 s a run on each view of the runs
// page). Gold rarely outnumbers a run's outputs by much. Only the pairs
// EvalLabels counts are read: gold of faithful or unfaithful (not
// unresolved, nor borderline) and complete results with a label, whose
// seek the runs' index of labelled results answers without the output's
// row (schema 40's assist_outputs_labels, named, since without
// statistics the planner takes the table's key instead): on the
// 1.5M-label project, 0.32-0.36 s a run against 1.08-1.20 s.
const evalPairsQuery = `SELECT g.label, o.label FROM gold_sentences g
	CROSS JOIN assist_outputs o INDEXED BY assist_outputs_labels ON o.run_id = ? AND o.sentence_id = g.sentence_id
	WHERE o.status = 'ok' AND o.label != '' AND g.label IN ('faithful', 'unfaithful')`

// EvalAssistRun compares a run's complete results with the gold labels of
// the same sentences.
func (s *Store) EvalAssistRun(ctx context.Context, runID int64) (AssistEval, error) {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, evalPairsQuery, runID)
	if err != nil {
		return AssistEval{}, domain.Op("Store.EvalAssistRun", err)
	}
	defer rows.Close()
	var pairs []LabelPair
	for rows.Next() {
		var p LabelPair
		if err := rows.Scan(&p.Gold, &p.Assistant); err != nil {
			return AssistEval{}, domain.Op("Store.EvalAssistRun", err)
		}
		pairs = append(pairs, p)
	}
	if err := rows.Err(); err != nil {
		return AssistEval{}, domain.Op("Store.EvalAssistRun", err)
	}
	e := EvalLabels(pairs)
	e.RunID = runID
	return e, nil
}
