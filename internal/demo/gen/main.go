//go:build ignore

// Command gen writes the demo corpus, internal/demo/corpus.jsonl, from the
// public TofuEval and MADISSE files. Run it from the module root:
//
//	go run internal/demo/gen/main.go -shared ../shared/data
//
// It picks three MeetingBank documents of the TofuEval test split and
// writes them, with all their summaries, topics, key facts, gold labels and
// ambiguity labels, in the native import format.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"annotate/internal/importer"
	"annotate/internal/tasks"
)

// documents are the MeetingBank documents of the demo: transcripts of
// 16 to 40 turns, three topics with six models each, and a good share of
// unfaithful and ambiguous sentences.
var documents = []string{
	"AlamedaCC_07202021_2021-1128",
	"SeattleCityCouncil_03282016_CB 118644",
	"DenverCityCouncil_07312017_17-0680",
}

func main() {
	shared := flag.String("shared", "../shared/data", "directory holding the tofueval/ and madisse/ data")
	out := flag.String("out", "internal/demo/corpus.jsonl", "file to write")
	flag.Parse()
	if err := run(*shared, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(shared, out string) error {
	res, err := importer.ParseFiles(importer.FormatTofuEval, []string{
		filepath.Join(shared, "tofueval", "meetingbank_factual_eval_test.csv"),
		filepath.Join(shared, "tofueval", "meetingbank_completeness_final.csv"),
		filepath.Join(shared, "madisse", "MeetingBank_ambiguity_annotated.json"),
	}, importer.Options{})
	if err != nil {
		return err
	}
	var picked []tasks.DocumentInput
	for _, d := range res.Documents {
		if slices.Contains(documents, d.ExternalID) {
			picked = append(picked, d)
		}
	}
	if len(picked) != len(documents) {
		return fmt.Errorf("found %d of the %d demo documents", len(picked), len(documents))
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, d := range picked {
		if err := enc.Encode(d); err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Printf("wrote %s: %d documents\n", out, len(picked))
	return nil
}
