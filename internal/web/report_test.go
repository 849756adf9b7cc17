package web_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"errors"
	"html"
	"io"
	"math"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"annotate/internal/agreement"
	"annotate/internal/domain"
	"annotate/internal/report"
)

// section returns the HTML from the element with the test id to the end
// of its table row (or of the element named by end).
func section(t *testing.T, body, testID, end string) string {
	t.Helper()
	i := strings.Index(body, `data-testid="`+testID+`"`)
	if i < 0 {
		t.Fatalf("no element %q on the page", testID)
	}
	j := strings.Index(body[i:], end)
	if j < 0 {
		t.Fatalf("element %q does not end with %s", testID, end)
	}
	return body[i : i+j]
}

var (
	valueRe     = regexp.MustCompile(`data-testid="value">([^<]*)<`)
	ciRe        = regexp.MustCompile(`data-testid="ci">([^<]*)<`)
	undefinedRe = regexp.MustCompile(`data-testid="undefined">undefined: ([^<]*)<`)
)

// cell reads a statistic cell of a row: its value and interval, or the
// reason it is undefined.
func cell(t *testing.T, row, name string) (value, ci, undefined string) {
	t.Helper()
	c := section(t, row, "stat-"+name, "</td>")
	if m := valueRe.FindStringSubmatch(c); m != nil {
		value = m[1]
	}
	if m := ciRe.FindStringSubmatch(c); m != nil {
		ci = m[1]
	}
	if m := undefinedRe.FindStringSubmatch(c); m != nil {
		undefined = html.UnescapeString(strings.TrimSpace(m[1]))
	}
	return value, ci, undefined
}

var noteRe = regexp.MustCompile(`data-testid="note">([^<]*)<`)

// cellNote is cell with the cell's note.
func cellNote(t *testing.T, row, name string) (value, ci, undefined, note string) {
	t.Helper()
	value, ci, undefined = cell(t, row, name)
	if m := noteRe.FindStringSubmatch(section(t, row, "stat-"+name, "</td>")); m != nil {
		note = html.UnescapeString(m[1])
	}
	return value, ci, undefined, note
}

func d3(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }

// checkStat compares a statistic cell with the report's statistic.
func checkStat(t *testing.T, where, row, name string, st *agreement.Statistic) {
	t.Helper()
	v, ci, u := cell(t, row, name)
	if st.Value == nil {
		if v != "" || u != st.Undefined || u == "" {
			t.Errorf("%s %s: page shows %q / undefined %q, want undefined %q", where, name, v, u, st.Undefined)
		}
		return
	}
	if v != d3(*st.Value) {
		t.Errorf("%s %s = %q, want %s", where, name, v, d3(*st.Value))
	}
	if st.CI95 != nil {
		if want := "[" + d3(st.CI95[0]) + ", " + d3(st.CI95[1]) + "]"; ci != want {
			t.Errorf("%s %s interval = %q, want %q", where, name, ci, want)
		}
	}
}

// badNumber matches how Go prints NaN and the infinities (not words such
// as "Information").
var badNumber = regexp.MustCompile(`(?i)\bNaN\b|\bInf(inity)?\b`)

// noBadNumbers fails when output holds NaN or an infinity.
func noBadNumbers(t *testing.T, what, body string) {
	t.Helper()
	if m := badNumber.FindString(body); m != "" {
		t.Errorf("%s contains %q", what, m)
	}
}

