package templates

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The SVG figures of the report page are laid out here, in plain Go, so
// that the templates only copy coordinates into elements and every number
// drawn is finite.

// Heatmap is a square matrix of pairwise agreement drawn as SVG.
type Heatmap struct {
	ID, Title, Desc string
	Width, Height   float64
	Rows            []AxisLabel // annotator names left of the rows
	Cols            []AxisLabel // and above the columns
	Cells           []HeatCell
	Legend          Legend
	// Note explains the mark on cells whose interval is too narrow, or is
	// empty when no cell has one.
	Note string
}

// AxisLabel is a text placed at X, Y; Full is the untruncated text.
type AxisLabel struct {
	X, Y       float64
	Text, Full string
	Anchor     string
}

// HeatCell is one cell of a heatmap.
type HeatCell struct {
	X, Y, Size     float64
	Fill, TextFill string
	Text           string // printed in the cell
	Title          string // what a screen reader or a hover reads
	TestID         string
}

// Legend is the colour scale of a heatmap: a gradient bar with ticks.
type Legend struct {
	X, Y, Width, Height float64
	Stops               []GradientStop
	Ticks               []AxisLabel
	Caption             AxisLabel
}

// GradientStop is one colour of the legend's gradient.
type GradientStop struct {
	Offset string
	Colour string
}

// HeatPair is the agreement of two annotators as the heatmap draws it.
type HeatPair struct {
	A, B      string
	Value     *float64
	CI        *[2]float64
	N         int
	Undefined string
	// Narrow is whether the interval is too narrow: few of the pair's
	// ratings differ from the value they gave most.
	Narrow bool
}

// narrowMark follows the value of a cell whose interval is too narrow.
const narrowMark = "†"

// NarrowNote is what the page says of a κ or agreement interval that is
// too narrow (the statistic's ci95_caution gives the figures).
const NarrowNote = "interval too narrow: too few disagreements"

const (
	heatCell   = 58.0
	heatLeft   = 130.0
	heatTop    = 78.0
	heatLegend = 70.0
)

// The scale runs from −1 (red) through 0 (light grey) to 1 (blue); the
// colours are ColorBrewer's RdBu ends, readable with the common forms of
// colour blindness.
var heatStops = [3][3]float64{{0xb2, 0x18, 0x2b}, {0xf7, 0xf7, 0xf7}, {0x21, 0x66, 0xac}}

// heatColour is the fill for a value in [−1, 1].
func heatColour(v float64) string {
	v = math.Max(-1, math.Min(1, v))
	from, to, t := heatStops[1], heatStops[2], v
	if v < 0 {
		to, t = heatStops[0], -v
	}
	var c [3]int
	for i := range c {
		c[i] = int(math.Round(from[i] + (to[i]-from[i])*t))
	}
	return fmt.Sprintf("#%02x%02x%02x", c[0], c[1], c[2])
}

