package domain

// The types in this file describe data on its way into a project: importers
// build them from files, and the store's Import writes a whole batch in one
// transaction. They carry no database ids.

// Document kinds.
const (
	KindProse    = "prose"
	KindDialogue = "dialogue"
)

// Faithfulness label values.
const (
	LabelFaithful   = "faithful"
	LabelUnfaithful = "unfaithful"
	LabelBorderline = "borderline"
)

// DocumentInput is one source document with everything attached to it.
type DocumentInput struct {
	ExternalID string `json:"id"`
	Kind       string `json:"kind,omitempty"` // prose (default) or dialogue
	Language   string `json:"language,omitempty"`
	Domain     string `json:"domain,omitempty"`
	Title      string `json:"title,omitempty"`
	// AnnotationID is the document's id in the annotation study it comes
	// from (TofuEval's annotation_id), kept for export.
	AnnotationID string `json:"annotation_id,omitempty"`
	// Text is the prose of a prose document; it is split into sentences
	// unless Sentences is given.
	Text string `json:"text,omitempty"`
	// Sentences is an explicit split of a prose document.
	Sentences []string `json:"sentences,omitempty"`
	// Turns are the utterances of a dialogue, each kept whole as one unit.
	Turns     []TurnInput    `json:"turns,omitempty"`
	Summaries []SummaryInput `json:"summaries,omitempty"`
	KeyFacts  []KeyFactInput `json:"key_facts,omitempty"`
	// Source says where the record came from (file and line), for messages.
	Source string `json:"-"`
	// Continuation marks a record that only adds summaries and key facts
	// to a document given earlier in the same import (a gold export writes
	// one record per summary); it has no content of its own.
	Continuation bool `json:"-"`
	// NamedByContent marks an id made from the document's text (SummEdits
	// has no document ids), which a changed text changes: when no document
	// of the project has the id, the document that already holds one of its
	// summaries (by summary id) is the one meant, and its text is compared
	// as on any re-import.
	NamedByContent bool `json:"-"`
}

// TurnInput is one dialogue turn.
type TurnInput struct {
	Speaker string `json:"speaker"`
	Text    string `json:"text"`
}

// SummaryInput is one summary of its document.
type SummaryInput struct {
	ExternalID string `json:"id"`
	Topic      string `json:"topic,omitempty"`
	Model      string `json:"model,omitempty"`
	Language   string `json:"language,omitempty"`
	// Text is split into sentences unless Sentences is given.
	Text      string          `json:"text,omitempty"`
	Sentences []SentenceInput `json:"sentences,omitempty"`
	// Original is the summary this one was edited from (SummEdits).
	Original string `json:"original,omitempty"`
	// EditTypes lists the edits applied to Original (SummEdits).
	EditTypes []string `json:"edit_types,omitempty"`
	// Gold is a summary-level gold label (SummEdits labels whole summaries).
	Gold *GoldInput `json:"gold,omitempty"`
	// Scores are computed by a gold export and ignored on import: they
	// follow from the sentence gold and the key-fact alignments.
	Scores *SummaryScores `json:"scores,omitempty"`
	// Labels are annotators' summary-level labels, one per annotator and
	// round.
	Labels []SummaryLabelInput `json:"labels,omitempty"`
	// Source says where the summary came from (file and line), for messages.
	Source string `json:"-"`
}

// SummaryScores are the MSumBench scores of a summary; nil when undefined
// (see docs/export.md).
type SummaryScores struct {
	Faithfulness *float64 `json:"faithfulness"`
	Completeness *float64 `json:"completeness"`
	Conciseness  *float64 `json:"conciseness"`
}

// SentenceInput is one summary sentence, optionally with its gold label.
type SentenceInput struct {
	// SourceIndex is the sentence's number in a published file, kept so
	// that an export in that format gives it back (TofuEval's sent_idx may
	// skip numbers); 0 when the file numbers nothing.
	SourceIndex int        `json:"source_index,omitempty"`
	Text        string     `json:"text"`
	Translation string     `json:"translation,omitempty"`
	Gold        *GoldInput `json:"gold,omitempty"`
	// Labels are annotators' labels of the sentence, one per annotator and
	// round.
	Labels []SentenceLabelInput `json:"labels,omitempty"`
}

// GoldInput is a gold label that arrives with imported data.
type GoldInput struct {
	Label         string   `json:"label"` // faithful, unfaithful or borderline
	ErrorTypes    []string `json:"error_types,omitempty"`
	Explanation   string   `json:"explanation,omitempty"`
	Ambiguous     *bool    `json:"ambiguous,omitempty"`
	AmbiguityType string   `json:"ambiguity_type,omitempty"` // one of AmbiguityTypes
	AmbiguityNote string   `json:"ambiguity_note,omitempty"`
	// Provenance is where the gold came from (ProvImported when empty).
	// A gold export writes it so that importing the export keeps it;
	// ProvUnresolved gold carries no label.
	Provenance string `json:"provenance,omitempty"`
	// DecidedBy is the username of who decided; it is linked to the
	// account of that name when the database has one.
	DecidedBy string `json:"decided_by,omitempty"`
	DecidedAt string `json:"decided_at,omitempty"` // UTC, as stored
	Note      string `json:"note,omitempty"`
}

// GoldProvenances lists the provenance values a gold label can have.
var GoldProvenances = []string{ProvImported, ProvUnanimous, ProvMajority, ProvAdjudicated, ProvUnresolved}

// KeyFactInput is one key fact of a document (optionally of one topic).
type KeyFactInput struct {
	Topic    string `json:"topic,omitempty"`
	Text     string `json:"text"`
	Category string `json:"category,omitempty"`
}
