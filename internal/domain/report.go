package domain

import "slices"

// ReportData is everything the agreement report of a project reads: the
// labels of every assignment that was not released, the sentences they
// label with their gold, the key facts of each summary and the assistant's
// tentative labels. It is loaded by [annotate/internal/tasks.Store.ReportData] in a handful of
// queries on the read pool, whatever the size of the project. Labels are
// held coded, without pointers (see [ReportLabel]); the text of sentences
// is read on demand, for the few a report lists (see Details).
type ReportData struct {
	Rounds        []Round              // oldest first
	Assignments   []ReportAssignment   // not released, in id order
	Labels        []ReportLabel        // sentence labels of those assignments, each assignment's together
	SummaryLabels []ReportSummaryLabel // summary labels of those assignments
	KeyFactLinks  []ReportKeyFactLink  // key-fact alignments of those assignments
	Sentences     []ReportSentence     // sentences of the assigned summaries, by summary and index
	// Strings holds the distinct strings of the labels (labels, first
	// labels, ambiguity types), which labels name by index; Strings[0] is
	// "".
	Strings []string
	// TypeLists holds the distinct error-type lists of the labels, which
	// labels name by index; TypeLists[0] is the empty list. The lists are
	// shared: do not modify.
	TypeLists [][]string
	// SummaryKeyFacts lists, for each assigned summary, the ids of the key
	// facts an annotator could align (its document's, for its topic).
	SummaryKeyFacts map[int64][]int64
	// Assistant is the tentative label the assistant panel shows for a
	// sentence: from the newest run that is not a sample, else a sample run.
	Assistant AssistantLabels
	// GoldSummaries holds summary-level gold labels where one was set.
	GoldSummaries map[int64]string
	// Scores are the values on the project's rating scales, by assignment.
	Scores map[int64][]ReportScore
	// Flags are the annotators' flags on sentences, by sentence.
	Flags map[int64][]ReportFlag
	// Details reads the text and external ids of the given sentences of
	// the project (at most [MaxReportDetails] at a time); nil when there is
	// nothing to read them from. It reads after the rest, in a transaction
	// of its own.
	Details func(ids []int64) (map[int64]ReportSentenceDetail, error)
	// UnitNames reads the stable names of the project's summaries and
	// sentences (see [UnitNames]); nil when there is nothing to read them
	// from.
	UnitNames func() (*UnitNames, error)
}

// ReportAssignment is one annotator's assignment of one summary in a round.
type ReportAssignment struct {
	ID, RoundID, SummaryID, UserID int64
	Username                       string
	Status                         string
	// ActiveSeconds is the annotator's active time on the summary.
	ActiveSeconds int
}

// ReportLabel is the current label of one sentence in one assignment,
// coded: its strings are indexes into [ReportData.Strings] and its
// error types an index into [ReportData.TypeLists], so that millions of
// labels hold no pointer for the garbage collector to follow.
type ReportLabel struct {
	AssignmentID, SentenceID         int64
	Label, FirstLabel, AmbiguityType uint32 // indexes into Strings; 0 is ""
	ErrorTypes                       uint32 // index into TypeLists; 0 is none
	// Ambiguous is the ambiguity flag: AmbiguousUnanswered, AmbiguousNo
	// or AmbiguousYes.
	Ambiguous          int8
	AssistantVisible   bool
	ChangedAfterReveal bool
}

// Values of [ReportLabel.Ambiguous].
const (
	AmbiguousUnanswered int8 = iota
	AmbiguousNo
	AmbiguousYes
)

// ReportSummaryLabel is the summary-level label of one assignment.
type ReportSummaryLabel struct {
	AssignmentID  int64
	Relevance     *int // shared between labels: do not modify
	TopicCategory string
}

// ReportKeyFactLink says that, in one assignment, sentence SentenceID
// carries key fact KeyFactID.
type ReportKeyFactLink struct {
	AssignmentID, KeyFactID, SentenceID int64
}

// ReportSentence is a summary sentence with where it sits and its gold
// label, if any.
type ReportSentence struct {
	ID, SummaryID int64
	Index         int
	// Gold is nil when the sentence has no gold or its gold is unresolved.
	Gold *ReportGold
}

// ReportSentenceDetail is what a report shows of a sentence it lists:
// its text and the external ids of its summary and document.
type ReportSentenceDetail struct {
	Text             string
	SummaryExternal  string
	DocumentExternal string
}

// MaxReportDetails bounds the sentences one call of
// [ReportData.Details] reads.
const MaxReportDetails = 500

// ReportGold is the gold label of a sentence, shared between sentences
// with the same: do not modify.
type ReportGold struct {
	Label         string
	ErrorTypes    []string
	Ambiguous     *bool
	AmbiguityType string
	// Derived is set when the gold was made from the annotators' own labels
	// (unanimous, or a majority a lead accepted), not imported or
	// adjudicated: scoring an annotator against it would score them
	// against themselves, so the report scores them against the others.
	Derived bool
}