// NewHeatmap lays out the pairwise matrix of names; pairs may come in
// either order and pairs not listed are drawn as "no data".
func NewHeatmap(id, title, measure string, names []string, pairs []HeatPair) Heatmap {
	k := float64(len(names))
	h := Heatmap{ID: id, Title: title}
	h.Width = math.Max(heatLeft+k*heatCell+20, heatLeft+260)
	h.Height = heatTop + k*heatCell + heatLegend
	h.Desc = fmt.Sprintf("%s for each pair of %d annotators; the colour runs from −1 (red) through 0 (grey) to 1 (blue) and each cell prints the value.", measure, len(names))
	index := map[string]int{}
	for i, n := range names {
		index[n] = i
		h.Rows = append(h.Rows, AxisLabel{X: heatLeft - 8, Y: heatTop + (float64(i)+0.5)*heatCell + 4, Text: clipText(n, 16), Full: n, Anchor: "end"})
		// Column names slant upwards so that long ones do not collide.
		h.Cols = append(h.Cols, AxisLabel{X: heatLeft + (float64(i)+0.5)*heatCell - 4, Y: heatTop - 8, Text: clipText(n, 12), Full: n, Anchor: "start"})
	}
	cell := make([][]*HeatPair, len(names))
	for i := range cell {
		cell[i] = make([]*HeatPair, len(names))
	}
	for i := range pairs {
		a, okA := index[pairs[i].A]
		b, okB := index[pairs[i].B]
		if okA && okB {
			cell[a][b], cell[b][a] = &pairs[i], &pairs[i]
		}
	}
	for i, a := range names {
		for j, b := range names {
			c := HeatCell{X: heatLeft + float64(j)*heatCell, Y: heatTop + float64(i)*heatCell, Size: heatCell - 2, TestID: id + "-" + a + "-" + b}
			p := cell[i][j]
			switch {
			case i == j:
				c.Fill, c.TextFill, c.Text, c.Title = "#ffffff", "#5b6670", "—", a+" with themself"
			case p == nil:
				c.Fill, c.TextFill, c.Text, c.Title = "#e4e8ec", "#1d2327", "n/a", a+" and "+b+": no units rated by both"
			case p.Value == nil || !finite(*p.Value):
				c.Fill, c.TextFill, c.Text = "#e4e8ec", "#1d2327", "n/a"
				c.Title = fmt.Sprintf("%s and %s: undefined, %s (%d units)", a, b, p.Undefined, p.N)
			default:
				v := *p.Value
				c.Fill, c.TextFill, c.Text = heatColour(v), "#1d2327", fixed(v, 2)
				if math.Abs(v) > 0.55 {
					c.TextFill = "#ffffff"
				}
				c.Title = fmt.Sprintf("%s and %s: %s %s", a, b, measure, fixed(v, 3))
				if p.CI != nil && finite(p.CI[0]) && finite(p.CI[1]) {
					c.Title += " [" + fixed(p.CI[0], 3) + ", " + fixed(p.CI[1], 3) + "]"
				}
				c.Title += fmt.Sprintf(", %d units", p.N)
				if p.Narrow {
					c.Text += narrowMark
					c.Title += "; " + NarrowNote
					h.Note = narrowMark + " interval too narrow: too few ratings differ between the two (see the pairwise CSV)"
				}
			}
			h.Cells = append(h.Cells, c)
		}
	}
	lg := Legend{X: heatLeft, Y: heatTop + k*heatCell + 24, Width: 240, Height: 12}
	lg.Stops = []GradientStop{{"0%", heatColour(-1)}, {"50%", heatColour(0)}, {"100%", heatColour(1)}}
	for _, t := range []float64{-1, -0.5, 0, 0.5, 1} {
		lg.Ticks = append(lg.Ticks, AxisLabel{X: lg.X + (t+1)/2*lg.Width, Y: lg.Y + lg.Height + 14, Text: strconv.FormatFloat(t, 'f', -1, 64), Anchor: "middle"})
	}
	lg.Caption = AxisLabel{X: lg.X, Y: lg.Y - 6, Text: measure + " colour scale", Anchor: "start"}
	h.Legend = lg
	return h
}

// LineChart is a statistic-by-round chart drawn as SVG.
type LineChart struct {
	ID, Title, Desc string
	Width, Height   float64
	// Plot is the drawing area: left, top, right and bottom edges.
	Left, Top, Right, Bottom float64
	XTicks, YTicks           []AxisLabel
	GridY                    []float64 // y of each horizontal grid line
	XLabel, YLabel           AxisLabel
	Series                   []Series
}

// Series is one statistic's line, its points and its legend entry.
type Series struct {
	Label   string
	Colour  string
	Dash    string // stroke-dasharray; "none" for a solid line
	Path    string // SVG path data; breaks where the statistic is undefined
	Points  []ChartPoint
	LegendX float64
	LegendY float64
}

// ChartPoint is one value of a series, with what a hover reads.
type ChartPoint struct {
	X, Y  float64
	Title string
}

// SeriesInput is one statistic across rounds: nil where it is undefined.
type SeriesInput struct {
	Label  string
	Values []*float64
}

