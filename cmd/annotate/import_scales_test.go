package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"annotate/internal/iaa"
)

// TestImportScales defines a 1–5 summary scale and a sentence-level
// category scale in an import file, imports three raters' values, and
// checks that the report (ordinal and interval α for the scale, nominal
// for the categories) and --table ratings give the α computed straight
// from the values written in the file; scores out of range or for an
// undefined scale are errors naming the line and field.
func TestImportScales(t *testing.T) {
	var b, docs strings.Builder // with labels, and the documents alone
	b.WriteString(`{"scales":[{"name":"consistency","title":"Consistency","level":"summary","min":1,"max":5,"anchors":{"1":"contradicts","5":"fully supported"}},` +
		`{"name":"support","level":"sentence","categories":["direct","inferred","absent"]}]}` + "\n")
	raters := []string{"r1", "r2", "r3"}
	cats := []string{"direct", "inferred", "absent"}
	cons := iaa.NewRatings(12, 3)
	supp := iaa.NewRatings(12, 3)
	for i := range 12 {
		var labels, sentLabels []string
		for j, r := range raters {
			v := 1 + (i*7+j*(i%3))%5 // disagreement that depends on the summary
			cons.Set(i, j, float64(v))
			labels = append(labels, fmt.Sprintf(`{"annotator":%q,"scores":{"consistency":%d}}`, r, v))
			c := (i + j*(i%2)) % 3
			supp.Set(i, j, float64(c))
			sentLabels = append(sentLabels, fmt.Sprintf(`{"annotator":%q,"label":"faithful","scores":{"support":%q}}`, r, cats[c]))
		}
		fmt.Fprintf(&b, `{"id":"d%d","text":"Doc %d says something.","summaries":[{"id":"s%d","sentences":[{"text":"Summary %d.","labels":[%s]}],"labels":[%s]}]}`+"\n",
			i, i, i, i, strings.Join(sentLabels, ","), strings.Join(labels, ","))
		fmt.Fprintf(&docs, `{"id":"d%d","text":"Doc %d says something.","summaries":[{"id":"s%d","sentences":[{"text":"Summary %d."}]}]}`+"\n", i, i, i, i)
	}
	file := filepath.Join(t.TempDir(), "scales.jsonl")
	os.WriteFile(file, []byte(b.String()), 0o644)
	db := filepath.Join(t.TempDir(), "s.db")
	out, errOut, err := runCmd(t, "", nil, "import", "--db", db, "--project", "sc", "--create", file)
	if err != nil || !strings.Contains(out, "rating scales: 2 defined, 72 scores") {
		t.Fatalf("import: %v\n%s%s", err, out, errOut)
	}
	for _, c := range []struct {
		dim, level string
		r          *iaa.Ratings
		l          iaa.Level
	}{
		{"consistency@summary", "ordinal", cons, iaa.Ordinal},
		{"consistency:interval@summary", "interval", cons, iaa.Interval},
		{"support@sentence", "nominal", supp, iaa.Nominal},
	} {
		want, err := iaa.Alpha(c.r, c.l)
		if err != nil {
			t.Fatal(err)
		}
		if got := projectAlpha(t, db, "sc", c.dim); math.Abs(got-want) > 1e-9 {
			t.Errorf("%s: report alpha %v, from the file %v", c.dim, got, want)
		}
		if got := ratingsAlpha(t, db, "sc", c.dim, c.level); math.Abs(got-want) > 1e-9 {
			t.Errorf("%s: ratings-table alpha %v, from the file %v", c.dim, got, want)
		}
		t.Logf("%s alpha %.4f", c.dim, want)
	}

	// The raw export carries the scores and reads back into a project that
	// holds the same documents and scales.
	raw := filepath.Join(t.TempDir(), "raw.jsonl")
	if _, errOut, err := runCmd(t, "", nil, "export", "--db", db, "--project", "sc", "--what", "raw", "--out", raw); err != nil {
		t.Fatalf("export: %v\n%s", err, errOut)
	}
	docFile := filepath.Join(t.TempDir(), "docs.jsonl")
	db2 := filepath.Join(t.TempDir(), "s2.db")
	scalesLine, _, _ := strings.Cut(b.String(), "\n")
	os.WriteFile(docFile, []byte(scalesLine+"\n"+docs.String()), 0o644)
	if _, errOut, err := runCmd(t, "", nil, "import", "--db", db2, "--project", "sc", "--create", docFile); err != nil {
		t.Fatalf("import documents: %v\n%s\n%s", err, errOut, docs.String())
	}
	if out, errOut, err := runCmd(t, "", nil, "import", "--db", db2, "--project", "sc", raw); err != nil || !strings.Contains(out, "0 defined, 72 scores") {
		t.Fatalf("import raw: %v\n%s%s", err, out, errOut)
	}
	for _, dim := range []string{"consistency@summary", "support@sentence"} {
		if a, b := projectAlpha(t, db, "sc", dim), projectAlpha(t, db2, "sc", dim); a != b {
			t.Errorf("%s after the raw round trip: %v, want %v", dim, b, a)
		}
	}

	bad := []struct{ line, want string }{
		{`{"id":"x","text":"A.","summaries":[{"id":"sx","text":"A.","labels":[{"annotator":"r1","scores":{"consistency":7}}]}]}`,
			`:1: summaries[0].labels[0]: scores.consistency: 7 is out of range: a whole number from 1 to 5`},
		{`{"id":"x","text":"A.","summaries":[{"id":"sx","text":"A.","labels":[{"annotator":"r1","scores":{"fluency":3}}]}]}`,
			`:1: summaries[0].labels[0]: scores.fluency: the project defines no scale "fluency"`},
		{`{"scales":[{"name":"fluency","level":"summary","min":5,"max":1}]}`, `:1: scales[0].max: the range 5–1 must go up`},
	}
	for _, c := range bad {
		f := filepath.Join(t.TempDir(), "bad.jsonl")
		os.WriteFile(f, []byte(c.line+"\n"), 0o644)
		_, _, err := runCmd(t, "", nil, "import", "--db", db, "--project", "sc", f)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.line, err, c.want)
		}
	}
}
