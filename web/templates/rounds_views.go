package templates

// RoundsView is a project's list of rounds and the form for a new one.
type RoundsView struct {
	Page
	Slug       string
	Rounds     []RoundRow
	Annotators []Option
	Summaries  int
	Form       RoundForm
	Errors     map[string]string
	// Pick lists the documents a lead may choose to deal, narrowed by the
	// filter; PickMore is set when the filter left more out than shown.
	Pick     []PickRow
	PickMore bool
	Filter   DocFilterView
	Topics   []string
}

// DocFilterView is the document filter as chosen.
type DocFilterView struct {
	Query, Topic, Gold string
}

// PickRow is a document the lead may tick to deal.
type PickRow struct {
	ID        string // the external id, the checkbox's value
	Title     string
	Topics    string
	Summaries int
	Sentences int
	GoldState string // e.g. "12 of 30 sentences with gold, 2 waiting"
}

// RoundRow is one round in the list.
type RoundRow struct {
	ID        int64
	Name      string
	Kind      string
	PerItem   int
	Status    string
	Total     int
	Submitted int
}

// RoundForm is the new-round form as typed.
type RoundForm struct {
	Name       string
	Kind       string
	PerItem    int
	Annotators map[string]bool
	Sample     int
	Seed       uint64
	// KeepDocuments deals a document's summaries to the same annotators
	// instead of balancing load summary by summary.
	KeepDocuments bool
	// Documents are the external ids ticked; none means every document.
	Documents map[string]bool
}

// RoundView is a round's progress page for leads.
type RoundView struct {
	Page
	Slug        string
	Round       RoundRow
	Progress    []ProgressRow
	Assignments []RoundAssignmentRow
	Annotators  []Option
	// Dealing says in words how the round's work was drawn and dealt.
	Dealing string
	// FlagsWaiting and SplitWaiting count the round's sentences waiting
	// for a lead: flagged by an annotator, and split between annotators.
	FlagsWaiting, SplitWaiting int
	// Behind is how many of the project's changed sentences the gold index
	// has not caught up on, so the waiting counts may be behind: 0 almost
	// always (see tasks.Store.RoundQueueCounts).
	Behind int
	// BehindText says Behind as the page shows it ("more than 10000" past
	// what the store counts).
	BehindText string
	// ETA says when the round's open work ends at the current pace; ""
	// when no summary is done yet to measure the pace on.
	ETA string
	// Listed is how many assignments the round has, released ones too;
	// Assignments are RoundPageSize of them from place From on, and Prev
	// and Next link the pages before and after ("" for none).
	Listed, From int
	Prev, Next   string
}

// Movable reports whether the page's assignment a can be released or
// given to another annotator: it is neither submitted nor released, in an
// open round.
func (v RoundView) Movable(a RoundAssignmentRow) bool {
	return v.Round.Status == "open" && a.Status != "submitted" && a.Status != "released"
}

// AnyMovable reports whether any assignment on the page is Movable, and so
// whether the page shows the annotator to reassign to.
func (v RoundView) AnyMovable() bool {
	for _, a := range v.Assignments {
		if v.Movable(a) {
			return true
		}
	}
	return false
}

// RoundPageSize is the most assignments the round page lists at once.
const RoundPageSize = 200

// ProgressRow is one annotator's progress in a round.
type ProgressRow struct {
	Username   string
	Name       string
	Total      int
	Submitted  int
	InProgress int
	Pending    int
	Active     string
	// LastActive is when the annotator last saved a label or submitted
	// ("" for never); Median the median active time of a summary they
	// submitted; ETA their open work at that pace.
	LastActive string
	Median     string
	ETA        string
}

// RoundAssignmentRow is one assignment on the round page.
type RoundAssignmentRow struct {
	ID        int64
	Username  string
	Document  string
	SummaryID int64
	Topic     string
	Status    string
	Labelled  int
	Sentences int
	Active    string
	// Summary tells the summaries of one document apart: its id, model
	// and first words.
	Summary, Model, First string
}

// HistoryView lists every saved change of one assignment's labels.
type HistoryView struct {
	Page
	Annotator string
	Entries   []HistoryRow
}

// HistoryRow is one saved change.
type HistoryRow struct {
	At          string
	Username    string
	Sentence    int
	Label       string
	ErrorTypes  string
	Explanation string
	Ambiguous   string
	Assistant   string
}

// SettingsView is the project's label schema form.
type SettingsView struct {
	Page
	Slug         string
	Labels       int  // the project's sentence labels, as far as the page counts
	LabelsMore   bool // there are more than Labels
	Toggles      []Toggle
	Preset       string
	Presets      []Option
	Custom       string // one "code | name | definition" per line
	Visibility   string
	Visibilities []Option
	Guidelines   string
	Error        string
	// Scales is the project's rating scales as JSON, one scale per line.
	Scales string
}

// Toggle is one on/off dimension of the label schema.
type Toggle struct {
	Name  string
	Label string
	On    bool
}

// SplitView is the page where a lead corrects a summary's sentence split.
type SplitView struct {
	Page
	SummaryID string
	Document  string
	Topic     string
	Sentences []string
	// Text fills the textarea: one sentence per line.
	Text string
	// Lock says why the split can no longer change; empty while it can.
	Lock  string
	Error string
}
