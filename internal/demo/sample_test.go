package demo_test

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"annotate/internal/assist"
	"annotate/internal/demo"
	"annotate/internal/importer"
)

// TestSampleRun checks that the sample run covers every sentence of the
// corpus once and says on every line that no model wrote it.
func TestSampleRun(t *testing.T) {
	docs, err := demo.Documents()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, d := range docs {
		for _, s := range d.Summaries {
			for i := range s.Sentences {
				want[s.ExternalID+"#"+strconv.Itoa(i)] = true
			}
		}
	}
	dec := assist.NewDecoder(bytes.NewReader(demo.SampleRun()))
	seen := map[string]bool{}
	for {
		r, err := dec.Decode()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if !r.Sample || r.Run != "sample output" || !strings.Contains(r.Result.Model, "not from a model") ||
			!strings.HasPrefix(r.Result.Adjudicator.Report, "Sample output (not from a model)") {
			t.Fatalf("line %d is not marked as sample output: %+v", dec.Line(), r)
		}
		key := r.SummaryID + "#" + string(rune('0'+r.Result.Target))
		if !want[key] || seen[key] {
			t.Fatalf("line %d: sentence %s unknown or repeated", dec.Line(), key)
		}
		seen[key] = true
	}
	if len(seen) != len(want) {
		t.Fatalf("the sample run covers %d of %d sentences", len(seen), len(want))
	}
}

// TestSampleRunIsNotGold: the sample Adjudicator's label comes from a
// word-overlap rule, not from the gold labels, so an annotator who follows
// it in calibration learns nothing about gold from it.
func TestSampleRunIsNotGold(t *testing.T) {
	gold := map[string]string{}
	var in []importer.File
	in = append(in, importer.File{Name: "corpus.jsonl", R: bytes.NewReader(demo.Corpus())})
	res, err := importer.Parse(importer.FormatNative, in)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range res.Documents {
		for _, s := range d.Summaries {
			for i, sent := range s.Sentences {
				if sent.Gold != nil {
					gold[s.ExternalID+"#"+strconv.Itoa(i+1)] = sent.Gold.Label
				}
			}
		}
	}
	dec := assist.NewDecoder(bytes.NewReader(demo.SampleRun()))
	same, total := 0, 0
	for {
		r, err := dec.Decode()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(r.Result.Adjudicator.Report, "copied") || !strings.Contains(r.Result.Adjudicator.Report, "word-overlap rule") {
			t.Fatalf("line %d: the report does not say where the label comes from: %q", dec.Line(), r.Result.Adjudicator.Report)
		}
		if g, ok := gold[r.SummaryID+"#"+r.SentenceID]; ok {
			total++
			if g == string(r.Result.Adjudicator.Label) {
				same++
			}
		}
	}
	// Measured 71 of 154: far from a copy of gold.
	if total != 154 || same > total*3/4 {
		t.Errorf("the sample agrees with gold on %d of %d sentences", same, total)
	}
}
