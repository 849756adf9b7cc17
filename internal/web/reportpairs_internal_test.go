package web

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"annotate/internal/agreement"
	"annotate/internal/report"
	"annotate/web/templates"
)

// TestPairListLowestFirst checks the list that replaces the heatmap for
// large groups: only pairs sharing enough units with a defined κ, lowest
// first, ties to the pair with more units, at most lowPairsShown.
func TestPairListLowestFirst(t *testing.T) {
	k := func(x float64) *float64 { return &x }
	d := &report.Dimension{Name: "faithfulness", Title: "Faithfulness", Level: "sentence", Scale: "nominal"}
	// Thirty pairs with κ from 0.30 up, plus pairs that must not be listed.
	for i := range 30 {
		d.Pairwise = append(d.Pairwise, agreement.Pair{Coders: [2]string{"a", fmt.Sprintf("b%02d", i)}, N: 40, CohenKappa: k(0.30 + float64(i)/100)})
	}
	d.Pairwise = append(d.Pairwise,
		agreement.Pair{Coders: [2]string{"few", "units"}, N: lowPairMinUnits - 1, CohenKappa: k(-0.9)},
		agreement.Pair{Coders: [2]string{"no", "kappa"}, N: 50, Undefined: "one category"},
		agreement.Pair{Coders: [2]string{"tie", "small"}, N: 12, CohenKappa: k(0.1)},
		agreement.Pair{Coders: [2]string{"tie", "large"}, N: 90, CohenKappa: k(0.1)},
	)
	l := pairList(40, d, "/p/x/report.csv?table=pairwise")
	if l.Possible != 780 || l.Sharing != 34 {
		t.Fatalf("possible %d sharing %d, want 780 and 34", l.Possible, l.Sharing)
	}
	if len(l.Rows) != lowPairsShown {
		t.Fatalf("%d rows, want %d", len(l.Rows), lowPairsShown)
	}
	got := []string{}
	for _, r := range l.Rows[:4] {
		got = append(got, r.A+"-"+r.B+"="+r.Kappa.Value)
	}
	want := "tie-large=0.100 tie-small=0.100 a-b00=0.300 a-b01=0.310"
	if strings.Join(got, " ") != want {
		t.Fatalf("first rows %v, want %s", got, want)
	}
	if last := l.Rows[len(l.Rows)-1]; last.B != "b17" {
		t.Fatalf("last row %s-%s, want a-b17", last.A, last.B)
	}
	for _, r := range l.Rows {
		if r.A == "few" || r.A == "no" {
			t.Fatalf("listed %s-%s", r.A, r.B)
		}
	}
}

// TestLargeGroupPageStaysSmall renders the annotators section for 100
// annotators: the pair list in place of a 100 × 100 heatmap keeps the
// section small, and the pairwise CSV is linked.
func TestLargeGroupPageStaysSmall(t *testing.T) {
	d := &report.Dimension{Name: "faithfulness", Title: "Faithfulness", Level: "sentence", Scale: "nominal"}
	var names []string
	for i := range 100 {
		names = append(names, fmt.Sprintf("annotator%03d", i))
	}
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			x := float64((i*7+j*13)%200)/100 - 1
			d.Pairwise = append(d.Pairwise, agreement.Pair{Coders: [2]string{names[i], names[j]}, N: 20 + (i+j)%30, CohenKappa: &x})
		}
	}
	render := func(v templates.ReportView) int {
		var buf bytes.Buffer
		if err := templates.ReportPage(v).Render(context.Background(), &buf); err != nil {
			t.Fatal(err)
		}
		return buf.Len()
	}
	v := templates.ReportView{Annotators: 100, Focus: "Faithfulness"}
	v.PairLists = []templates.PairList{pairList(len(names), d, "/p/x/report.csv?table=pairwise")}
	small := render(v)
	v.PairLists = nil
	v.Heatmaps = []templates.Heatmap{heatmap(names, d)}
	large := render(v)
	if small > 60_000 || large < 20*small {
		t.Fatalf("page with the pair list %d bytes, with the heatmap %d", small, large)
	}
}