func TestReportPageShowsTheReportNumbers(t *testing.T) {
	r := newReportFixture(t)
	b := r.lead(t)
	for _, round := range []string{"c1", ""} {
		t.Run("round "+round, func(t *testing.T) {
			rep := r.build(t, round, "")
			p := b.get("/p/rep/report?round=" + round)
			if p.status != http.StatusOK {
				t.Fatalf("status %d: %s", p.status, p.body)
			}
			noBadNumbers(t, "the page", p.body)
			cautions := 0
			if strings.Contains(p.body, "secret-model-name") {
				t.Error("the page shows a model name")
			}
			for i := range rep.Dimensions {
				d := &rep.Dimensions[i]
				row := section(t, p.body, "dim-"+d.Key(), "</tr>")
				if got := section(t, row, "units", "<"); !strings.HasSuffix(got, ">"+strconv.Itoa(d.Units)) {
					t.Errorf("%s units: %q, want %d", d.Key(), got, d.Units)
				}
				if got := section(t, row, "ratings", "<"); !strings.HasSuffix(got, ">"+strconv.Itoa(d.Ratings)) {
					t.Errorf("%s ratings: %q, want %d", d.Key(), got, d.Ratings)
				}
				for _, ns := range report.Named(&d.Statistics) {
					checkStat(t, d.Key(), row, ns.Name, ns.Stat)
				}
				caution := strings.Contains(p.body, `data-testid="caution-`+d.Key()+`"`)
				if caution != (d.IntervalCaution != "") {
					t.Errorf("%s: the page shows an interval caution: %v; the report has %q", d.Key(), caution, d.IntervalCaution)
				}
				if caution {
					if got := html.UnescapeString(section(t, p.body, "caution-"+d.Key(), "</li>")); !strings.Contains(got, d.IntervalCaution) {
						t.Errorf("%s caution: %q, want %q", d.Key(), got, d.IntervalCaution)
					}
					cautions++
				}
			}
			if cautions == 0 {
				t.Error("no dimension of the fixture has a caution: the check above tells nothing")
			}
			trendCautions := 0
			for _, tr := range rep.Trend {
				for _, pt := range tr.Dimensions {
					if pt.Dimension != "faithfulness" || pt.IntervalCaution == "" || tr.Kind != domain.RoundCalibration {
						continue
					}
					list := html.UnescapeString(section(t, p.body, "trend-cautions-trend-faithfulness-"+pt.Level, "</ul>"))
					if !strings.Contains(list, tr.Round+"</strong>: "+pt.IntervalCaution) {
						t.Errorf("trend %s %s: the page's cautions %q lack %q", tr.Round, pt.Level, list, pt.IntervalCaution)
					}
					trendCautions++
				}
			}
			if trendCautions == 0 {
				t.Error("no calibration round of the fixture has a caution on faithfulness: the check above tells nothing")
			}
			for _, a := range rep.PerAnnotator {
				for _, d := range a.Dimensions {
					if d.Dimension != "faithfulness" {
						continue
					}
					row := section(t, p.body, "annotator-"+a.Name+"-faithfulness@"+d.Level, "</tr>")
					where := a.Name + " " + d.Level
					checkStat(t, where, row, "agreement_with_rest", &d.Agreement)
					if _, _, _, note := cellNote(t, row, "agreement_with_rest"); strings.Contains(note, "interval too narrow") != (d.Agreement.CI95Caution != "") {
						t.Errorf("%s agreement_with_rest: note %q, caution %q", where, note, d.Agreement.CI95Caution)
					}
					checkStat(t, where, row, "kappa_vs_majority", &d.KappaMajority)
					if _, _, _, note := cellNote(t, row, "kappa_vs_majority"); strings.Contains(note, "interval too narrow") != (d.KappaMajority.CI95Caution != "") {
						t.Errorf("%s kappa_vs_majority: note %q, caution %q", where, note, d.KappaMajority.CI95Caution)
					}
					checkStat(t, where, row, "alpha_without", &d.AlphaWithout)
					group := dimOf(t, rep, "faithfulness@"+d.Level).Statistics.KrippendorffAlpha.Value
					lowers := d.AlphaWithout.Value != nil && group != nil && math.Round(*d.AlphaWithout.Value*1000) > math.Round(*group*1000)
					if strings.Contains(row, "agrees more without them") != lowers {
						t.Errorf("%s: the page says the group agrees more without them: %v, want %v", where, !lowers, lowers)
					}
					if round == "c1" && a.Name == "ann_c" && d.Level == "sentence" && !lowers {
						t.Error("ann_c lowers α in round c1 (0.686 without, 0.363 with)")
					}
					if d.Gold == nil {
						t.Fatalf("%s: no gold comparison", where)
					}
					acc := d.Gold.Accuracy
					checkStat(t, where, row, "gold_accuracy", &agreement.Statistic{Value: acc.Value, CI95: acc.CI95, Undefined: acc.Undefined})
					checkStat(t, where, row, "gold_kappa", &d.Gold.Kappa)
				}
			}
			faith := rep.Dimensions[0]
			if faith.Key() != "faithfulness@sentence" {
				t.Fatalf("first dimension %s", faith.Key())
			}
			marked := 0
			for _, pr := range faith.Pairwise {
				c := section(t, p.body, "heatmap-faithfulness-sentence-"+pr.Coders[0]+"-"+pr.Coders[1], "</g>")
				want := "n/a"
				if pr.CohenKappa != nil {
					want = strconv.FormatFloat(*pr.CohenKappa, 'f', 2, 64)
				}
				if pr.CI95Caution != "" {
					want += "†" // the mark of an interval too narrow
					marked++
				}
				if !strings.Contains(c, ">"+want+"</text>") {
					t.Errorf("heatmap %v prints %q, want %s", pr.Coders, c, want)
				}
			}
			if note := strings.Contains(p.body, `data-testid="heatmap-note"`); note != (marked > 0) {
				t.Errorf("%d heatmap cells marked; the caption explains the mark: %v", marked, note)
			}
			if round == "c1" && !strings.Contains(p.body, strconv.Itoa(rep.DisagreementsTotal)+" sentences with a split") {
				t.Errorf("the page does not count %d disagreements", rep.DisagreementsTotal)
			}
		})
	}
}

