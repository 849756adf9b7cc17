package domain

import (
	"math/rand/v2"
)

// Round kinds.
const (
	RoundCalibration = "calibration"
	RoundProduction  = "production"
)

// Round is a calibration or production round of a project.
type Round struct {
	ID        int64
	ProjectID int64
	Name      string
	Kind      string
	PerItem   int
	Status    string
	CreatedAt string
}

// RoundSpec says what a new round holds.
type RoundSpec struct {
	Name string
	Kind string // RoundCalibration or RoundProduction
	// PerItem is how many annotators label each summary in a production
	// round; calibration rounds give every summary to every annotator.
	PerItem    int
	Annotators []int64 // user ids; each must be a member of the project
	Summaries  []int64 // summary ids of the project
	// Dealing is DealBalanced (the default) or DealByDocument; it only
	// matters in production rounds.
	Dealing string
	// Seed and Sample record how the summaries were drawn (see
	// StartRound); they are shown on the round page.
	Seed   uint64
	Sample int
}

// Dealing modes of a production round.
const (
	// DealBalanced deals each summary on its own to the least-loaded
	// annotators: every annotator's load is within one summary of every
	// other's. Among equally loaded annotators, those who already read the
	// document come first.
	DealBalanced = "balanced"
	// DealByDocument gives all of a document's summaries to the same
	// annotators, so each reads a document once; loads may then differ by
	// up to a document's worth of summaries.
	DealByDocument = "by_document"
)

// SampleSummaries draws n of the ids at random, reproducibly for a seed,
// keeping their order (which groups them by document). With n <= 0 or n
// at least len(ids) it returns ids unchanged.
func SampleSummaries(ids []int64, n int, seed uint64) []int64 {
	if n <= 0 || n >= len(ids) {
		return ids
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	keep := make(map[int]bool, n)
	for _, i := range rng.Perm(len(ids))[:n] {
		keep[i] = true
	}
	out := make([]int64, 0, n)
	for i, id := range ids {
		if keep[i] {
			out = append(out, id)
		}
	}
	return out
}

// RoundRequest is a new round as a lead asks for it, from the Rounds page
// or `annotate assign`: both go through StartRound, so the same request
// gives the same round.
type RoundRequest struct {
	Name       string
	Kind       string
	PerItem    int
	Annotators []int64
	// Documents limits the round to the summaries of these external
	// document ids; empty means every summary of the project.
	Documents []string
	// Sample draws this many of those summaries at random with Seed; 0
	// takes them all.
	Sample int
	Seed   uint64
	// Dealing is DealBalanced (default) or DealByDocument.
	Dealing string
}

// RoundDealing is how a round's work was drawn and dealt.
type RoundDealing struct {
	Dealing string // DealBalanced or DealByDocument
	Seed    uint64
	Sample  int // 0: every summary chosen
}

// DocumentFilter chooses the documents a lead lists to deal by hand.
type DocumentFilter struct {
	// Query keeps documents whose external id or title contains it
	// (case-insensitive); empty keeps all.
	Query string
	// Topic keeps documents with a summary of this topic; empty keeps all.
	Topic string
	// Gold is "" (any), "none" (no sentence has gold), "some" (some do,
	// not all), "all" (every sentence has gold) or "waiting" (a sentence
	// waits for adjudication).
	Gold string
}

// GoldStates are the values DocumentFilter.Gold takes, "" aside.
var GoldStates = []string{"none", "some", "all", "waiting"}

// PickDocument is one document in the list a lead deals from.
type PickDocument struct {
	ExternalID string
	Title      string
	Topics     []string // its summaries' topics, distinct, in order
	Summaries  int
	Sentences  int
	Gold       int // sentences with gold (not waiting)
	Waiting    int // sentences waiting for adjudication
}

// KeepGold applies the filter's gold state.
func (f DocumentFilter) KeepGold(d PickDocument) bool {
	switch f.Gold {
	case "none":
		return d.Gold == 0 && d.Waiting == 0
	case "some":
		return d.Gold > 0 && d.Gold < d.Sentences
	case "all":
		return d.Sentences > 0 && d.Gold == d.Sentences
	case "waiting":
		return d.Waiting > 0
	}
	return true
}

// Assignment statuses.
const (
	StatusPending    = "pending"
	StatusInProgress = "in_progress"
	StatusSubmitted  = "submitted"
	StatusReleased   = "released"
)

// Assignment is one summary for one annotator in one round.
type Assignment struct {
	ID            int64
	RoundID       int64
	RoundName     string
	ProjectID     int64
	ProjectSlug   string
	SummaryID     int64
	DocumentID    int64
	UserID        int64
	Position      int
	Status        string
	Version       int
	ActiveSeconds int
	StartedAt     string
	SubmittedAt   string
}

// QueueEntry is one assignment in a user's queue with what the queue page
// shows of it.
type QueueEntry struct {
	Assignment
	Document  string // the document's external id
	Title     string // the document's title
	Topic     string
	Snippet   string // the first sentence, cut at 160 characters
	Sentences int
}

// QueueNav is where one assignment sits in its annotator's queue in its
// project: what the labelling page shows around it.
type QueueNav struct {
	Position int   // 1-based; 0 for a released assignment, which is in no queue
	Total    int   // assignments in the queue (released ones aside)
	Done     int   // of which submitted
	Prev     int64 // the assignment before it, 0 if none
	Next     int64 // the assignment after it, 0 if none
}

// QueueSummary counts an annotator's queue in a project and finds the
// first assignment not yet submitted.
type QueueSummary struct {
	Total int
	Done  int
	// NextOpen is the first assignment in queue order that is not
	// submitted, 0 when all are; NextRank is how many come before it.
	NextOpen int64
	NextRank int
}

// AnnotatorProgress is one annotator's work in a round.
type AnnotatorProgress struct {
	UserID        int64
	Username      string
	DisplayName   string
	Total         int
	Submitted     int
	InProgress    int
	Pending       int
	Released      int
	ActiveSeconds int
}

// RoundTotal is how many assignments a round gives out (released ones
// aside) and how many of them are submitted.
type RoundTotal struct {
	Total, Submitted int
}

// AnnotatorPace is one annotator's work in a round with what its pace is
// worked out from: when they last saved a label or submitted ("" for
// never), how many of their assignments are open (pending or in
// progress), and the median of the active seconds of those they
// submitted (the mean of the middle two for an even count, rounded down;
// 0 when Submitted is 0).
type AnnotatorPace struct {
	AnnotatorProgress
	LastActive    string
	Open          int
	MedianSeconds int
}

// RoundAssignment is one assignment as a lead's round page lists it.
type RoundAssignment struct {
	ID            int64
	Username      string
	Document      string
	SummaryID     int64
	Topic         string
	Status        string
	ActiveSeconds int
	Labelled      int
	Sentences     int
	StartedAt     string
	SubmittedAt   string
	// Summary is the summary's external id, Model the model that wrote it
	// (for leads only) and First its first sentence: what tells apart the
	// summaries of one document.
	Summary, Model, First string
	// LastLabel is when a label of it was last saved; "" for none.
	LastLabel string
}

// HistoryEntry is one saved change of a sentence label.
type HistoryEntry struct {
	SentenceIndex int
	Username      string
	At            string
	Label         SentenceLabel
}

// Skip is an annotator's decision not to label an assignment, with why.
type Skip struct {
	Reason    string
	SkippedAt string
}
