package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"annotate/internal/iaa"
)

// TestFleissSaysUnitsUsed checks that Fleiss' κ, computed on the units
// with the most common number of ratings, says which: of 5 units rated by
// three coders, 3 rated by two and 2 rated by one, it uses the 5 with 3
// ratings and leaves out the 3 other pairable units, and the JSON, the
// text output and the dimensions CSV say so.
func TestFleissSaysUnitsUsed(t *testing.T) {
	b := iaa.NewCodedBuilder(3)
	rows := [][]float64{{0, 0, 0}, {0, 0, 1}, {1, 1, 1}, {1, 1, 0}, {0, 0, 0}, {0, 1}, {1, 1}, {0, 0}, {1}, {0}}
	for u, vs := range rows {
		for c, v := range vs {
			b.Add(u, c, v)
		}
	}
	rt := ratings{spec: &spec{name: "d", level: LevelSentence, scale: scaleNominal, positive: -1}, c: b.Build(len(rows))}
	s, _ := statistics(rt, bootstrap{})
	f := s.FleissKappa
	if f.Value == nil || *f.NUnits != 5 || *f.PerUnit != 3 || f.LeftOut == nil || *f.LeftOut != 3 {
		t.Fatalf("fleiss = %+v, want 5 units with 3 ratings and 3 left out", f)
	}
	rep := &Report{Project: "p", Dimensions: []Dimension{{Name: "d", Level: LevelSentence, Scale: "nominal", Units: 10, Pairable: 8, Ratings: 23, Statistics: s}}}
	js, _ := json.Marshal(rep)
	if !bytes.Contains(js, []byte(`"n_units":5,"ratings_per_unit":3,"n_units_left_out":3`)) {
		t.Errorf("JSON: %s", js)
	}
	var text bytes.Buffer
	if err := rep.Write(&text, "text"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "(5 units with 3 ratings; 3 left out)") {
		t.Errorf("text:\n%s", text.String())
	}
	var out bytes.Buffer
	if err := rep.WriteCSV(&out, "dimensions"); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	cell := map[string]string{}
	for i, h := range recs[0] {
		cell[h] = recs[1][i]
	}
	if cell["fleiss_kappa_n_units"] != "5" || cell["fleiss_kappa_ratings_per_unit"] != "3" || cell["fleiss_kappa_n_units_left_out"] != "3" {
		t.Errorf("CSV: %v", cell)
	}
}
