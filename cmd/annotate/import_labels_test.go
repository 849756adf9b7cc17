package main

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const threeRaters = "testdata/summedits-samsum-3raters.jsonl"

// fileAlpha computes nominal Krippendorff's α straight from the
// annotators' labels in a native file, with the coincidence-matrix
// formula (Krippendorff 2011, "Computing Krippendorff's alpha-reliability"):
// α = 1 − (n−1)·Σ_{c≠k} o_ck / Σ_{c≠k} n_c·n_k.
func fileAlpha(t *testing.T, file string) float64 {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var units [][]string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var doc struct {
			Summaries []struct {
				Sentences []struct {
					Labels []struct{ Label string }
				}
			}
		}
		if err := json.Unmarshal(sc.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		for _, s := range doc.Summaries {
			for _, sent := range s.Sentences {
				var vs []string
				for _, l := range sent.Labels {
					vs = append(vs, l.Label)
				}
				units = append(units, vs)
			}
		}
	}
	o := map[[2]string]float64{}
	nc := map[string]float64{}
	n := 0.0
	for _, vs := range units {
		m := float64(len(vs))
		if m < 2 {
			continue
		}
		for i := range vs {
			for j := range vs {
				if i != j {
					o[[2]string{vs[i], vs[j]}] += 1 / (m - 1)
				}
			}
			nc[vs[i]]++
			n++
		}
	}
	var do, de float64
	for k, v := range o {
		if k[0] != k[1] {
			do += v
		}
	}
	for c, a := range nc {
		for k, b := range nc {
			if c != k {
				de += a * b
			}
		}
	}
	return 1 - (n-1)*do/de
}

// projectAlpha reads α of one dimension from "agreement --project".
func projectAlpha(t *testing.T, db, slug, dim string) float64 {
	t.Helper()
	out, errOut, err := runCmd(t, "", nil, "agreement", "--db", db, "--project", slug, "--dimension", dim, "--format", "json", "--bootstrap", "0")
	if err != nil {
		t.Fatalf("agreement: %v\n%s", err, errOut)
	}
	var pr struct {
		Dimensions []struct {
			Name, Level string
			Statistics  struct {
				KrippendorffAlpha struct{ Value *float64 } `json:"krippendorff_alpha"`
			} `json:"statistics"`
		} `json:"dimensions"`
	}
	if err := json.Unmarshal([]byte(out), &pr); err != nil {
		t.Fatal(err)
	}
	name, level, _ := strings.Cut(dim, "@")
	for _, d := range pr.Dimensions {
		if d.Name == name && d.Level == level && d.Statistics.KrippendorffAlpha.Value != nil {
			return *d.Statistics.KrippendorffAlpha.Value
		}
	}
	t.Fatalf("no alpha for %s in %s", dim, out)
	return 0
}

// ratingsAlpha writes one dimension with --table ratings and reads α back
// with "agreement --ratings".
func ratingsAlpha(t *testing.T, db, slug, dim, level string) float64 {
	t.Helper()
	out, errOut, err := runCmd(t, "", nil, "agreement", "--db", db, "--project", slug, "--dimension", dim, "--format", "csv", "--table", "ratings")
	if err != nil {
		t.Fatalf("ratings: %v\n%s", err, errOut)
	}
	file := filepath.Join(t.TempDir(), "ratings.csv")
	if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	res, _, err := runCmd(t, "", nil, "agreement", "--ratings", file, "--level", level, "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Statistics struct {
			KrippendorffAlpha struct{ Value *float64 } `json:"krippendorff_alpha"`
		} `json:"statistics"`
	}
	if err := json.Unmarshal([]byte(res), &f); err != nil || f.Statistics.KrippendorffAlpha.Value == nil {
		t.Fatalf("%v\n%s", err, res)
	}
	return *f.Statistics.KrippendorffAlpha.Value
}

