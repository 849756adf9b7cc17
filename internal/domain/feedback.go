package domain

import "slices"

// FeedbackSentence is one sentence of an annotator's calibration
// feedback: their own label beside the other annotators' labels of the
// same round and the sentence's gold.
type FeedbackSentence struct {
	SummaryID  int64
	SentenceID int64
	Document   string // the document's external id
	Topic      string
	Index      int // 1-based within the summary
	Text       string
	// Own is the annotator's label; Labelled is false when they left the
	// sentence without one.
	Own      SentenceLabel
	Labelled bool
	// Others are the labels of the round's other annotators from their
	// submitted assignments, in the order of their user ids.
	Others []Vote
	// Gold is the sentence's gold, nil when it has none or is waiting for
	// adjudication.
	Gold *Gold
}

// DiffersFromGroup reports whether another annotator read the sentence
// differently on any dimension that sends a sentence to adjudication: the
// label, the error types of an unfaithful label, or the ambiguity answer
// and its type.
func (f FeedbackSentence) DiffersFromGroup() bool {
	if !f.Labelled {
		return false
	}
	return slices.ContainsFunc(f.Others, func(v Vote) bool { return !SameReading(f.Own, v.Label) })
}

// DiffersFromGold reports whether the annotator's reading differs from
// gold on any of those dimensions.
func (f FeedbackSentence) DiffersFromGold() bool {
	if !f.Labelled || f.Gold == nil {
		return false
	}
	g := SentenceLabel{Label: f.Gold.Label, ErrorTypes: f.Gold.ErrorTypes, Ambiguous: f.Gold.Ambiguous, AmbiguityType: f.Gold.AmbiguityType}
	return !SameReading(f.Own, g)
}

// SameReading reports whether two labels of a sentence agree wherever both
// answered: the faithfulness label, the error types when both call it
// unfaithful, and the ambiguity answer with its type. A dimension one of
// them left unanswered does not count as a difference.
func SameReading(a, b SentenceLabel) bool {
	if a.Label != "" && b.Label != "" && a.Label != b.Label {
		return false
	}
	if a.Label == LabelUnfaithful && b.Label == LabelUnfaithful {
		x, y := slices.Clone(a.ErrorTypes), slices.Clone(b.ErrorTypes)
		slices.Sort(x)
		slices.Sort(y)
		if !slices.Equal(x, y) {
			return false
		}
	}
	if a.Ambiguous != nil && b.Ambiguous != nil {
		if *a.Ambiguous != *b.Ambiguous || (*a.Ambiguous && a.AmbiguityType != b.AmbiguityType) {
			return false
		}
	}
	return true
}

// FeedbackAgreement counts how often an annotator's sentence labels match:
// per pair with each other annotator of the round, and with gold.
type FeedbackAgreement struct {
	GroupAgree, GroupPairs int
	GoldAgree, GoldTotal   int
}

// Agreement counts the matches over a feedback's sentences. Sentences the
// annotator left unlabelled do not count.
func Agreement(sentences []FeedbackSentence) FeedbackAgreement {
	var a FeedbackAgreement
	for _, f := range sentences {
		if !f.Labelled || f.Own.Label == "" {
			continue
		}
		for _, v := range f.Others {
			if v.Label.Label == "" {
				continue
			}
			a.GroupPairs++
			if v.Label.Label == f.Own.Label {
				a.GroupAgree++
			}
		}
		if f.Gold != nil && f.Gold.Label != "" {
			a.GoldTotal++
			if f.Gold.Label == f.Own.Label {
				a.GoldAgree++
			}
		}
	}
	return a
}
