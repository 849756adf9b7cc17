package tasks

import (
	"context"
	"slices"
)

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

// RoundFeedback returns an annotator's feedback on a closed calibration
// round: every sentence of the summaries the round gave them, in their
// queue order. An open round has no feedback yet (EForbidden), a
// production round none at all, and an annotator without work in the
// round none either (ENotFound).
func (s *Store) RoundFeedback(ctx context.Context, roundID, userID int64) ([]FeedbackSentence, error) {
	r, err := s.RoundByID(ctx, roundID)
	if err != nil {
		return nil, Op("Store.RoundFeedback", err)
	}
	if r.Kind != RoundCalibration {
		return nil, Errorf(ENotFound, "feedback is given for calibration rounds; %s is a production round", r.Name)
	}
	if r.Status != "closed" {
		return nil, Errorf(EForbidden, "feedback on round %s opens when a lead closes the round", r.Name)
	}
	rows, err := s.read.QueryContext(ctx, `SELECT a.id, a.summary_id, d.external_id, s.topic
		FROM assignments a JOIN summaries s ON s.id = a.summary_id JOIN documents d ON d.id = s.document_id
		WHERE a.round_id = ? AND a.user_id = ? AND a.status != 'released' ORDER BY a.position`, roundID, userID)
	if err != nil {
		return nil, Op("Store.RoundFeedback", err)
	}
	type work struct {
		assignment, summary int64
		document, topic     string
	}
	var todo []work
	for rows.Next() {
		var w work
		if err := rows.Scan(&w.assignment, &w.summary, &w.document, &w.topic); err != nil {
			rows.Close()
			return nil, Op("Store.RoundFeedback", err)
		}
		todo = append(todo, w)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, Op("Store.RoundFeedback", err)
	}
	if len(todo) == 0 {
		return nil, Errorf(ENotFound, "nothing was given to this annotator in round %s", r.Name)
	}
	var out []FeedbackSentence
	for _, w := range todo {
		sum, err := s.Summary(ctx, w.summary)
		if err != nil {
			return nil, Op("Store.RoundFeedback", err)
		}
		own, err := s.SentenceLabels(ctx, w.assignment)
		if err != nil {
			return nil, Op("Store.RoundFeedback", err)
		}
		others, err := loadVotes(ctx, s.read, `a.round_id = ? AND a.summary_id = ? AND a.user_id != ?`, roundID, w.summary, userID)
		if err != nil {
			return nil, Op("Store.RoundFeedback", err)
		}
		gold, err := summaryGold(ctx, s.read, w.summary)
		if err != nil {
			return nil, Op("Store.RoundFeedback", err)
		}
		for _, x := range sum.Sentences {
			f := FeedbackSentence{SummaryID: w.summary, SentenceID: x.ID, Document: w.document, Topic: w.topic, Index: x.Index, Text: x.Text, Others: others[x.ID]}
			f.Own, f.Labelled = own[x.ID]
			if g, ok := gold[x.ID]; ok && g.Provenance != ProvUnresolved {
				f.Gold = &g
			}
			out = append(out, f)
		}
	}
	return out, nil
}