func dimOf(t *testing.T, rep *report.Report, key string) *report.Dimension {
	t.Helper()
	for i := range rep.Dimensions {
		if rep.Dimensions[i].Key() == key {
			return &rep.Dimensions[i]
		}
	}
	t.Fatalf("no dimension %s", key)
	return nil
}

func TestReportDisagreementsLinkToAdjudication(t *testing.T) {
	r := newReportFixture(t)
	b := r.lead(t)
	rep := r.build(t, "c1", "")
	p := b.get("/p/rep/report?round=c1")
	list := section(t, p.body, "disagreements", "</table>")
	links := regexp.MustCompile(`href="(/p/rep/adjudication/s/\d+#s-\d+)"`).FindAllStringSubmatch(list, -1)
	if len(links) != len(rep.Disagreements) || len(links) == 0 {
		t.Fatalf("%d links for %d disagreements", len(links), len(rep.Disagreements))
	}
	for i, d := range rep.Disagreements {
		if want := "/p/rep/adjudication/s/" + strconv.FormatInt(d.SummaryID, 10) + "#s-" + strconv.FormatInt(d.SentenceID, 10); links[i][1] != want {
			t.Errorf("link %d = %s, want %s (worst first)", i, links[i][1], want)
		}
	}
	if !strings.Contains(list, "sum&lt;1&gt;") || strings.Contains(list, "sum<1>") {
		t.Error("the summary id is not escaped")
	}
	// The lead can adjudicate what the link points to.
	if q := b.get(strings.Split(links[0][1], "#")[0]); q.status != http.StatusOK {
		t.Errorf("the linked adjudication page: status %d", q.status)
	}
}

var svgRe = regexp.MustCompile(`(?s)<svg\b.*?</svg>`)

func TestReportFiguresAreWellFormedSVG(t *testing.T) {
	r := newReportFixture(t)
	b := r.lead(t)
	p := b.get("/p/rep/report")
	svgs := svgRe.FindAllString(p.body, -1)
	// Faithfulness heatmaps and trend charts at sentence and summary level.
	if len(svgs) != 4 {
		t.Fatalf("%d SVG figures, want 4", len(svgs))
	}
	for i, s := range svgs {
		ids, titles, cells, points := map[string]bool{}, 0, 0, 0
		dec := xml.NewDecoder(strings.NewReader(s))
		var root *xml.StartElement
		for {
			tok, err := dec.Token()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("figure %d is not well-formed XML: %v\n%s", i, err, s)
			}
			if se, ok := tok.(xml.StartElement); ok {
				if root == nil {
					root = &se
				}
				for _, a := range se.Attr {
					if a.Name.Local == "id" {
						ids[a.Value] = true
					}
				}
				switch se.Name.Local {
				case "title":
					titles++
				case "rect":
					cells++
				case "circle":
					points++
				}
			}
		}
		attr := map[string]string{}
		for _, a := range root.Attr {
			attr[a.Name.Local] = a.Value
		}
		if attr["role"] != "img" {
			t.Errorf("figure %d has role %q", i, attr["role"])
		}
		for _, id := range strings.Fields(attr["aria-labelledby"]) {
			if !ids[id] {
				t.Errorf("figure %d is labelled by %q, which it lacks", i, id)
			}
		}
		if strings.HasPrefix(attr["data-testid"], "heatmap-") {
			// 3×3 cells and the legend bar; a title per cell, per axis label and the figure's.
			if cells != 10 || titles != 1+9+6 {
				t.Errorf("heatmap %d: %d rects, %d titles", i, cells, titles)
			}
			if !strings.Contains(s, "colour scale") {
				t.Errorf("heatmap %d has no legend", i)
			}
		} else {
			if points == 0 || titles < 1+points || !strings.Contains(s, ">Calibration round</text>") || !strings.Contains(s, ">c2</text>") {
				t.Errorf("chart %d: %d points, %d titles, or no axis labels", i, points, titles)
			}
		}
		noBadNumbers(t, "figure", s)
	}
	// The trend chart draws one point per defined statistic and round.
	rep := r.build(t, "", "faithfulness@sentence")
	want := 0
	for _, tr := range rep.Trend {
		for _, ns := range report.Named(&tr.Dimensions[0].Statistics) {
			if ns.Stat.Value != nil {
				want++
			}
		}
	}
	chart := svgRe.FindString(p.body[strings.Index(p.body, `data-testid="trend-faithfulness-sentence"`)-300:])
	if got := strings.Count(chart, "<circle"); got != want {
		t.Errorf("trend chart has %d points, want %d", got, want)
	}
}

