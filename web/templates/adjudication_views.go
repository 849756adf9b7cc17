package templates

// AdjQueueView is a project's adjudication queue: gold counts per round
// and the sentences waiting for a decision, most split first.
type AdjQueueView struct {
	Page
	Slug   string
	Rounds []AdjRoundRow
	// Filter as chosen; RoundID 0 and Dimension "" mean any.
	RoundID   int64
	Dimension string
	// Flagged keeps only sentences an annotator flagged; FlaggedCount is
	// how many waiting sentences are flagged.
	Flagged      bool
	FlaggedCount int
	Dimensions   []Option
	Items        []AdjQueueItem
	// Pending is the number of sentences waiting before the filter,
	// Matching the number the filter keeps; Items are those from From on
	// (0-based), at most a page of them.
	Pending, Matching, From int
	// Prev and Next link to the pages before and after; "" when none.
	Prev, Next string
	// Imported lists imported gold that annotators labelled, to reopen.
	Imported []AdjImportedItem
	// Behind is how many sentences' rows of the gold index the queue read
	// before they were rewritten (see tasks.FreshSnapshot); 0 when the
	// counts and order are current. Past AdjBehindShown the page shows
	// only that it is catching up.
	Behind int
	// BehindText says Behind as the page shows it ("more than 10000" past
	// what the store counts).
	BehindText string
}

// AdjBehindShown is how far behind (in sentences) the adjudication queue
// may be and still show its counts, with a warning; further behind (after
// an upgrade or a large import) they would mislead.
const AdjBehindShown = 1000

// AdjRoundRow is one round's gold by provenance.
type AdjRoundRow struct {
	ID          int64
	Name        string
	Kind        string
	Status      string
	Sentences   int
	Unanimous   int
	Majority    int
	Adjudicated int
	Imported    int
	Pending     int
	Waiting     int
	// MajorityReady counts pending sentences a strict majority would decide.
	MajorityReady int
}

// AdjQueueItem is one sentence waiting for adjudication.
type AdjQueueItem struct {
	URL      string
	Document string
	Summary  string // the summary's id, which tells a document's summaries apart
	Topic    string
	Index    int
	Text     string
	// Votes reads like "faithful 2 · unfaithful 1".
	Votes string
	// Split names the dimensions the annotators differ on.
	Split    string
	Score    string // the largest minority share, as a percentage
	Reopened bool
	Majority bool
	// Flags are the notes of the annotators who flagged the sentence.
	Flags []string
}

// AdjImportedItem is a sentence with imported gold that annotators
// labelled, on the queue page.
type AdjImportedItem struct {
	URL        string
	SentenceID int64
	Document   string
	Topic      string
	Index      int
	Text       string
	Gold       string
	Votes      string
	Against    int
	Version    int
}

// AdjudicationView is the adjudication page of one summary.
type AdjudicationView struct {
	Page
	Slug      string
	SummaryID int64
	Document  string
	Topic     string
	Units     []UnitView
	Schema    SchemaView
	// Anonymous is set when annotator names are hidden.
	Anonymous   bool
	SummaryGold string // e.g. "unfaithful (adjudicated)"; "" when none
	Sentences   []AdjSentence
	History     []AdjHistoryRow
	QueueURL    string
	Scales      []AdjScaleRow // the project's rating scales
}

// AdjSentence is one summary sentence with the annotators' votes, the
// assistant's report, the suggestion, the gold and the decision form.
type AdjSentence struct {
	ID      int64
	Index   int
	Text    string
	Votes   []AdjVote
	Tally   []AdjTallyRow
	Suggest AdjSuggestion
	Assist  AssistView
	Gold    AdjGold
	// Version is the gold version the form sends back.
	Version int
	// Form holds the values the decision form shows: the gold, else the
	// suggestion, else what the adjudicator last sent.
	Form SentenceLabelView
	Note string
	// Error is a refused decision's message; Conflict marks a decision
	// refused because someone else decided meanwhile.
	Error    string
	Conflict bool
	// Saved says the decision was just recorded.
	Saved bool
}

// AdjVote is one annotator's label of a sentence.
type AdjVote struct {
	Annotator   string
	Round       string
	Label       string
	ErrorTypes  []string // names
	Explanation string
	Ambiguity   string // "no", "not answered" or "yes: Type"
	AmbNote     string
	UnsureNote  string
	// Flag is the note of the annotator's flag for the leads, if any.
	Flag string
}

// Flags are the votes that flag the sentence for a lead.
func (s AdjSentence) Flags() []AdjVote {
	var out []AdjVote
	for _, v := range s.Votes {
		if v.Flag != "" {
			out = append(out, v)
		}
	}
	return out
}

// AdjTallyRow is the count of each value of one dimension.
type AdjTallyRow struct {
	Dimension string
	Counts    string
	Split     bool
}

// AdjSuggestion is the most frequent value of each dimension.
type AdjSuggestion struct {
	Has        bool
	Label      string
	ErrorTypes []string // codes
	TypeNames  string
	Ambiguous  string // "yes", "no" or ""
	AmbType    string
	Text       string // the suggestion in words
	Majority   bool   // a strict majority on every dimension
}

// AdjGold is a sentence's current gold with its provenance.
type AdjGold struct {
	Has        bool
	Provenance string
	Label      string
	ErrorTypes string
	Ambiguity  string
	By         string
	At         string
	Note       string
	Reopened   bool
}

// AdjHistoryRow is one gold change of the summary.
type AdjHistoryRow struct {
	At         string
	Sentence   int
	Provenance string
	Label      string
	ErrorTypes string
	Ambiguity  string
	By         string
	Note       string
}

// goldMarkClass and goldMarkText show a sentence's gold state on the
// adjudication page; the text carries the meaning.
func goldMarkClass(g AdjGold) string {
	switch {
	case !g.Has || g.Label == "":
		return "mark-none"
	}
	return "mark-" + g.Label
}

func goldMarkText(g AdjGold) string {
	switch {
	case !g.Has:
		return "— no gold"
	case g.Label == "":
		return "○ to decide"
	case g.Label == "faithful":
		return "✓ " + g.Provenance
	case g.Label == "unfaithful":
		return "✗ " + g.Provenance
	}
	return "~ " + g.Provenance
}

// adjURL is the path of a decision on one sentence: action is "gold" or
// "reopen".
func adjURL(v AdjudicationView, s AdjSentence, action string) string {
	return "/p/" + v.Slug + "/adjudication/s/" + id64(v.SummaryID) + "/" + action + "/" + id64(s.ID)
}

// AdjQueuePageSize is the most sentences the adjudication queue lists at
// once; the rest are a page away.
const AdjQueuePageSize = 200
