package export_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/export"
	"annotate/internal/tasks"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// write runs one export of the fixture and returns its bytes.
func (f *fixture) write(opt export.Options) []byte {
	f.t.Helper()
	opt.Now = exportTime
	e, err := export.New(f.ctx, f.store, f.project, opt)
	if err != nil {
		f.t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := e.Write(f.ctx, &buf); err != nil {
		f.t.Fatal(err)
	}
	return buf.Bytes()
}

func TestGolden(t *testing.T) {
	f := newFixture(t)
	cases := []struct {
		file string
		opt  export.Options
	}{
		{"gold.jsonl", export.Options{What: export.Gold}},
		{"gold.csv", export.Options{What: export.Gold, Format: export.CSV}},
		{"gold-decided.jsonl", export.Options{What: export.Gold, Provenance: []string{"majority", "adjudicated"}}},
		{"gold-round-extra.jsonl", export.Options{What: export.Gold, Round: "extra"}},
		{"raw.jsonl", export.Options{What: export.Raw}},
		{"raw.csv", export.Options{What: export.Raw, Format: export.CSV}},
		{"raw-anonymised-cal.csv", export.Options{What: export.Raw, Format: export.CSV, Anonymise: true, Round: "cal"}},
		{"tofueval.csv", export.Options{What: export.TofuEval}},
		{"scores.csv", export.Options{What: export.Scores}},
		{"scores.jsonl", export.Options{What: export.Scores, Format: export.JSONL}},
	}
	// Each export is made as a quiet server or the command line makes it,
	// and on one core as a busy server does (Options.OneCore): the bytes
	// must be the same.
	for _, c := range cases {
		for _, oneCore := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, one core %v", c.file, oneCore), func(t *testing.T) {
				f.t = t
				opt := c.opt
				opt.OneCore = oneCore
				got := f.write(opt)
				path := filepath.Join("testdata", c.file)
				if *update && !oneCore {
					if err := os.WriteFile(path, got, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run go test -update to create it)", err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s differs from the golden file; got:\n%s", c.file, got)
				}
			})
		}
	}
}

// lines decodes a JSON Lines export.
func lines(t *testing.T, b []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		out = append(out, m)
	}
	return out
}

func TestHeaderNamesTheExport(t *testing.T) {
	f := newFixture(t)
	recs := lines(t, f.write(export.Options{What: export.Raw, Round: "cal", Provenance: []string{"unanimous"}}))
	h := recs[0]
	want := map[string]any{"kind": "export", "what": "raw", "project": "alpha", "round": "cal", "exported_at": "2026-01-04T08:00:00Z",
		"schema_version": float64(tasks.CurrentSchemaVersion())}
	for k, v := range want {
		if h[k] != v {
			t.Errorf("header %s = %v, want %v", k, h[k], v)
		}
	}
	end := recs[len(recs)-1]
	if end["kind"] != export.EndKind || end["records"] != float64(len(recs)-2) {
		t.Errorf("last record %v, want the end record counting %d records", end, len(recs)-2)
	}
	for _, r := range recs[1 : len(recs)-1] {
		if r["kind"] != nil {
			t.Fatalf("a data record has a kind: %v", r)
		}
	}
}

// data is the data records of a JSON Lines export: between the header and
// the end record.
func data(t *testing.T, b []byte) []map[string]any {
	t.Helper()
	recs := lines(t, b)
	if len(recs) < 2 || recs[len(recs)-1]["kind"] != export.EndKind {
		t.Fatalf("the export does not end with its end record")
	}
	return recs[1 : len(recs)-1]
}

// goldProvenances lists the sentence provenances of a gold JSONL export,
// by summary.
func goldProvenances(t *testing.T, b []byte) map[string][]string {
	out := map[string][]string{}
	for _, r := range data(t, b) {
		for _, s := range r["summaries"].([]any) {
			sum := s.(map[string]any)
			for _, x := range sum["sentences"].([]any) {
				p := "-"
				if g, ok := x.(map[string]any)["gold"].(map[string]any); ok {
					p = g["provenance"].(string)
				}
				out[sum["id"].(string)] = append(out[sum["id"].(string)], p)
			}
		}
	}
	return out
}

