package domain

import (
	"slices"
)

// PendingSentence is a sentence waiting for adjudication: its gold is
// unresolved.
type PendingSentence struct {
	SentenceID int64
	SummaryID  int64
	Index      int
	Text       string
	Document   string // the document's external id
	Summary    string // the summary's external id
	Topic      string
	Tally      Tally
	// Reopened is true when a person sent the sentence back; majorities
	// are not accepted for it in bulk.
	Reopened bool
	// Rounds are the ids of the rounds that gave its summary out.
	Rounds []int64
	// Flags are the notes annotators left when they flagged the sentence
	// for the leads (released assignments aside).
	Flags []string
}

// InRound reports whether the sentence's summary was given out in a round.
func (p PendingSentence) InRound(roundID int64) bool { return slices.Contains(p.Rounds, roundID) }

// MajorityReady reports whether AcceptMajority would decide the sentence:
// never one a person reopened or an annotator flagged.
func (p PendingSentence) MajorityReady() bool {
	_, ok := p.Tally.Majority()
	return ok && !p.Reopened && len(p.Flags) == 0
}

// QueueFilter narrows the adjudication queue: to one round (0 for all)
// and to sentences split on one dimension ("" for any).
type QueueFilter struct {
	RoundID   int64
	Dimension string
	// Flagged keeps only sentences an annotator flagged.
	Flagged bool
}

// Keep reports whether a pending sentence passes the filter.
func (f QueueFilter) Keep(p PendingSentence) bool {
	if f.RoundID != 0 && !p.InRound(f.RoundID) {
		return false
	}
	if f.Flagged && len(p.Flags) == 0 {
		return false
	}
	return f.Dimension == "" || p.Tally.Disagrees(f.Dimension)
}

// RoundGold counts the gold of the sentences of a round's summaries by
// provenance.
type RoundGold struct {
	Round
	Sentences   int
	Unanimous   int
	Majority    int
	Adjudicated int
	Imported    int
	// Pending sentences are unresolved: they wait for adjudication.
	Pending int
	// Waiting sentences have no gold yet: their labels are not all in, or
	// the round has not been resolved since.
	Waiting int
}

// QueuePage is one page of the adjudication queue with the counts the
// page shows, read from the gold index (see gold_index.go).
type QueuePage struct {
	// Pending is how many sentences wait; Flagged how many of them an
	// annotator flagged.
	Pending, Flagged int
	// Ready counts, by round, the waiting sentences of the round's
	// summaries that AcceptMajority would decide.
	Ready map[int64]int
	// Matching is how many waiting sentences pass the filter.
	Matching int
	// From is the place of the page's first sentence among the matching
	// ones (0-based), moved back into range and to a page boundary.
	From int
	// Items are the page's sentences, most split first (as
	// PendingSentences orders them).
	Items []PendingSentence
}

// KeepIndexed is Keep on a gold index row's columns.
func (f QueueFilter) KeepIndexed(rounds []int64, flagged bool, split int) bool {
	if f.RoundID != 0 && !slices.Contains(rounds, f.RoundID) {
		return false
	}
	if f.Flagged && !flagged {
		return false
	}
	for i, d := range Dimensions {
		if f.Dimension == d && split&(1<<i) == 0 {
			return false
		}
	}
	return true
}
