package tasks

import (
	"context"

	"annotate/internal/domain"
)

// RoundFeedback returns an annotator's feedback on a closed calibration
// round: every sentence of the summaries the round gave them, in their
// queue order. An open round has no feedback yet (EForbidden), a
// production round none at all, and an annotator without work in the
// round none either (ENotFound).
func (s *Store) RoundFeedback(ctx context.Context, roundID, userID int64) ([]domain.FeedbackSentence, error) {
	r, err := s.RoundByID(ctx, roundID)
	if err != nil {
		return nil, domain.Op("Store.RoundFeedback", err)
	}
	if r.Kind != domain.RoundCalibration {
		return nil, domain.Errorf(domain.ENotFound, "feedback is given for calibration rounds; %s is a production round", r.Name)
	}
	if r.Status != "closed" {
		return nil, domain.Errorf(domain.EForbidden, "feedback on round %s opens when a lead closes the round", r.Name)
	}
	rows, err := s.read.QueryContext(ctx, `SELECT a.id, a.summary_id, d.external_id, s.topic
		FROM assignments a JOIN summaries s ON s.id = a.summary_id JOIN documents d ON d.id = s.document_id
		WHERE a.round_id = ? AND a.user_id = ? AND a.status != 'released' ORDER BY a.position`, roundID, userID)
	if err != nil {
		return nil, domain.Op("Store.RoundFeedback", err)
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
			return nil, domain.Op("Store.RoundFeedback", err)
		}
		todo = append(todo, w)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, domain.Op("Store.RoundFeedback", err)
	}
	if len(todo) == 0 {
		return nil, domain.Errorf(domain.ENotFound, "nothing was given to this annotator in round %s", r.Name)
	}
	var out []domain.FeedbackSentence
	for _, w := range todo {
		sum, err := s.Summary(ctx, w.summary)
		if err != nil {
			return nil, domain.Op("Store.RoundFeedback", err)
		}
		own, err := s.SentenceLabels(ctx, w.assignment)
		if err != nil {
			return nil, domain.Op("Store.RoundFeedback", err)
		}
		others, err := loadVotes(ctx, s.read, `a.round_id = ? AND a.summary_id = ? AND a.user_id != ?`, roundID, w.summary, userID)
		if err != nil {
			return nil, domain.Op("Store.RoundFeedback", err)
		}
		gold, err := summaryGold(ctx, s.read, w.summary)
		if err != nil {
			return nil, domain.Op("Store.RoundFeedback", err)
		}
		for _, x := range sum.Sentences {
			f := domain.FeedbackSentence{SummaryID: w.summary, SentenceID: x.ID, Document: w.document, Topic: w.topic, Index: x.Index, Text: x.Text, Others: others[x.ID]}
			f.Own, f.Labelled = own[x.ID]
			if g, ok := gold[x.ID]; ok && g.Provenance != domain.ProvUnresolved {
				f.Gold = &g
			}
			out = append(out, f)
		}
	}
	return out, nil
}