// ReportFilter narrows the labels a report reads.
type ReportFilter struct {
	// Round is the name of the one round to read; "" reads every round.
	// An unknown round reads no assignment (the report then says so).
	Round string
	// SubmittedOnly reads only submitted assignments.
	SubmittedOnly bool
	// OneConnection reads everything in one transaction, never holding a
	// second connection (see ReportData).
	OneConnection bool
}

// ReportFlag is an annotator's flag on a sentence, raised for the leads.
type ReportFlag struct {
	AssignmentID int64
	Note         string
}

// ReportScore is one value on a rating scale: on a sentence, or on the
// summary when SentenceID is 0.
type ReportScore struct {
	SentenceID int64
	Scale      string
	Value      string
}

// AssistantLabels are the assistant's tentative labels of sentences, in
// ascending order of sentence id: IDs[i] has label Label(i). The labels
// are a byte each, numbering the few label values (the store keeps two),
// so that half a million sentences take 4.5 MB: as strings they took
// 12 MB, and a map three times that.
type AssistantLabels struct {
	IDs   []int64
	codes []uint8
	names []string // the labels codes number, at most maxAssistantLabels
}

// maxAssistantLabels is the most distinct labels AssistantLabels holds.
const maxAssistantLabels = 256

// Len returns the number of sentences with a label.
func (a *AssistantLabels) Len() int { return len(a.IDs) }

// Label returns the label of IDs[i].
func (a *AssistantLabels) Label(i int) string { return a.names[a.codes[i]] }

// Of returns the label of sentence id, "" for none.
func (a *AssistantLabels) Of(id int64) string {
	if i, ok := slices.BinarySearch(a.IDs, id); ok {
		return a.Label(i)
	}
	return ""
}

// code returns the number of label, numbering it if new: only then is a
// label given as bytes made a string.
func code[T string | []byte](a *AssistantLabels, label T) (uint8, error) {
	for k, n := range a.names {
		if n == string(label) {
			return uint8(k), nil
		}
	}
	if len(a.names) == maxAssistantLabels {
		return 0, Errorf(EInvalid, "assistant label %q: more than %d different labels", label, maxAssistantLabels)
	}
	a.names = append(a.names, string(label))
	return uint8(len(a.names) - 1), nil
}

// Add adds the label of sentence id, which must be above every id added
// so far. It fails only when the labels would number more than 256.
func (a *AssistantLabels) Add(id int64, label string) error {
	return Op("AssistantLabels.Add", add(a, id, label))
}

// AddBytes is Add for a label read as bytes (a scanned column): the
// bytes are made a string only for a label not seen before.
func (a *AssistantLabels) AddBytes(id int64, label []byte) error {
	return Op("AssistantLabels.AddBytes", add(a, id, label))
}

func add[T string | []byte](a *AssistantLabels, id int64, label T) error {
	k, err := code(a, label)
	if err != nil {
		return err
	}
	a.IDs = append(a.IDs, id)
	a.codes = append(a.codes, k)
	return nil
}

// Fill adds to a the labels of sentences it has none of, from b (also in
// ascending order of id), keeping a's order. It fails only when the
// labels would number more than 256.
func (a *AssistantLabels) Fill(b AssistantLabels) error {
	if len(b.IDs) == 0 {
		return nil
	}
	if len(a.IDs) == 0 {
		*a = b
		return nil
	}
	// b's codes in a's numbering.
	remap := make([]uint8, len(b.names))
	for k, n := range b.names {
		var err error
		if remap[k], err = code(a, n); err != nil {
			return Op("AssistantLabels.Fill", err)
		}
	}
	// Count first, to make the arrays at their size.
	n, i, j := len(a.IDs), 0, 0
	for j < len(b.IDs) {
		switch {
		case i < len(a.IDs) && a.IDs[i] < b.IDs[j]:
			i++
		case i < len(a.IDs) && a.IDs[i] == b.IDs[j]:
			i, j = i+1, j+1
		default:
			n, j = n+1, j+1
		}
	}
	ids, codes := make([]int64, 0, n), make([]uint8, 0, n)
	i, j = 0, 0
	for i < len(a.IDs) || j < len(b.IDs) {
		switch {
		case j == len(b.IDs) || i < len(a.IDs) && a.IDs[i] < b.IDs[j]:
			ids, codes = append(ids, a.IDs[i]), append(codes, a.codes[i])
			i++
		case i == len(a.IDs) || b.IDs[j] < a.IDs[i]:
			ids, codes = append(ids, b.IDs[j]), append(codes, remap[b.codes[j]])
			j++
		default: // a's label stands
			ids, codes = append(ids, a.IDs[i]), append(codes, a.codes[i])
			i, j = i+1, j+1
		}
	}
	a.IDs, a.codes = ids, codes
	return nil
}
