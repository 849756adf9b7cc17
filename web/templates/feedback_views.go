package templates

// FeedbackView is an annotator's feedback on a closed calibration round.
type FeedbackView struct {
	Page
	Round string
	// Annotator is whose feedback this is, as the reader knows them:
	// "you" for the annotator, the display name for a lead.
	Annotator string
	// Choices lists the round's annotators for a lead to pick from.
	Choices  []Link
	ShowGold bool
	// Agreement figures, already worded ("7 of 9 (78%)").
	GroupAgreement string
	GoldAgreement  string
	Differing      int
	Items          []FeedbackItem
	// Empty says why there is nothing to show (a lead who has not chosen
	// an annotator).
	Empty string
}

// FeedbackItem is one sentence of the feedback.
type FeedbackItem struct {
	ID          string // anchor id
	Document    string
	Topic       string
	Index       int
	Text        string
	Own         FeedbackLabel
	Differs     bool // from another annotator, or from gold when gold is shown
	DiffersGold bool
	Others      []FeedbackVote
	Gold        *FeedbackGold
	Assistant   *FeedbackAssistant
}

// FeedbackLabel is one label worded for reading.
type FeedbackLabel struct {
	Label       string // "" when none
	ErrorTypes  string
	Explanation string
	Ambiguity   string
}

// FeedbackVote is another annotator's label.
type FeedbackVote struct {
	Name string
	FeedbackLabel
	Same bool // the same label as the reader's
}

// FeedbackGold is the gold label with its explanation.
type FeedbackGold struct {
	FeedbackLabel
	Provenance string
	Note       string
}

// FeedbackAssistant is the assistant's verdict on the sentence.
type FeedbackAssistant struct {
	Label     string
	ErrorType string
	Report    string
	Sample    bool
}

// FeedbackLink is a closed calibration round whose feedback an annotator
// can read.
type FeedbackLink struct {
	Round string
	Href  string
}
