package templates

// WorkspaceView is the labelling page of one assignment.
type WorkspaceView struct {
	Page
	AssignmentID int64
	Version      int
	// ReadOnly is set when a lead looks at an annotator's work.
	ReadOnly    bool
	Annotator   string // shown to leads only
	Status      string
	ProjectSlug string
	ProjectName string
	Position    int // 1-based place in the annotator's queue
	Total       int
	Done        int
	Topic       string
	Dialogue    bool
	// DocTitle and DocExternal name the document; DocLang and SumLang are
	// the languages of the document and the summary, for lang attributes.
	DocTitle    string
	DocExternal string
	DocLang     string
	SumLang     string
	// ActiveSeconds is the active time recorded on the assignment so far.
	ActiveSeconds int
	// Skipped is set when the annotator skipped the summary, with why.
	Skipped    bool
	SkipReason string
	Units      []UnitView
	Sentences  []SentenceView
	Schema     SchemaView
	Summary    SummaryLabelView
	KeyFacts   []KeyFactGroup
	Original   []DiffOp // word diff against the summary it was edited from
	Guidelines string   // sanitised HTML
	Missing    []string // why the last submit was refused
	NextURL    string
	PrevURL    string
	Scales     []ScaleView // the project's own rating scales
	SplitURL   string      // leads: the summary's sentence-split page
}

// UnitView is one numbered document unit.
type UnitView struct {
	Index   int
	Speaker string
	Text    string
}

// SentenceView is one summary sentence with the annotator's label.
type SentenceView struct {
	ID          int64
	Index       int
	Text        string
	Translation string
	Label       SentenceLabelView
	// AssistantShown says whether the assistant panel is visible for this
	// sentence now (by the project's mode and the label so far).
	AssistantShown bool
	Assist         AssistView
}

// SentenceLabelView is the label fields as the form shows them.
type SentenceLabelView struct {
	Label         string
	ErrorTypes    map[string]bool
	Explanation   string
	Ambiguous     string // "", "yes" or "no"
	AmbiguityType string
	AmbiguityNote string
	UnsureNote    string
	Flag          string // a comment flagging the sentence for the leads
	Complete      bool
	Started       bool
}

// AssistView is what the assistant panel shows for one sentence.
type AssistView struct {
	// Evidence lists document unit numbers found without an LLM.
	Evidence []int
	// HasRun is set when an assistant run produced output for the sentence.
	HasRun      bool
	Sample      bool
	Advocate    SideView
	Skeptic     SideView
	Adjudicator SideView
	Ambiguity   string
	// VerdictOnly shows the Adjudicator alone (a study's verdict
	// condition): no Advocate, no Skeptic.
	VerdictOnly bool
}

// SideView is one side's argument in the assistant panel.
type SideView struct {
	Label     string
	ErrorType string
	Citations []int
	Reason    string
}

// SchemaView is the project's label schema as the page needs it.
type SchemaView struct {
	Faithfulness   bool
	ErrorTypes     bool
	Explanation    bool
	Borderline     bool
	Ambiguity      bool
	KeyFacts       bool
	Relevance      bool
	TopicCategory  bool
	UnsureNote     bool
	AssistantMode  string
	ErrorTaxonomy  []TaxonomyView
	AmbiguityTypes []TaxonomyView
}

// TaxonomyView is one entry of a taxonomy.
type TaxonomyView struct {
	Code       string
	Name       string
	Group      string
	Definition string
}

// SummaryLabelView is the summary-level label.
type SummaryLabelView struct {
	Relevance     int
	NonSummary    bool
	TopicCategory string
	Comment       string
}

// KeyFactGroup is the key facts of one category.
type KeyFactGroup struct {
	Category string
	Facts    []KeyFactView
}

// KeyFactView is one key fact with the sentences that carry it.
type KeyFactView struct {
	ID    int64
	Text  string
	Links []bool // per sentence, in sentence order
}

// DiffOp is one run of words in a word diff: kept, added or removed.
type DiffOp struct {
	Op   string // "=", "+" or "-"
	Text string
}

// QueueView is an annotator's list of assignments in a project.
type QueueView struct {
	Page
	ProjectSlug string
	ProjectName string
	Items       []QueueItem // one page of the queue
	Total       int         // assignments in the whole queue
	Done        int
	NextURL     string
	// EarlierURL and LaterURL page through a long queue.
	EarlierURL, LaterURL string
	// Adjudicator links the adjudication queue for a member with that role.
	Adjudicator bool
	// Feedback links the closed calibration rounds the annotator worked in.
	Feedback []FeedbackLink
}

// QueueItem is one assignment in a queue.
type QueueItem struct {
	URL        string
	Position   int
	Round      string
	Document   string
	Title      string
	Topic      string
	Snippet    string // the summary's opening words
	Sentences  int
	Status     string
	SkipReason string // set when the annotator skipped it
}

// RelevanceAnchors are TofuEval's anchor texts for the 1-5 relevance scale.
var RelevanceAnchors = []string{
	1: "All of the summary is off-topic.",
	2: "Most of the summary is off-topic.",
	3: "About half of the summary is off-topic.",
	4: "A little of the summary is off-topic.",
	5: "Nothing in the summary is off-topic.",
}