// TestImportAnnotatorsLabels imports a multi-annotator slice of public
// data in the native format and checks that the project's report, its
// ratings table and the file itself give the same α; that importing it
// again adds nothing; and that the raw export, imported into a fresh
// database holding only the documents, gives back the same labels.
func TestImportAnnotatorsLabels(t *testing.T) {
	db := filepath.Join(t.TempDir(), "a.db")
	out, errOut, err := runCmd(t, "", nil, "import", "--db", db, "--project", "se", "--create", threeRaters)
	if err != nil {
		t.Fatalf("import: %v\n%s", err, errOut)
	}
	if !strings.Contains(out, "144 sentence labels (0 already there), 0 summary labels, 144 submitted assignments, 1 rounds and 3 imported accounts created") {
		t.Fatalf("import said:\n%s", out)
	}
	out, _, err = runCmd(t, "", nil, "import", "--db", db, "--project", "se", threeRaters)
	if err != nil || !strings.Contains(out, "0 sentence labels (144 already there)") || !strings.Contains(out, "0 submitted assignments, 0 rounds and 0 imported accounts") {
		t.Fatalf("re-import: %v\n%s", err, out)
	}

	want := fileAlpha(t, threeRaters)
	if got := projectAlpha(t, db, "se", "faithfulness@sentence"); math.Abs(got-want) > 1e-9 {
		t.Errorf("project alpha %v, from the file %v", got, want)
	}
	if got := ratingsAlpha(t, db, "se", "faithfulness@sentence", "nominal"); math.Abs(got-want) > 1e-9 {
		t.Errorf("ratings-table alpha %v, from the file %v", got, want)
	}
	t.Logf("alpha %.6f", want)

	// An imported annotator cannot log in, whatever the password.
	store := openDB(t, db)
	u, err := store.UserByName(t.Context(), "edit-rule")
	if err != nil || !u.Disabled {
		t.Fatalf("imported account %+v, %v", u, err)
	}
	if _, err := store.Authenticate(t.Context(), "edit-rule", ""); err == nil {
		t.Error("an imported account logged in with an empty password")
	}
	store.Close()

	// The raw export reads back into a project holding the same documents.
	raw := filepath.Join(t.TempDir(), "raw.jsonl")
	if _, errOut, err := runCmd(t, "", nil, "export", "--db", db, "--project", "se", "--what", "raw", "--format", "jsonl", "--out", raw); err != nil {
		t.Fatalf("export: %v\n%s", err, errOut)
	}
	db2 := filepath.Join(t.TempDir(), "b.db")
	if _, errOut, err := runCmd(t, "", nil, "import", "--db", db2, "--project", "se", "--create", withoutLabels(t, threeRaters)); err != nil {
		t.Fatalf("import documents: %v\n%s", err, errOut)
	}
	if out, errOut, err := runCmd(t, "", nil, "import", "--db", db2, "--project", "se", raw); err != nil || !strings.Contains(out, "144 sentence labels (0 already there)") {
		t.Fatalf("import raw: %v\n%s%s", err, out, errOut)
	}
	raw2 := filepath.Join(t.TempDir(), "raw2.jsonl")
	if _, _, err := runCmd(t, "", nil, "export", "--db", db2, "--project", "se", "--what", "raw", "--format", "jsonl", "--out", raw2); err != nil {
		t.Fatal(err)
	}
	if a, b := rawLabelSet(t, raw), rawLabelSet(t, raw2); !slices.Equal(a, b) || len(a) != 144 {
		t.Errorf("raw export read back gives other labels: %d vs %d", len(a), len(b))
	}
	if got := projectAlpha(t, db2, "se", "faithfulness@sentence"); math.Abs(got-want) > 1e-9 {
		t.Errorf("alpha after reading the raw export back %v, want %v", got, want)
	}
}

// withoutLabels writes a copy of a native file with the annotators'
// labels removed.
func withoutLabels(t *testing.T, file string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var doc map[string]any
		if err := json.Unmarshal([]byte(line), &doc); err != nil {
			t.Fatal(err)
		}
		for _, s := range doc["summaries"].([]any) {
			for _, sent := range s.(map[string]any)["sentences"].([]any) {
				delete(sent.(map[string]any), "labels")
			}
		}
		out, _ := json.Marshal(doc)
		b.Write(out)
		b.WriteByte('\n')
	}
	path := filepath.Join(t.TempDir(), "docs.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// rawLabelSet lists the labels of a raw export as sorted
// "round|annotator|summary|sentence|label|error types|ambiguity" lines.
func rawLabelSet(t *testing.T, file string) []string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n")[1:] {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		if r["labelled"] != true {
			continue
		}
		key := []string{}
		for _, k := range []string{"round", "annotator", "summary_id", "sentence_idx", "label", "error_types", "explanation", "ambiguous", "ambiguity_type"} {
			v, _ := json.Marshal(r[k])
			key = append(key, string(v))
		}
		out = append(out, strings.Join(key, "|"))
	}
	slices.Sort(out)
	return out
}

// TestStreamedImportWritesNothingOnError imports a native file whose last
// line is wrong: the streamed import has written the documents before it,
// and rolls them back with the project it was asked to create.
func TestStreamedImportWritesNothingOnError(t *testing.T) {
	data, err := os.ReadFile(threeRaters)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "bad.jsonl")
	bad := string(data) + `{"id":"late","text":"A late document.","summaries":[{"id":"x","sentences":[{"text":"A.","labels":[{"annotator":"w1","label":"maybe"}]}]}]}` + "\n"
	os.WriteFile(file, []byte(bad), 0o644)
	db := filepath.Join(t.TempDir(), "a.db")
	_, _, err = runCmd(t, "", nil, "import", "--db", db, "--project", "se", "--create", file)
	if err == nil || !strings.Contains(err.Error(), `bad.jsonl:5: summaries[0].sentences[0].labels[0].label: "maybe" is not one of`) {
		t.Fatalf("err = %v", err)
	}
	store := openDB(t, db)
	defer store.Close()
	if _, err := store.ProjectBySlug(t.Context(), "se"); err == nil {
		t.Fatal("a refused import left its project behind")
	}
	if _, err := store.UserByName(t.Context(), "edit-rule"); err == nil {
		t.Fatal("a refused import left an account behind")
	}
}
