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
// evidence finder ranks highest. The Adjudicator's tentative label comes
// from a word-overlap rule, not from the gold labels (which annotators must
// not be shown in calibration): faithful when most content words of the
// sentence occur in the cited units, unfaithful otherwise. The sample
// judges no ambiguity.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"unicode"

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
					Run: runName, Sample: true, Result: sampleResult(i, sent.Text, units, evidence),
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

// overlapThreshold is the share of a sentence's content words that must
// occur in the cited units for the sample's word-overlap rule to call it
// faithful.
const overlapThreshold = 0.75

// stopwords are left out when counting a sentence's content words.
var stopwords = map[string]bool{
	"the": true, "and": true, "that": true, "this": true, "with": true, "from": true, "have": true, "were": true, "will": true,
	"their": true, "they": true, "been": true, "also": true, "about": true, "which": true, "there": true, "for": true, "was": true,
	"are": true, "has": true, "had": true, "not": true, "but": true, "its": true, "into": true, "would": true, "should": true,
}

// contentWords lowercases text and returns its words of four letters or
// more that are not stopwords.
func contentWords(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len([]rune(w)) >= 4 && !stopwords[w] {
			out = append(out, w)
		}
	}
	return out
}

// overlap is the share of the sentence's content words that occur in the
// cited units.
func overlap(sentence string, doc []assist.Unit, cited []int) (found, total int) {
	seen := map[string]bool{}
	for _, n := range cited {
		if n >= 1 && n <= len(doc) {
			for _, w := range contentWords(doc[n-1].Text) {
				seen[w] = true
			}
		}
	}
	for _, w := range contentWords(sentence) {
		total++
		if seen[w] {
			found++
		}
	}
	return found, total
}

// sampleResult builds the clearly marked sample result for sentence i.
func sampleResult(i int, sentence string, doc []assist.Unit, evidence []int) assist.SentenceResult {
	found, total := overlap(sentence, doc, evidence)
	label, errType, verdict := assist.Faithful, "", "faithful"
	if total > 0 && float64(found) < overlapThreshold*float64(total) {
		label, errType, verdict = assist.Unfaithful, "extrinsic_information", "unfaithful"
	}
	cites := units(evidence)
	return assist.SentenceResult{
		Protocol: assist.ProtocolSingle,
		Target:   i,
		Advocate: &assist.Side{
			Label: assist.Faithful, Citations: evidence,
			Reason: prefix + "a model acting as Advocate would argue here that the sentence is supported by " + cites + ".",
		},
		Skeptic: &assist.Side{
			Label: assist.Unfaithful, ErrorType: "nuanced_meaning_shift", Citations: evidence,
			Reason: prefix + "a model acting as Skeptic would look for a detail of the sentence that the document does not state, a wrong speaker, or a plan stated as a decision, starting from " + cites + ".",
		},
		Adjudicator: &assist.Verdict{
			Label: label, ErrorType: errType, Citations: evidence,
			Report: fmt.Sprintf("%s%d of the sentence's %d content words occur in %s, so a word-overlap rule (not a model, and not the gold label) calls it %s. Run the assistant against a model (annotate assist run) for a real verdict.",
				prefix, found, total, cites, verdict),
		},
		Evidence:      evidence,
		PromptVersion: "sample",
		Model:         model,
		Settings:      assist.Settings{Protocol: assist.ProtocolSingle, EvidenceCap: evidenceLimit},
		Status:        assist.StatusOK,
	}
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
