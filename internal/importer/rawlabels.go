package importer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"

	"annotate/internal/domain"
)

// rawFields are the fields of a raw export row (docs/export.md); the
// import reads the labels out of them and ignores the rest, which an
// export computes (gold, the assistant, timings). An annotator's flag and
// skip reason are accepted but not imported.
var rawFields = []string{
	"round", "annotator", "assignment_status", "document_id", "summary_id", "topic", "model", "sentence_idx", "sentence",
	"labelled", "label", "error_types", "explanation", "ambiguous", "ambiguity_type", "ambiguity_note", "unsure_note",
	"first_label", "assistant_visible", "changed_after_reveal", "assistant_label", "followed_assistant", "updated_at",
	"started_at", "submitted_at", "active_seconds", "seconds_per_sentence",
	"relevance", "non_summary", "topic_category", "comment",
	"gold_label", "gold_provenance", "flag", "skip_reason", "sentence_scores", "summary_scores",
	"study", "condition", "attention_check", "excluded",
}

// rawRow is what the import reads of a raw export row.
type rawRow struct {
	Round         string   `json:"round"`
	Annotator     string   `json:"annotator"`
	SummaryID     string   `json:"summary_id"`
	SentenceIdx   int      `json:"sentence_idx"`
	Labelled      bool     `json:"labelled"`
	Label         string   `json:"label"`
	ErrorTypes    []string `json:"error_types"`
	Explanation   string   `json:"explanation"`
	Ambiguous     *bool    `json:"ambiguous"`
	AmbiguityType string   `json:"ambiguity_type"`
	AmbiguityNote string   `json:"ambiguity_note"`
	UnsureNote    string   `json:"unsure_note"`
	Relevance     *int     `json:"relevance"`
	NonSummary    bool     `json:"non_summary"`
	TopicCategory string   `json:"topic_category"`
	Comment       string   `json:"comment"`
	// SentenceScores and SummaryScores are the project's rating scales,
	// written when it has some.
	SentenceScores map[string]any `json:"sentence_scores"`
	SummaryScores  map[string]any `json:"summary_scores"`
}

// located is an imported label with where it was read.
type located struct {
	rec domain.LabelRecord
	at  Error
}

// rawLabels reads the rows of a raw export (after its header) as
// annotators' labels of summaries already in the project or in the same
// import. Unlabelled rows are skipped; the summary-level fields, repeated
// on every row of an assignment, give one summary label per assignment
// when any is set.
type rawLabels struct {
	out  []located
	seen map[[3]string]bool
	// emit, when set, takes each label as its row is read instead of out.
	// The rows of an export come summary by summary, so what the rows
	// read of one summary is then forgotten at the next.
	emit        func(located)
	lastSummary string
}

// add hands over one label.
func (x *rawLabels) add(l located) {
	if x.emit != nil {
		x.emit(l)
		return
	}
	x.out = append(x.out, l)
}

// row reads one row.
func (x *rawLabels) row(line []byte, at *Error, c *collector) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(line, &fields); err != nil {
		c.addf(at, "", "invalid JSON: %s", jsonMessage(err))
		return
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.Contains(rawFields, k) {
			c.addf(at, k, "unknown field of a raw export row")
			return
		}
	}
	var r rawRow
	if err := json.NewDecoder(bytes.NewReader(line)).Decode(&r); err != nil {
		c.addf(at, "", "%s", jsonMessage(err))
		return
	}
	if r.SummaryID == "" {
		c.addf(at, "summary_id", "missing")
		return
	}
	if x.emit != nil && r.SummaryID != x.lastSummary {
		clear(x.seen)
		x.lastSummary = r.SummaryID
	}
	if r.Labelled || len(r.SentenceScores) > 0 {
		if r.SentenceIdx < 1 {
			c.addf(at, "sentence_idx", "must be 1 or more, got %d", r.SentenceIdx)
			return
		}
		x.add(located{at: *at, rec: domain.LabelRecord{Summary: r.SummaryID, Sentence: r.SentenceIdx,
			Label: &domain.SentenceLabelInput{Annotator: r.Annotator, Round: r.Round, Label: r.Label, ErrorTypes: r.ErrorTypes,
				Explanation: r.Explanation, Ambiguous: r.Ambiguous, AmbiguityType: r.AmbiguityType, AmbiguityNote: r.AmbiguityNote,
				UnsureNote: r.UnsureNote, Scores: r.SentenceScores}}})
	}
	key := [3]string{r.Round, r.Annotator, r.SummaryID}
	if x.seen == nil {
		x.seen = map[[3]string]bool{}
	}
	if (r.Relevance != nil || r.NonSummary || r.TopicCategory != "" || r.Comment != "" || len(r.SummaryScores) > 0) && !x.seen[key] {
		x.seen[key] = true
		x.add(located{at: *at, rec: domain.LabelRecord{Summary: r.SummaryID,
			SummaryLabel: &domain.SummaryLabelInput{Annotator: r.Annotator, Round: r.Round, Relevance: r.Relevance,
				NonSummary: r.NonSummary, TopicCategory: r.TopicCategory, Comment: r.Comment, Scores: r.SummaryScores}}})
	}
}

// records checks labels read from raw rows like nested ones and gives them
// a source for the store's messages.
func (r *resolver) records(ls []located) []domain.LabelRecord {
	out := make([]domain.LabelRecord, 0, len(ls))
	for i := range ls {
		r.record(&ls[i])
		out = append(out, ls[i].rec)
	}
	return out
}

// record checks one label read from a raw row and gives it its source.
func (r *resolver) record(l *located) {
	r.current = l.rec.Summary
	if l.rec.Label != nil {
		r.sentenceLabel(l.rec.Label, l.rec.Sentence, &l.at, "")
	} else {
		r.summaryLabel(l.rec.SummaryLabel, &l.at, "")
	}
	l.rec.Source = fmt.Sprintf("%s: summary_id %s", locString(&l.at), l.rec.Summary)
}
