// Package demo holds a small real corpus for trying the tool: three
// MeetingBank city-council transcripts with the topic-focused summaries,
// gold faithfulness labels, error types and key points of TofuEval and the
// ambiguity labels of MADISSE (see NOTICE.md for sources and licenses).
//
// The corpus is corpus.jsonl, in the native import format. It is generated
// from the public files by running, from the module root,
//
//	go run internal/demo/gen/main.go -shared ../shared/data
//
// and committed, so the program does not need the public files.
package demo

import (
	"bytes"
	_ "embed"
	"fmt"

	"annotate/internal/domain"
	"annotate/internal/importer"
)

//go:embed corpus.jsonl
var corpus []byte

// ErrorTaxonomy is the error-type preset the corpus's gold labels use.
const ErrorTaxonomy = "tofueval"

// CalibrationSummaries is how many summaries the demo's calibration round
// gives every annotator: the first ones of the corpus, in its order.
// Documents leaves out their gold, so that once the annotators submit, the
// sentences they disagree on wait in the adjudication queue and the
// calibration feedback shows the gold the adjudicator decides.
const CalibrationSummaries = 6

// Corpus returns the corpus in the native import format (JSON Lines).
func Corpus() []byte {
	return bytes.Clone(corpus)
}

// Documents parses the corpus into documents ready for tasks.Store.Import,
// without gold on the first CalibrationSummaries summaries.
func Documents() ([]domain.DocumentInput, error) {
	res, err := importer.Parse(importer.FormatNative, []importer.File{{Name: "demo/corpus.jsonl", R: bytes.NewReader(corpus)}})
	if err != nil {
		return nil, err
	}
	if res.ErrorTaxonomy != ErrorTaxonomy {
		return nil, fmt.Errorf("demo corpus: error types belong to %q, want %q", res.ErrorTaxonomy, ErrorTaxonomy)
	}
	n := 0
	for i := range res.Documents {
		for j := range res.Documents[i].Summaries {
			if n == CalibrationSummaries {
				return res.Documents, nil
			}
			s := &res.Documents[i].Summaries[j]
			s.Gold = nil
			for k := range s.Sentences {
				s.Sentences[k].Gold = nil
			}
			n++
		}
	}
	return res.Documents, nil
}
