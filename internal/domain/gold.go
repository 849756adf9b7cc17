package domain

import (
	"slices"
	"strings"
)

// Provenance of a gold value: where it came from.
const (
	ProvImported    = "imported"    // arrived with the data
	ProvUnanimous   = "unanimous"   // every annotator agreed on every dimension
	ProvMajority    = "majority"    // a lead accepted the strict majority
	ProvAdjudicated = "adjudicated" // an adjudicator decided
	ProvUnresolved  = "unresolved"  // the annotators disagree; no gold yet
)

// GoldValues are the values of a gold sentence label.
type GoldValues struct {
	Label         string   `json:"label"`
	ErrorTypes    []string `json:"error_types"`
	Explanation   string   `json:"explanation"`
	Ambiguous     *bool    `json:"ambiguous"`
	AmbiguityType string   `json:"ambiguity_type"`
	AmbiguityNote string   `json:"ambiguity_note"`
}

// Equal reports whether v and w hold the same values.
func (v GoldValues) Equal(w GoldValues) bool {
	return v.Label == w.Label && slices.Equal(NonNil(v.ErrorTypes), NonNil(w.ErrorTypes)) && v.Explanation == w.Explanation &&
		((v.Ambiguous == nil) == (w.Ambiguous == nil)) && (v.Ambiguous == nil || *v.Ambiguous == *w.Ambiguous) &&
		v.AmbiguityType == w.AmbiguityType && v.AmbiguityNote == w.AmbiguityNote
}

// Gold is the gold label of one summary sentence with its provenance.
type Gold struct {
	SentenceID int64 `json:"sentence_id"`
	GoldValues
	Provenance string `json:"provenance"`
	// DecidedBy is the user who adjudicated, accepted the majority or
	// reopened; 0 for automatic and imported gold.
	DecidedBy     int64  `json:"decided_by,omitempty"`
	DecidedByName string `json:"-"`
	DecidedAt     string `json:"decided_at"`
	Note          string `json:"note"`
	// Version counts the changes of this gold (see SetGold); a sentence
	// without gold is at version 0.
	Version int `json:"-"`
}

// Reopened reports whether a person sent this sentence back to
// adjudication; automatic resolution leaves such sentences alone.
func (g Gold) Reopened() bool { return g.Provenance == ProvUnresolved && g.DecidedBy != 0 }

// Automatic reports whether auto-resolution owns this gold: it may replace
// unanimous gold and unresolved gold it wrote itself, nothing else.
func (g Gold) Automatic() bool {
	return g.Provenance == ProvUnanimous || (g.Provenance == ProvUnresolved && g.DecidedBy == 0)
}

// GoldDecision is what an adjudicator sets for one sentence.
type GoldDecision struct {
	GoldValues
	Note string
}

// Validate checks a decision against the project's label schema: a
// faithfulness label is required, an unfaithful label needs an error type
// when the project uses them, an ambiguous one needs its type.
func (d *GoldDecision) Validate(set Settings) error {
	if d.Label == "" {
		return Errorf(EInvalid, "choose the gold faithfulness label")
	}
	if d.Label != LabelUnfaithful {
		d.ErrorTypes = nil
	}
	if d.Ambiguous == nil || !*d.Ambiguous {
		d.AmbiguityType = ""
	}
	l := SentenceLabel{Label: d.Label, ErrorTypes: d.ErrorTypes, Explanation: d.Explanation, Ambiguous: d.Ambiguous,
		AmbiguityType: d.AmbiguityType, AmbiguityNote: d.AmbiguityNote}
	if err := l.Validate(set); err != nil {
		return Op("GoldDecision.Validate", err)
	}
	d.ErrorTypes = NonNil(l.ErrorTypes)
	if d.Label == LabelUnfaithful && set.ErrorTypes && len(d.ErrorTypes) == 0 {
		return Errorf(EInvalid, "an unfaithful gold label needs at least one error type")
	}
	if d.Ambiguous != nil && *d.Ambiguous && d.AmbiguityType == "" {
		return Errorf(EInvalid, "an ambiguous gold label needs an ambiguity type")
	}
	if err := CheckText("note", d.Note, MaxNoteLen, true); err != nil {
		return Op("GoldDecision.Validate", err)
	}
	d.Note = strings.TrimSpace(d.Note)
	return nil
}

// GoldChange is one entry of the gold history: a sentence's gold as it
// was after one change.
type GoldChange struct {
	ID            int64
	SentenceID    int64
	SummaryID     int64
	SentenceIndex int
	Document      string // the document's external id
	By            string // display name; "" for automatic changes
	At            string
	Gold          Gold
}

// ImportedGold is a sentence whose gold arrived with the data and that
// annotators have labelled since: a candidate for re-adjudication.
type ImportedGold struct {
	SentenceID int64
	SummaryID  int64
	Document   string
	Topic      string
	Index      int
	Text       string
	Gold       string // the imported faithfulness label
	Tally      Tally
	// Against counts the submitted labels that differ from the gold label.
	Against int
	Version int // the gold's version, for reopening
}

// ProvRank orders provenances from the most to the least automatic; a
// summary's gold takes the least automatic provenance of its sentences.
var ProvRank = map[string]int{ProvImported: 0, ProvUnanimous: 1, ProvMajority: 2, ProvAdjudicated: 3}

// SummaryLabelFrom derives a summary's label from its sentences' gold
// labels: unfaithful if any sentence is, else borderline if any is, else
// faithful. A summary is faithful only if all its sentences are.
func SummaryLabelFrom(labels []string) string {
	out := LabelFaithful
	for _, l := range labels {
		switch l {
		case LabelUnfaithful:
			return LabelUnfaithful
		case LabelBorderline:
			out = LabelBorderline
		}
	}
	return out
}

// SummaryGoldLabel is a summary's gold label with its provenance.
type SummaryGoldLabel struct {
	Label      string
	Provenance string
}

// Vote is one annotator's label on one sentence from a submitted
// assignment: what adjudication weighs.
type Vote struct {
	UserID       int64
	Username     string
	DisplayName  string
	RoundName    string
	AssignmentID int64
	SummaryID    int64
	Label        SentenceLabel
}

// ResolveStats says what a resolution did.
type ResolveStats struct {
	Summaries int // summaries looked at
	Unanimous int // sentences that became unanimous
	Pending   int // sentences that became unresolved
}
