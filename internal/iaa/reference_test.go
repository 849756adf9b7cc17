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