func TestReportDownloads(t *testing.T) {
	r := newReportFixture(t)
	b := r.lead(t)
	rep := r.build(t, "c1", "")
	for _, table := range report.Tables {
		t.Run(table, func(t *testing.T) {
			p := b.get("/p/rep/report.csv?round=c1&table=" + table)
			if p.status != http.StatusOK || !strings.HasPrefix(p.header.Get("Content-Type"), "text/csv") {
				t.Fatalf("status %d, type %s", p.status, p.header.Get("Content-Type"))
			}
			if !strings.Contains(p.header.Get("Content-Disposition"), "rep-agreement-"+table+".csv") {
				t.Errorf("disposition %q", p.header.Get("Content-Disposition"))
			}
			rows, err := csv.NewReader(strings.NewReader(p.body)).ReadAll()
			if err != nil {
				t.Fatalf("CSV does not parse: %v", err)
			}
			var want bytes.Buffer
			if err := rep.WriteCSV(&want, table); err != nil {
				t.Fatal(err)
			}
			wantRows := must(csv.NewReader(&want).ReadAll())(t)
			if len(rows) < 2 || len(rows) != len(wantRows) {
				t.Fatalf("%d rows, want %d (header and data)", len(rows), len(wantRows))
			}
			for i := range rows {
				if strings.Join(rows[i], "\x1f") != strings.Join(wantRows[i], "\x1f") {
					t.Errorf("row %d = %v, want %v", i, rows[i], wantRows[i])
				}
			}
			noBadNumbers(t, "CSV", p.body)
		})
	}
	t.Run("json", func(t *testing.T) {
		p := b.get("/p/rep/report.json?round=c1")
		if p.status != http.StatusOK || !strings.HasPrefix(p.header.Get("Content-Type"), "application/json") {
			t.Fatalf("status %d, type %s", p.status, p.header.Get("Content-Type"))
		}
		var got report.Report
		if err := json.Unmarshal([]byte(p.body), &got); err != nil {
			t.Fatalf("JSON does not decode: %v", err)
		}
		var want bytes.Buffer
		if err := rep.Write(&want, "json"); err != nil {
			t.Fatal(err)
		}
		if p.body != want.String() {
			t.Error("the JSON download differs from the report package's JSON")
		}
		if got.Round != "c1" || len(got.Dimensions) != len(rep.Dimensions) || got.DisagreementsTotal != rep.DisagreementsTotal {
			t.Errorf("decoded report: round %q, %d dimensions, %d disagreements", got.Round, len(got.Dimensions), got.DisagreementsTotal)
		}
		noBadNumbers(t, "JSON", p.body)
	})
}

