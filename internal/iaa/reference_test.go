package iaa_test

import (
	"errors"
	"testing"

	"annotate/internal/iaa"
)

func TestBinaryRates(t *testing.T) {
	// Self-check on a hand-made example (not a published value): 1 marks
	// "unfaithful", the positive class. Gold has 4 positives and 6
	// negatives; the labels miss one positive and flag two negatives.
	gold := []float64{1, 1, 1, 1, 0, 0, 0, 0, 0, 0, na}
	labels := []float64{1, 1, 1, 0, 1, 1, 0, 0, 0, 0, 1}
	c := iaa.ConfusionMatrix(gold, labels)
	if c.N != 10 || c.Counts[1][1] != 3 || c.Counts[1][0] != 1 || c.Counts[0][1] != 2 || c.Counts[0][0] != 4 {
		t.Fatalf("confusion = %+v", c)
	}
	acc, err := iaa.Accuracy(c)
	if err != nil || !near(acc, 0.7, 1e-15) {
		t.Errorf("accuracy = %v, %v; want 0.7", acc, err)
	}
	b, err := iaa.BinaryRates(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []struct {
		name      string
		got, want float64
	}{
		{"FPR", b.FPR, 2.0 / 6}, {"FNR", b.FNR, 1.0 / 4},
		{"balanced accuracy", b.BalancedAccuracy, 1 - (2.0/6+1.0/4)/2}, {"accuracy", b.Accuracy, 0.7},
	} {
		if !near(x.got, x.want, 1e-15) {
			t.Errorf("%s = %v, want %v", x.name, x.got, x.want)
		}
	}
}

func TestBinaryRatesUndefined(t *testing.T) {
	tests := []struct {
		name         string
		gold, labels []float64
	}{
		{"no-positive", []float64{0, 0}, []float64{0, 1}},
		{"no-negative", []float64{1, 1}, []float64{0, 1}},
		{"empty", []float64{na}, []float64{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := iaa.BinaryRates(iaa.ConfusionMatrix(tt.gold, tt.labels), 1)
			if !errors.Is(err, iaa.ErrUndefined) {
				t.Errorf("err = %v, want ErrUndefined", err)
			}
		})
	}
	if _, err := iaa.Accuracy(iaa.ConfusionMatrix([]float64{na}, []float64{1})); !errors.Is(err, iaa.ErrUndefined) {
		t.Errorf("Accuracy on nothing: err = %v", err)
	}
}

// TestBalancedAccuracyIsTheMeanRecallOfEachGoldValue: balanced accuracy
// is the mean, over the gold values present, of the share of that value's
// items labelled with it (scikit-learn's balanced_accuracy_score). Hand
// counts, 0 faithful, 1 unfaithful, 2 borderline: gold faithful 8 items
// (6 labelled faithful, 2 unfaithful), unfaithful 4 (3 unfaithful, 1
// faithful), borderline 4 (3 faithful, 1 borderline), so
// (6/8 + 3/4 + 1/4)/3 = 0.583…; taking unfaithful against the rest would
// count the three borderline items labelled faithful as right (0.792).
// On two values it is BinaryRates' balanced accuracy.
func TestBalancedAccuracyIsTheMeanRecallOfEachGoldValue(t *testing.T) {
	var gold, labels []float64
	add := func(g, l float64, n int) {
		for range n {
			gold, labels = append(gold, g), append(labels, l)
		}
	}
	add(0, 0, 6)
	add(0, 1, 2)
	add(1, 1, 3)
	add(1, 0, 1)
	add(2, 0, 3)
	add(2, 2, 1)
	got, err := iaa.BalancedAccuracy(iaa.ConfusionMatrix(gold, labels))
	if want := (6.0/8 + 3.0/4 + 1.0/4) / 3; err != nil || !near(got, want, 1e-15) {
		t.Errorf("balanced accuracy on three values = %v, %v; want %v", got, err, want)
	}
	two := iaa.ConfusionMatrix([]float64{1, 1, 1, 1, 0, 0, 0, 0, 0, 0}, []float64{1, 1, 1, 0, 1, 1, 0, 0, 0, 0})
	b, _ := iaa.BinaryRates(two, 1)
	if got, err := iaa.BalancedAccuracy(two); err != nil || !near(got, b.BalancedAccuracy, 1e-15) {
		t.Errorf("balanced accuracy on two values = %v, %v; want BinaryRates' %v", got, err, b.BalancedAccuracy)
	}
	// A value labelled but never gold adds no recall; one gold value alone
	// leaves it undefined, as does no item.
	if got, err := iaa.BalancedAccuracy(iaa.ConfusionMatrix([]float64{0, 0, 1, 1}, []float64{0, 2, 1, 1})); err != nil || !near(got, (0.5+1)/2, 1e-15) {
		t.Errorf("with a label value gold never has = %v, %v; want 0.75", got, err)
	}
	for _, c := range []iaa.Confusion{iaa.ConfusionMatrix([]float64{0, 0}, []float64{0, 1}), iaa.ConfusionMatrix(nil, nil)} {
		if got, err := iaa.BalancedAccuracy(c); err == nil {
			t.Errorf("balanced accuracy of %+v = %v, want undefined", c, got)
		}
	}
}
