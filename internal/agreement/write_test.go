package agreement_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"annotate/internal/agreement"
)

func TestWriteJSONShape(t *testing.T) {
	rep := compute(t, krippendorff2011CSV()+"D,unit13,\n", agreement.Options{Bootstrap: 200, Seed: 1})
	var buf bytes.Buffer
	if err := rep.Write(&buf, "json"); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "NaN") {
		t.Fatal("JSON contains NaN")
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, buf.String())
	}
	keys := func(m any) []string {
		return slices.Sorted(maps.Keys(m.(map[string]any)))
	}
	wantTop := []string{"coders", "level", "pairwise", "ratings", "statistics", "units", "weights"}
	if got := keys(doc); !slices.Equal(got, wantTop) {
		t.Errorf("top-level keys = %q, want %q", got, wantTop)
	}
	if doc["units"] != 13.0 || doc["coders"] != 4.0 || doc["ratings"] != 41.0 || doc["level"] != "nominal" {
		t.Errorf("header = %v %v %v %v", doc["units"], doc["coders"], doc["ratings"], doc["level"])
	}
	stats := doc["statistics"].(map[string]any)
	wantStats := map[string][]string{
		"krippendorff_alpha": {"bootstrap", "bootstrap_interval", "bootstrap_method", "bootstrap_undefined", "ci95", "min_alpha", "p_below_min", "value"},
		"fleiss_kappa":       {"ci95", "n_units", "ratings_per_unit", "se", "value"},
		"cohen_kappa_mean":   {"n_pairs", "value"},
		"percent_agreement":  {"ci95", "n_units", "se", "value"},
		"scott_pi":           {"ci95", "n_units", "se", "value"},
		"gwet_ac1":           {"ci95", "n_units", "se", "value"},
	}
	if got := keys(stats); !slices.Equal(got, slices.Sorted(maps.Keys(wantStats))) {
		t.Errorf("statistics = %q", got)
	}
	for name, want := range wantStats {
		if got := keys(stats[name]); !slices.Equal(got, want) {
			t.Errorf("%s keys = %q, want %q", name, got, want)
		}
		if ci, ok := stats[name].(map[string]any)["ci95"]; ok && len(ci.([]any)) != 2 {
			t.Errorf("%s ci95 = %v", name, ci)
		}
	}
	pairs := doc["pairwise"].([]any)
	if len(pairs) != 6 {
		t.Fatalf("%d pairs, want 6", len(pairs))
	}
	if got, want := keys(pairs[0]), []string{"ci95", "coders", "cohen_kappa", "n", "se"}; !slices.Equal(got, want) {
		t.Errorf("pair keys = %q, want %q", got, want)
	}
	if c := pairs[0].(map[string]any)["coders"].([]any); c[0] != "A" || c[1] != "B" {
		t.Errorf("first pair coders = %v", c)
	}
}

func TestWriteJSONUndefined(t *testing.T) {
	rep := compute(t, "unit,coder,value\ns1,a,x\ns1,b,x\n", agreement.Options{})
	var buf bytes.Buffer
	if err := rep.Write(&buf, "json"); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Statistics map[string]map[string]any `json:"statistics"`
		Pairwise   []map[string]any          `json:"pairwise"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	alpha := doc.Statistics["krippendorff_alpha"]
	if _, has := alpha["value"]; has || alpha["undefined"] == "" || len(alpha) != 1 {
		t.Errorf("krippendorff_alpha = %v, want only an undefined reason", alpha)
	}
	if p := doc.Pairwise[0]; p["undefined"] == nil || p["cohen_kappa"] != nil {
		t.Errorf("pair = %v", p)
	}
}

func TestWriteCSV(t *testing.T) {
	rep := compute(t, krippendorff2011CSV(), agreement.Options{})
	var buf bytes.Buffer
	if err := rep.Write(&buf, "csv"); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := recs[0], []string{"statistic", "value", "ci_low", "ci_high", "undefined", "ci_caution"}; !slices.Equal(got, want) {
		t.Errorf("header = %q", got)
	}
	var names []string
	for _, r := range recs[1:] {
		names = append(names, r[0])
	}
	want := []string{"krippendorff_alpha", "fleiss_kappa", "cohen_kappa_mean", "percent_agreement", "scott_pi", "gwet_ac1"}
	if !slices.Equal(names, want) {
		t.Errorf("rows = %q, want %q", names, want)
	}
	if alpha := recs[1]; !strings.HasPrefix(alpha[1], "0.743") || alpha[2] != "" || alpha[4] != "" {
		t.Errorf("alpha row = %q (no bootstrap, so no interval)", alpha)
	}
	if gwet := recs[6]; gwet[2] == "" || gwet[3] == "" {
		t.Errorf("gwet row = %q, want an interval", gwet)
	}
}

func TestWriteText(t *testing.T) {
	rep := compute(t, krippendorff2011CSV(), agreement.Options{Bootstrap: 100})
	var buf bytes.Buffer
	if err := rep.Write(&buf, "text"); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"units    12", "level    nominal", "krippendorff_alpha  0.7434",
		"bootstrap 100 over units, BCa interval; P(alpha < 0.667)", "8 units with 4 ratings", "6 pairs", "A      B      9",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q:\n%s", want, out)
		}
	}
}

func TestWriteUnknownFormat(t *testing.T) {
	rep := compute(t, krippendorff2011CSV(), agreement.Options{})
	if err := rep.Write(&bytes.Buffer{}, "yaml"); err == nil {
		t.Error("yaml accepted")
	}
}

// TestWriteTextGivesTheSpan: the text output names the scale's span the
// weights are taken over, as the JSON does, and only when there is one.
func TestWriteTextGivesTheSpan(t *testing.T) {
	csv := "unit,coder,value\nu1,a,1\nu1,b,2\nu2,a,3\nu2,b,3\nu3,a,1\nu3,b,1\n"
	for _, span := range []float64{0, 4} {
		rep := compute(t, csv, agreement.Options{Level: "ordinal", Weights: "quadratic", Span: span})
		var buf bytes.Buffer
		if err := rep.Write(&buf, "text"); err != nil {
			t.Fatal(err)
		}
		has := strings.Contains(buf.String(), "\nspan     4\n")
		if has != (span > 0) {
			t.Errorf("span %v: text output\n%s", span, buf.String())
		}
	}
}