func TestReportFilters(t *testing.T) {
	r := newReportFixture(t)
	b := r.lead(t)
	t.Run("one dimension", func(t *testing.T) {
		p := b.get("/p/rep/report?dimension=relevance")
		if p.status != http.StatusOK {
			t.Fatalf("status %d", p.status)
		}
		var rows []string
		p.mustFind(t, `table[data-testid^="dimensions-"] tbody tr`).Each(func(_ int, r *goquery.Selection) {
			rows = append(rows, r.AttrOr("data-testid", ""))
		})
		if !slices.Equal(rows, []string{"dim-relevance@summary"}) {
			t.Errorf("the dimension filter does not keep relevance alone: %q", rows)
		}
		menu := p.mustFind(t, `select[name="dimension"]`)
		if menu.Find(`option[value="faithfulness"]`).Length() != 1 || menu.Find(`option[value="relevance"][selected]`).Length() != 1 {
			t.Error("the dimension menu lost the other dimensions or the choice")
		}
		if !strings.Contains(p.body, "Annotators: Relevance") || !p.testID("heatmap-relevance-summary") {
			t.Error("the annotator section does not follow the chosen dimension")
		}
		if !p.has(t, tid("downloads")+` a[href="/p/rep/report.csv?dimension=relevance&table=dimensions"]`) {
			t.Error("downloads do not keep the filter")
		}
	})
	cases := []struct {
		path, field string
		status      int
	}{
		{"/p/rep/report?dimension=colour", "dimension", http.StatusUnprocessableEntity},
		{"/p/rep/report.json?dimension=colour", "dimension", http.StatusUnprocessableEntity},
		{"/p/rep/report?round=nope", "round", http.StatusNotFound},
		{"/p/rep/report.csv?round=nope&table=trend", "round", http.StatusNotFound},
		{"/p/rep/report.csv", "table", http.StatusUnprocessableEntity},
		{"/p/rep/report.csv?table=everything", "table", http.StatusUnprocessableEntity},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			p := b.get(tc.path)
			if p.status != tc.status || !strings.Contains(p.body, tc.field) {
				t.Errorf("status %d, want %d with a message naming %q:\n%s", p.status, tc.status, tc.field, p.body)
			}
		})
	}
}

func TestReportAnonymisedAnnotators(t *testing.T) {
	r := newReportFixture(t)
	set := r.project.Settings
	set.AnonymousAdjudication = true
	if err := r.store.UpdateSettings(r.ctx, r.project.ID, set, ""); err != nil {
		t.Fatal(err)
	}
	b := r.lead(t)
	// The report uses the project's pseudonyms, the numbers every page uses.
	aliases, err := r.store.Pseudonyms(r.ctx, r.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/p/rep/report?round=c1", "/p/rep/report.json?round=c1", "/p/rep/report.csv?round=c1&table=disagreements", "/p/rep/report.csv?table=pairwise"} {
		p := b.get(path)
		if p.status != http.StatusOK {
			t.Fatalf("%s: status %d", path, p.status)
		}
		for _, name := range []string{"ann_a", "ann_b", "ann_c"} {
			if strings.Contains(p.body, name) {
				t.Errorf("%s names %s", path, name)
			}
		}
		if !strings.Contains(p.body, aliases.Username("ann_c")) {
			t.Errorf("%s does not number the annotators", path)
		}
	}
	p := b.get("/p/rep/report?round=c1")
	if !p.testID("heatmap-faithfulness-sentence-" + aliases.Username("ann_a") + "-" + aliases.Username("ann_b")) {
		t.Error("the heatmap does not use the numbers")
	}
}

func TestReportOfAProjectWithoutLabels(t *testing.T) {
	f := newFixture(t)
	lead := f.user("lea", false)
	f.project("empty", map[*domain.User]string{lead: domain.RoleLead})
	b := f.browser()
	b.login("lea", testPassword)
	p := b.get("/p/empty/report")
	if p.status != http.StatusOK {
		t.Fatalf("status %d", p.status)
	}
	noBadNumbers(t, "the page", p.body)
	// No annotator: one notice instead of tables of undefined statistics.
	p.mustFind(t, tid("report-too-few"))
	p.mustFind(t, tid("assistant-note"))
	p.noneIn(t, "#main", `[data-testid^="dimensions-"], [data-testid^="dim-"]`)
	if strings.Count(p.body, "undefined:") > 0 {
		t.Errorf("the page lists %d undefined statistics", strings.Count(p.body, "undefined:"))
	}
	for _, tb := range report.Tables {
		if q := b.get("/p/empty/report.csv?table=" + tb); q.status != http.StatusOK {
			t.Errorf("%s: status %d", tb, q.status)
		}
	}
}

