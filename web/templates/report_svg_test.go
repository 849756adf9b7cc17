package templates_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"

	"annotate/web/templates"
)

func ptr(x float64) *float64 { return &x }

// wellFormed renders a component and parses it as XML.
func wellFormed(t *testing.T, render func(io.Writer) error) string {
	t.Helper()
	var b bytes.Buffer
	if err := render(&b); err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(bytes.NewReader(b.Bytes()))
	for {
		_, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed: %v\n%s", err, b.String())
		}
	}
	return b.String()
}

func TestHeatmap(t *testing.T) {
	names := []string{"ann", "bob", "cy<d>"}
	h := templates.NewHeatmap("hm", "Cohen's κ", "Cohen's κ", names, []templates.HeatPair{
		{A: "bob", B: "ann", Value: ptr(0.8), CI: &[2]float64{0.6, 1}, N: 10},
		{A: "ann", B: "cy<d>", Undefined: "one category only", N: 4},
	})
	cells := map[string]templates.HeatCell{}
	for _, c := range h.Cells {
		cells[c.TestID] = c
	}
	tests := []struct {
		id, text, title string
	}{
		{"hm-ann-bob", "0.80", "ann and bob: Cohen's κ 0.800 [0.600, 1.000], 10 units"},
		{"hm-bob-ann", "0.80", "bob and ann: Cohen's κ 0.800"}, // either order fills both cells
		{"hm-ann-cy<d>", "n/a", "undefined, one category only (4 units)"},
		{"hm-bob-cy<d>", "n/a", "no units rated by both"},
		{"hm-ann-ann", "—", "themself"},
	}
	for _, tc := range tests {
		c, ok := cells[tc.id]
		if !ok || c.Text != tc.text || !strings.Contains(c.Title, tc.title) {
			t.Errorf("%s = %+v, want %q with title containing %q", tc.id, c, tc.text, tc.title)
		}
	}
	if len(h.Cells) != 9 || len(h.Legend.Ticks) != 5 {
		t.Errorf("%d cells, %d legend ticks", len(h.Cells), len(h.Legend.Ticks))
	}
	if c := cells["hm-ann-bob"]; c.Fill == "#f7f7f7" || c.TextFill != "#ffffff" {
		t.Errorf("κ 0.8 is drawn %s on %s", c.TextFill, c.Fill)
	}
	out := wellFormed(t, func(w io.Writer) error { return templates.HeatmapSVG(h).Render(context.Background(), w) })
	if strings.Contains(out, "cy<d>") || !strings.Contains(out, "cy&lt;d&gt;") {
		t.Error("a name is not escaped")
	}
}

func TestLineChart(t *testing.T) {
	rounds := []string{"c1", "c2", "c3"}
	ch := templates.NewLineChart("tr", "Trend", rounds, []templates.SeriesInput{
		{Label: "α", Values: []*float64{ptr(0.2), nil, ptr(0.9)}},
		{Label: "κ", Values: []*float64{ptr(-0.3), ptr(0.1), ptr(0.5)}},
	})
	a, k := ch.Series[0], ch.Series[1]
	if len(a.Points) != 2 || strings.Count(a.Path, "M") != 2 || strings.Contains(a.Path, "L") {
		t.Errorf("α, undefined in c2: %d points, path %q; want two separate points", len(a.Points), a.Path)
	}
	if len(k.Points) != 3 || strings.Count(k.Path, "L") != 2 {
		t.Errorf("κ: %d points, path %q", len(k.Points), k.Path)
	}
	if ch.YTicks[0].Text != "-0.4" || ch.YTicks[len(ch.YTicks)-1].Text != "1.0" {
		t.Errorf("y axis from %s to %s, want -0.4 to 1.0", ch.YTicks[0].Text, ch.YTicks[len(ch.YTicks)-1].Text)
	}
	if k.Points[0].Y <= k.Points[2].Y || k.Points[0].X >= k.Points[2].X {
		t.Error("points are not placed by round and value")
	}
	if k.Points[1].Title != "κ, round c2: 0.100" {
		t.Errorf("point title %q", k.Points[1].Title)
	}
	if a.Dash == k.Dash || a.Colour == k.Colour {
		t.Error("two series look alike")
	}
	wellFormed(t, func(w io.Writer) error { return templates.LineChartSVG(ch).Render(context.Background(), w) })

	one := templates.NewLineChart("one", "One round", []string{"c1"}, []templates.SeriesInput{{Label: "α", Values: []*float64{ptr(0.5)}}})
	if p := one.Series[0].Points; len(p) != 1 || p[0].X <= one.Left || p[0].X >= one.Right {
		t.Errorf("one round: points %+v", p)
	}
}
