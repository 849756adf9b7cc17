package templates

// ReportView is a project's agreement report page for leads.
type ReportView struct {
	Page
	Slug string
	// Round and Dimension are the filters as chosen ("" for all).
	Round, Dimension string
	RoundOptions     []Option // the first is "" (all rounds)
	DimensionOptions []Option // the first is "" (every dimension)
	Scope            string   // what the figures cover, in words
	Annotators       int
	Bootstrap        int
	Anonymous        bool // annotator names are replaced by numbers
	// Drafts is "1" when unsubmitted work counts, "" for submitted only.
	Drafts string
	// BootstrapMethod is what α's bootstrap resamples: units or pairs.
	BootstrapMethod string
	// UndefinedLimit is the share of replicates, in percent, on which α
	// may be undefined for its interval to be shown (e.g. "5").
	UndefinedLimit string
	// ComputedAt says when the figures were computed.
	ComputedAt string
	// ComputedNote follows the time when the report shown is older than
	// the latest changes.
	ComputedNote string
	// StatNames heads the statistics columns.
	StatNames []string
	Levels    []ReportLevel
	// Focus names the dimension the per-annotator and trend sections show.
	Focus              string
	Heatmaps           []Heatmap
	PairLists          []PairList // instead of heatmaps past a dozen or so annotators
	AnnotatorRows      []AnnotatorRow
	Patterns           []AnnotatorPatterns
	Trends             []TrendView
	Disagreements      []DisagreementRow
	DisagreementsTotal int
	Assistant          AssistantView
	Downloads          []Link
}

// ReportLevel is the dimensions table of one level (sentence or summary).
type ReportLevel struct {
	Level string
	Rows  []DimensionRow
}

// DimensionRow is one dimension's statistics.
type DimensionRow struct {
	Key      string // name@level, for test ids
	Title    string
	Scale    string
	Units    int
	Pairable int
	Ratings  int
	Values   string // how often each value was given
	Stats    []StatCell
	// Caution says why the row's α, κ and π intervals are too narrow
	// (a rare value), or is empty.
	Caution string
}

// StatCell is a statistic as the page prints it: a value with its interval
// and the units behind it, or the reason it is undefined.
type StatCell struct {
	Name  string // JSON name, for test ids
	Value string // "" when undefined
	CI    string // "[low, high]" or ""
	Basis string // e.g. "12 units" or "3 pairs"
	// Note qualifies the figure in a sentence that may wrap, e.g. how many
	// bootstrap replicates α's interval rests on.
	Note      string
	Undefined string // the reason, when Value is ""
}

// AnnotatorRow is one annotator on one dimension of the focus.
type AnnotatorRow struct {
	// Pace is the annotator's active seconds a sentence, in words; empty
	// when no time was recorded.
	Pace          string
	Key           string // annotator and dimension key, for test ids
	Name          string
	Dimension     string // title and level
	Labels        int
	Agreement     StatCell
	KappaMajority StatCell
	AlphaWithout  StatCell
	// GroupAlpha is the dimension's α with everyone, for comparison.
	GroupAlpha string
	// Lowers says the group agrees more without this annotator.
	Lowers bool
	// HasGold is set when the dimension has gold; the rest is then filled.
	HasGold bool
	GoldN   int
	// GoldSources says what the annotator was scored against, e.g.
	// "12 gold, 30 others' majority".
	GoldSources  string
	GoldAccuracy StatCell
	GoldKappa    StatCell
	Balanced     StatCell
	Confusion    ConfusionView
}

// ConfusionView is a confusion matrix: rows gold, columns the label.
type ConfusionView struct {
	Values []string
	Counts [][]int
}

// AnnotatorPatterns lists where one annotator departs from the others most.
type AnnotatorPatterns struct {
	Name  string
	Items []string
}

// TrendView is one dimension across the calibration rounds: a chart and
// the same figures as a table.
type TrendView struct {
	Title string
	Chart LineChart
	Rows  []TrendRow
}

// TrendRow is one round of a trend table.
type TrendRow struct {
	Round   string
	Units   int
	Ratings int
	Stats   []StatCell
	Caution string // why the round's α, κ and π intervals are too narrow, or ""
}

// DisagreementRow is one sentence the annotators split on.
type DisagreementRow struct {
	Href          string
	Where         string // document and summary
	Summary       string // the summary's external id
	Index         int    // the sentence's number in its summary
	Text          string
	Split         string
	ErrorDistance string
	Ambiguity     string
	Votes         string
	ErrorTypes    string
	Gold          string
	Assistant     string
	Flagged       int    // how many annotators flagged the sentence
	Flags         string // who flagged it and their notes
}

// AssistantView is the assistant's effect on the labels in scope.
type AssistantView struct {
	Note          string
	Labels        int
	WithAssistant int
	WithGold      int
	// VsGold is the assistant's own label against gold, when there is one.
	HasVsGold  bool
	VsGoldN    int
	VsAccuracy StatCell
	VsKappa    StatCell
	VsBalanced StatCell
	Splits     []AssistSplitRow
	Revealed   int
	Changed    StatCell
	// ToAssistant, TowardGold and AwayFromGold count changes after reveal.
	ToAssistant, TowardGold, AwayFromGold int
	FirstAgree, FinalAgree                StatCell
}

// AssistSplitRow is the labels saved under one assistant condition.
type AssistSplitRow struct {
	Condition     string
	Labels        int
	GoldAccuracy  StatCell
	AgreesWith    StatCell
	FollowedWrong StatCell
}

// PairList stands in for a heatmap when there are too many annotators to
// draw one: the pairs that agree least on a dimension, with how many pairs
// there are and where to find them all.
type PairList struct {
	Title    string
	Measure  string
	Possible int // pairs of annotators in scope
	Sharing  int // pairs who rated at least one unit in common
	MinUnits int // pairs listed share at least this many units
	Rows     []PairRow
	CSV      string // the pairwise table for download
}

// PairRow is one pair of annotators in a PairList.
type PairRow struct {
	A, B  string
	Kappa StatCell
}
