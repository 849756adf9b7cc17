package iaa

import (
	"fmt"
	"slices"
)

// Confusion is a confusion matrix of labels against a reference (gold
// labels, or another annotator): Counts[i][j] is the number of items whose
// reference is Categories[i] and whose label is Categories[j].
type Confusion struct {
	Categories []float64 // the values seen in either labelling, ascending
	Counts     [][]int   // [reference][label]
	N          int       // items with both a reference and a label
}

// ConfusionMatrix cross-tabulates labels against ref item by item, skipping
// items where either is missing (NaN). It panics if the slices differ in
// length.
func ConfusionMatrix(ref, labels []float64) Confusion {
	if len(ref) != len(labels) {
		panic(fmt.Sprintf("iaa: ConfusionMatrix: %d reference values but %d labels", len(ref), len(labels)))
	}
	t := newTally()
	for i := range ref {
		if ref[i] == ref[i] && labels[i] == labels[i] {
			t.add(ref[i])
			t.add(labels[i])
		}
	}
	cats, _ := t.distinct()
	c := Confusion{Categories: cats, Counts: make([][]int, len(cats))}
	for i := range c.Counts {
		c.Counts[i] = make([]int, len(cats))
	}
	for i := range ref {
		if ref[i] == ref[i] && labels[i] == labels[i] {
			a, _ := slices.BinarySearch(cats, ref[i])
			b, _ := slices.BinarySearch(cats, labels[i])
			c.Counts[a][b]++
			c.N++
		}
	}
	return c
}

// Accuracy is the share of items whose label equals the reference,
// Σ_i Counts[i][i] / N. Undefined when no item has both.
func Accuracy(c Confusion) (float64, error) {
	if c.N == 0 {
		return 0, undefined("accuracy", "no item has both a reference and a label")
	}
	agree := 0
	for i := range c.Counts {
		agree += c.Counts[i][i]
	}
	return float64(agree) / float64(c.N), nil
}

// Binary holds the one-versus-rest rates of a confusion matrix for one
// positive class (for faithfulness judgements, "unfaithful").
type Binary struct {
	TP, FP, TN, FN int // true/false positives and negatives
	// FPR = FP/(FP+TN): negatives labelled positive.
	FPR float64
	// FNR = FN/(FN+TP): positives labelled negative.
	FNR float64
	// BalancedAccuracy = 1 − (FPR + FNR)/2, the mean of the recalls of the
	// two classes, insensitive to how rare the positive class is.
	BalancedAccuracy float64
	// Accuracy = (TP+TN)/N.
	Accuracy float64
}

// BinaryRates computes FPR, FNR and balanced accuracy of c with positive as
// the positive class and every other category as negative. Undefined when the
// reference has no positive item (FNR has no denominator) or no negative
// item (FPR has none).
func BinaryRates(c Confusion, positive float64) (Binary, error) {
	var b Binary
	for i, row := range c.Counts {
		for j, n := range row {
			refPos, labPos := c.Categories[i] == positive, c.Categories[j] == positive
			switch {
			case refPos && labPos:
				b.TP += n
			case refPos:
				b.FN += n
			case labPos:
				b.FP += n
			default:
				b.TN += n
			}
		}
	}
	const stat = "balanced accuracy"
	if b.TP+b.FN == 0 {
		return b, undefined(stat, "the reference has no positive item")
	}
	if b.FP+b.TN == 0 {
		return b, undefined(stat, "the reference has no negative item")
	}
	b.FPR = float64(b.FP) / float64(b.FP+b.TN)
	b.FNR = float64(b.FN) / float64(b.FN+b.TP)
	b.BalancedAccuracy = 1 - (b.FPR+b.FNR)/2
	b.Accuracy = float64(b.TP+b.TN) / float64(c.N)
	return b, nil
}

// BalancedAccuracy is the mean, over the reference's values that occur,
// of the share of their items that the labels give the same value (the
// recall of each value; scikit-learn's balanced_accuracy_score), so each
// value weighs the same however rare it is. On two values it is
// [BinaryRates]' balanced accuracy; on more, a reference value labelled
// as another is a miss whichever other it is. Undefined when the
// reference has fewer than two values.
func BalancedAccuracy(c Confusion) (float64, error) {
	const stat = "balanced accuracy"
	sum, values := 0.0, 0
	for i, row := range c.Counts {
		n := 0
		for _, x := range row {
			n += x
		}
		if n > 0 {
			sum += float64(row[i]) / float64(n)
			values++
		}
	}
	if values < 2 {
		if c.N == 0 {
			return 0, undefined(stat, "no item has both a reference and a label")
		}
		return 0, undefined(stat, "the reference has only one value")
	}
	return sum / float64(values), nil
}
