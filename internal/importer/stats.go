package importer

import (
	"fmt"

	"annotate/internal/domain"
)

// FileStats counts what one file contributed.
type FileStats struct {
	File string
	// Role says what the file was read as, such as "tofueval key points".
	Role string
	// Records is the number of records read: lines, rows or array items.
	Records int
	// Documents, Summaries, Sentences and KeyFacts count what the file
	// contributed to the result. For a TofuEval import the documents are
	// counted with the labels file they come from, and again with the key
	// points file and the MADISSE file when these contributed to them.
	Documents, Summaries, Sentences, KeyFacts int
	// GoldLabels counts gold faithfulness labels, of sentences or of whole
	// summaries; AmbiguityLabels counts gold ambiguity flags.
	GoldLabels, AmbiguityLabels int
	// Skipped counts records that were read but not imported.
	Skipped int
}

// String gives the counts on one line.
func (s FileStats) String() string {
	return fmt.Sprintf("%s (%s): %d records, %d documents, %d summaries, %d sentences, %d key facts, %d gold labels, %d ambiguity labels, %d skipped",
		s.File, s.Role, s.Records, s.Documents, s.Summaries, s.Sentences, s.KeyFacts, s.GoldLabels, s.AmbiguityLabels, s.Skipped)
}

// countStats adds the content counts of the resolved documents to the
// stats of the files they came from. In a TofuEval import the key facts
// are counted by the key points file, and the MADISSE file has counted
// what it contributed.
func countStats(res *Result, docs []parsed, format string) {
	byFile := map[string]*FileStats{}
	for i := range res.Stats {
		byFile[res.Stats[i].File] = &res.Stats[i]
	}
	for _, p := range docs {
		st := byFile[p.at.File]
		if st == nil {
			continue
		}
		if format == FormatTofuEval {
			k := st.KeyFacts
			countDocument(st, &p.doc)
			st.KeyFacts = k
			continue
		}
		countDocument(st, &p.doc)
	}
}

// countDocument adds a document's content to its file's counts.
func countDocument(st *FileStats, d *domain.DocumentInput) {
	if !d.Continuation {
		st.Documents++
	}
	st.KeyFacts += len(d.KeyFacts)
	for _, s := range d.Summaries {
		st.Summaries++
		st.Sentences += len(s.Sentences)
		countGold(st, s.Gold)
		for _, sent := range s.Sentences {
			countGold(st, sent.Gold)
		}
	}
}

// countGold counts one gold label.
func countGold(st *FileStats, g *domain.GoldInput) {
	if g == nil {
		return
	}
	if g.Label != "" {
		st.GoldLabels++
	}
	if g.Ambiguous != nil {
		st.AmbiguityLabels++
	}
}