func TestProjectPageLinksTheReportForLeads(t *testing.T) {
	r := newReportFixture(t)
	r.lead(t).get("/p/rep").mustFind(t, "#main a"+tid("report-link")+`[href="/p/rep/report"]`)
	ann := r.browser()
	ann.login("ann_a", testPassword)
	p := ann.get("/p/rep")
	if p.status != http.StatusOK {
		t.Fatalf("annotator's project page: %d", p.status)
	}
	p.noneIn(t, "#main", tid("report-link")+`, a[href^="/p/rep/report"]`)
	for _, path := range []string{"/p/rep/report", "/p/rep/report.json", "/p/rep/report.csv?table=pairwise"} {
		if p := ann.get(path); p.status != http.StatusForbidden || strings.Contains(p.body, "ann_b") {
			t.Errorf("annotator on %s: status %d", path, p.status)
		}
	}
}

func TestReportCachedWithETag(t *testing.T) {
	r := newReportFixture(t)
	b := r.lead(t)
	first := b.get("/p/rep/report.json?round=c1")
	etag := first.header.Get("ETag")
	if first.status != http.StatusOK || etag == "" {
		t.Fatalf("status %d, ETag %q", first.status, etag)
	}
	again := b.getWith("/p/rep/report.json?round=c1", map[string]string{"If-None-Match": etag})
	if again.status != http.StatusNotModified || again.body != "" {
		t.Errorf("same report again: status %d with %d bytes, want 304 and nothing", again.status, len(again.body))
	}
	csv := b.getWith("/p/rep/report.csv?round=c1&table=dimensions", map[string]string{"If-None-Match": etag})
	if csv.status != http.StatusNotModified {
		t.Errorf("CSV of the same report: status %d, want 304", csv.status)
	}
	other := b.getWith("/p/rep/report.json?round=c2", map[string]string{"If-None-Match": etag})
	if other.status != http.StatusOK || other.header.Get("ETag") == etag {
		t.Errorf("another round: status %d, ETag %q", other.status, other.header.Get("ETag"))
	}
	page := b.get("/p/rep/report?round=c1")
	computed := section(t, page.body, "report-computed", "</p>")
	// A gold decision changes what the report reads: a new tag, a new
	// computation.
	d, err := r.store.ReportData(r.ctx, r.project.ID, domain.ReportFilter{})
	if err != nil {
		t.Fatal(err)
	}
	lea, err := r.store.UserByName(r.ctx, "lea")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.store.SetGold(r.ctx, r.project.ID, d.Sentences[0].ID, lea.ID, -1, domain.GoldDecision{GoldValues: domain.GoldValues{Label: domain.LabelFaithful}}); err != nil {
		t.Fatal(err)
	}
	changed := b.getWith("/p/rep/report.json?round=c1", map[string]string{"If-None-Match": etag})
	if changed.status != http.StatusOK || changed.header.Get("ETag") == etag {
		t.Errorf("after a gold change: status %d, ETag %q (was %q)", changed.status, changed.header.Get("ETag"), etag)
	}
	if !strings.Contains(page.body, "Computed") || computed == "" {
		t.Error("the page does not say when the report was computed")
	}
}

func TestReportDraftsSwitch(t *testing.T) {
	r := newReportFixture(t)
	b := r.lead(t)
	p := b.get("/p/rep/report?round=c1")
	if !strings.Contains(section(t, p.body, "report-scope", "</p>"), "Only submitted work counts") {
		t.Error("the page does not say that only submitted work counts")
	}
	q := b.get("/p/rep/report?round=c1&drafts=1")
	if q.status != http.StatusOK || !strings.Contains(section(t, q.body, "report-scope", "</p>"), "drafts count") {
		t.Errorf("with drafts: status %d, scope does not say drafts count", q.status)
	}
	if bad := b.get("/p/rep/report?bootstrap=jackknife"); bad.status != http.StatusUnprocessableEntity {
		t.Errorf("unknown bootstrap method: status %d, want 422", bad.status)
	}
	pairs := b.get("/p/rep/report.json?round=c1&bootstrap=pairs")
	if !strings.Contains(pairs.body, `"bootstrap_method": "pairs"`) {
		t.Error("the JSON does not say the pairs bootstrap was used")
	}
	units := b.get("/p/rep/report.json?round=c1")
	if !strings.Contains(units.body, `"bootstrap_method": "units"`) {
		t.Error("the JSON does not say the units bootstrap was used")
	}
}

// getWith gets a path with extra request headers.
func (b *browser) getWith(path string, header map[string]string) page {
	req, _ := http.NewRequest(http.MethodGet, b.f.srv.URL+path, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	return b.do(req)
}
