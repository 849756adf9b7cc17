package tasks

import (
	"context"
	"database/sql"

	"annotate/internal/domain"
)

// AcceptMajority decides, as userID, every pending sentence of a round's
// summaries where a strict majority exists on every dimension (see
// Tally.Majority): its gold becomes the majority's values with provenance
// majority. Sentences a person reopened are left for adjudication. It
// returns how many sentences it decided.
func (s *Store) AcceptMajority(ctx context.Context, projectID, roundID, userID int64) (int, error) {
	var n int
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var ok int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM rounds WHERE id = ? AND project_id = ?`, roundID, projectID).Scan(&ok); err != nil {
			return err
		}
		if ok == 0 {
			return domain.Errorf(domain.ENotFound, "round not found")
		}
		pending, err := pendingSentences(ctx, tx, projectID)
		if err != nil {
			return err
		}
		touched := map[int64]bool{}
		for _, p := range pending {
			if !p.InRound(roundID) || !p.MajorityReady() {
				continue
			}
			v, ok := p.Tally.Majority()
			if !ok {
				continue
			}
			g := domain.Gold{SentenceID: p.SentenceID, GoldValues: v, Provenance: domain.ProvMajority, DecidedBy: userID}
			if _, err := s.writeGold(ctx, tx, g, false); err != nil {
				return err
			}
			touched[p.SummaryID] = true
			n++
		}
		for id := range touched {
			if err := s.deriveSummaryGold(ctx, tx, id); err != nil {
				return err
			}
		}
		return nil
	})
	return n, domain.Op("Store.AcceptMajority", err)
}