func TestFixtureHasEveryProvenance(t *testing.T) {
	f := newFixture(t)
	got := goldProvenances(t, f.write(export.Options{What: export.Gold}))
	want := map[string]string{
		"s1": "unanimous majority adjudicated",
		"s2": "unresolved unanimous",
		"s3": "unanimous unanimous",
		"s4": "imported",
	}
	for sum, w := range want {
		if g := strings.Join(got[sum], " "); g != w {
			t.Errorf("%s: provenances %q, want %q", sum, g, w)
		}
	}
}

func TestFilters(t *testing.T) {
	f := newFixture(t)
	cases := []struct {
		name string
		opt  export.Options
		want map[string]string
	}{
		{"round keeps its summaries", export.Options{What: export.Gold, Round: "extra"}, map[string]string{"s4": "imported"}},
		{"provenance drops other gold", export.Options{What: export.Gold, Provenance: []string{"adjudicated"}},
			map[string]string{"s1": "- - adjudicated"}},
		{"several provenances", export.Options{What: export.Gold, Provenance: []string{"unresolved", "imported"}},
			map[string]string{"s2": "unresolved -", "s4": "imported"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := goldProvenances(t, f.write(c.opt))
			if len(got) != len(c.want) {
				t.Errorf("summaries %v, want %v", got, c.want)
			}
			for sum, w := range c.want {
				if g := strings.Join(got[sum], " "); g != w {
					t.Errorf("%s: %q, want %q", sum, g, w)
				}
			}
		})
	}
	t.Run("raw round keeps that round's assignments", func(t *testing.T) {
		recs := data(t, f.write(export.Options{What: export.Raw, Round: "extra"}))
		if len(recs) != 1 || recs[0]["summary_id"] != "s4" || recs[0]["annotator"] != "ann" || recs[0]["labelled"] != true {
			t.Errorf("raw rows of round extra: %v", recs)
		}
	})
	t.Run("raw provenance filter", func(t *testing.T) {
		recs := data(t, f.write(export.Options{What: export.Raw, Provenance: []string{"majority"}}))
		if len(recs) != 3 {
			t.Fatalf("%d rows, want the 3 labels of the majority sentence", len(recs))
		}
		for _, r := range recs {
			if r["gold_provenance"] != "majority" || r["sentence_idx"] != float64(2) {
				t.Errorf("row %v", r)
			}
		}
	})
}

func TestOptionErrorsNameTheField(t *testing.T) {
	f := newFixture(t)
	cases := []struct {
		opt        export.Options
		code, text string
	}{
		{export.Options{What: "everything"}, domain.EInvalid, "what:"},
		{export.Options{What: export.TofuEval, Format: export.JSONL}, domain.EInvalid, "format:"},
		{export.Options{What: export.Gold, Format: "xml"}, domain.EInvalid, "format:"},
		{export.Options{What: export.Gold, Provenance: []string{"voted"}}, domain.EInvalid, "provenance:"},
		{export.Options{What: export.Gold, Round: "nope"}, domain.ENotFound, "round:"},
	}
	for _, c := range cases {
		_, err := export.New(f.ctx, f.store, f.project, c.opt)
		if domain.ErrorCode(err) != c.code || !strings.Contains(err.Error(), c.text) {
			t.Errorf("%+v: error %v, want %s naming %q", c.opt, err, c.code, c.text)
		}
	}
}

func TestAnonymisedExportNamesNobody(t *testing.T) {
	f := newFixture(t)
	for _, what := range []string{export.Raw, export.Gold} {
		out := string(f.write(export.Options{What: what, Anonymise: true}))
		for _, name := range []string{"ann", "bob", "cat", "lea"} {
			if strings.Contains(out, `"`+name+`"`) {
				t.Errorf("%s export names %s", what, name)
			}
		}
		// ann, bob and cat annotate; lea decided the majority and the
		// adjudicated gold. Everyone goes by the project's pseudonym.
		aliases, err := f.store.Pseudonyms(f.ctx, f.project.ID)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{export.Raw: `"annotator":"` + aliases.Username("ann") + `"`, export.Gold: `"decided_by":"` + aliases.Username("lea") + `"`}[what]
		if !strings.Contains(out, want) {
			t.Errorf("%s export has no %s", what, want)
		}
	}
}
