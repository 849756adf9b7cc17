//go:build ignore

// Command gen_sample writes internal/demo/sample_run.jsonl: a sample
// assistant run over every sentence of the demo corpus, in the format of
// "annotate assist export", so that a newcomer sees a filled assistant
// panel without a model. Run it from the module root after the corpus
// changes:
//
//	go run internal/demo/gen_sample/main.go
//
// No model is asked. Every record is marked sample, the model field says
// that no model wrote it, and every text begins "Sample output (not from a
// model)". The Advocate and the Skeptic cite the units the lexical
// evidence finder ranks highest; the Adjudicator's tentative label, error
// type and ambiguity verdict are copied from the corpus's gold labels, so
// the sample's scores against gold mean nothing.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"annotate/internal/assist"
	"annotate/internal/importer"
	"annotate/internal/tasks"
)

const (
	runName = "sample output"
	model   = "none (sample output, not from a model)"
	prefix  = "Sample output (not from a model): "
	// evidenceLimit matches the labelling page's lexical evidence.
	evidenceLimit = 4
)

func main() {
	corpus := flag.String("corpus", "internal/demo/corpus.jsonl", "the demo corpus")
	out := flag.String("out", "internal/demo/sample_run.jsonl", "file to write")
	flag.Parse()
	if err := run(*corpus, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen_sample:", err)
		os.Exit(1)
	}
}

func run(corpus, out string) error {
	in, err := os.Open(corpus)
	if err != nil {
		return err
	}
	defer in.Close()
	res, err := importer.Parse(importer.FormatNative, []importer.File{{Name: corpus, R: in}})
	if err != nil {
		return err
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	enc := assist.NewEncoder(w)
	n := 0
	for _, d := range res.Documents {
		units := documentUnits(d)
		finder := assist.NewFinder(units)
		for _, s := range d.Summaries {
			for i, sent := range s.Sentences {
				var evidence []int
				for _, e := range finder.Premise(sent.Text, evidenceLimit) {
					evidence = append(evidence, e.Unit)
				}
				if len(evidence) == 0 {
					evidence = []int{1}
				}
				rec := assist.ExportRecord{
					ProjectID: "demo", DocumentID: d.ExternalID, SummaryID: s.ExternalID, SentenceID: strconv.Itoa(i + 1),
					Run: runName, Sample: true, Result: sampleResult(i, sent.Gold, evidence),
				}
				if err := enc.Encode(rec); err != nil {
					return err
				}
				n++
			}
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Printf("wrote %d sample results to %s\n", n, out)
	return f.Close()
}

func documentUnits(d tasks.DocumentInput) []assist.Unit {
	if d.Kind == tasks.KindDialogue {
		units := make([]assist.Unit, len(d.Turns))
		for i, t := range d.Turns {
			units[i] = assist.Unit{Speaker: t.Speaker, Text: t.Text}
		}
		return units
	}
	units := make([]assist.Unit, len(d.Sentences))
	for i, s := range d.Sentences {
		units[i] = assist.Unit{Text: s}
	}
	return units
}

// sampleResult builds the clearly marked sample result for sentence i.
func sampleResult(i int, gold *tasks.GoldInput, evidence []int) assist.SentenceResult {
	label, errType := assist.Faithful, ""
	if gold != nil && gold.Label == tasks.LabelUnfaithful {
		label = assist.Unfaithful
		if len(gold.ErrorTypes) > 0 {
			errType = gold.ErrorTypes[0]
		}
	}
	skepticType := errType
	if skepticType == "" {
		skepticType = "nuanced_meaning_shift"
	}
	cites := units(evidence)
	r := assist.SentenceResult{
		Protocol: assist.ProtocolSingle,
		Target:   i,
		Advocate: &assist.Side{
			Label: assist.Faithful, Citations: evidence,
			Reason: prefix + "a model acting as Advocate would argue here that the sentence is supported by " + cites + ".",
		},
		Skeptic: &assist.Side{
			Label: assist.Unfaithful, ErrorType: skepticType, Citations: evidence,
			Reason: prefix + "a model acting as Skeptic would look for a detail of the sentence that the document does not state, a wrong speaker, or a plan stated as a decision, starting from " + cites + ".",
		},
		Adjudicator: &assist.Verdict{
			Label: label, ErrorType: errType, Citations: evidence,
			Report: prefix + "this tentative label is copied from the demo's gold label to show how the panel looks. Run the assistant against a model (annotate assist run) for real arguments.",
		},
		Evidence:      evidence,
		PromptVersion: "sample",
		Model:         model,
		Settings:      assist.Settings{Protocol: assist.ProtocolSingle, Ambiguity: true, EvidenceCap: evidenceLimit},
		Status:        assist.StatusOK,
	}
	if gold != nil && gold.Ambiguous != nil {
		a := &assist.Ambiguity{Judged: true, Ambiguous: *gold.Ambiguous}
		if a.Ambiguous {
			a.Type = gold.AmbiguityType
			a.Reason = prefix + "copied from the demo's ambiguity label."
		}
		r.Ambiguity = a
	}
	return r
}

// units names the evidence units the way the panel's chips do: "unit [3],
// the passage most like it by word overlap".
func units(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = "[" + strconv.Itoa(n) + "]"
	}
	if len(ns) == 1 {
		return "unit " + parts[0] + ", the passage most like it by word overlap"
	}
	return "units " + strings.Join(parts, ", ") + ", the passages most like it by word overlap"
}