// Line colours (Okabe–Ito) and dash patterns, so that lines differ by more
// than colour.
var (
	lineColours = []string{"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9"}
	lineDashes  = []string{"none", "6 3", "2 3", "8 3 2 3", "4 4", "1 2"}
)

// NewLineChart lays out series over rounds (x, in order). The y axis runs
// from 1 down to 0, or lower when a value is negative.
func NewLineChart(id, title string, rounds []string, series []SeriesInput) LineChart {
	ch := LineChart{ID: id, Title: title, Width: 680, Height: 300, Left: 56, Top: 16, Right: 500, Bottom: 244}
	lo := 0.0
	for _, s := range series {
		for _, v := range s.Values {
			if v != nil && finite(*v) && *v < lo {
				lo = *v
			}
		}
	}
	lo = math.Max(-1, math.Floor(lo*5)/5)
	y := func(v float64) float64 { return ch.Bottom - (v-lo)/(1-lo)*(ch.Bottom-ch.Top) }
	x := func(i int) float64 {
		if len(rounds) < 2 {
			return (ch.Left + ch.Right) / 2
		}
		return ch.Left + 24 + float64(i)/float64(len(rounds)-1)*(ch.Right-ch.Left-48)
	}
	for t := lo; t <= 1+1e-9; t += 0.2 {
		t = math.Round(t*10) / 10
		ch.GridY = append(ch.GridY, y(t))
		ch.YTicks = append(ch.YTicks, AxisLabel{X: ch.Left - 6, Y: y(t) + 4, Text: fixed(t, 1), Anchor: "end"})
	}
	for i, r := range rounds {
		ch.XTicks = append(ch.XTicks, AxisLabel{X: x(i), Y: ch.Bottom + 18, Text: clipText(r, 14), Full: r, Anchor: "middle"})
	}
	ch.XLabel = AxisLabel{X: (ch.Left + ch.Right) / 2, Y: ch.Height - 12, Text: "Calibration round", Anchor: "middle"}
	ch.YLabel = AxisLabel{X: 14, Y: (ch.Top + ch.Bottom) / 2, Text: "Value", Anchor: "middle"}
	var desc []string
	for si, s := range series {
		sr := Series{Label: s.Label, Colour: lineColours[si%len(lineColours)], Dash: lineDashes[si%len(lineDashes)],
			LegendX: ch.Right + 20, LegendY: ch.Top + 8 + float64(si)*22}
		pen := "M"
		for i, v := range s.Values {
			if i >= len(rounds) {
				break
			}
			if v == nil || !finite(*v) {
				pen = "M"
				continue
			}
			px, py := x(i), y(math.Max(lo, math.Min(1, *v)))
			sr.Path += pen + fixed(px, 1) + " " + fixed(py, 1) + " "
			pen = "L"
			sr.Points = append(sr.Points, ChartPoint{X: px, Y: py, Title: s.Label + ", round " + rounds[i] + ": " + fixed(*v, 3)})
		}
		desc = append(desc, fmt.Sprintf("%s at %d of %d rounds", s.Label, len(sr.Points), len(rounds)))
		ch.Series = append(ch.Series, sr)
	}
	ch.Desc = fmt.Sprintf("Line chart over %d calibration rounds: %s. The table below gives the same figures.", len(rounds), strings.Join(desc, "; "))
	return ch
}

// finite reports whether x is a number that can be drawn.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// fixed formats x with d decimals; a NaN or infinity (which the report never
// holds) prints as a dash rather than "NaN".
func fixed(x float64, d int) string {
	if !finite(x) {
		return "—"
	}
	if x == 0 || math.Abs(x) < 0.5*math.Pow10(-d) {
		x = 0 // no "-0.00"
	}
	return strconv.FormatFloat(x, 'f', d, 64)
}

// px writes a coordinate for an SVG attribute.
func px(x float64) string { return fixed(x, 1) }

// clipText shortens s to n characters with an ellipsis.
func clipText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
