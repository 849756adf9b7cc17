package studies

import (
	"context"
	"database/sql"
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"

	"annotate/internal/domain"
	"annotate/internal/experiment"
	"annotate/internal/tasks"
)

// Deal gives a participant items up to the study's items per participant:
// the study's summaries with the fewest labellers in its round first
// (released assignments aside), never one the participant has, never one
// that has k labellers already. It returns how many the participant holds.
func (s *Store) Deal(ctx context.Context, st *Study, p *Participant) (int, error) {
	var held int
	err := s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM assignments a WHERE a.round_id = ? AND a.user_id = ? AND a.status != 'released'
			AND NOT EXISTS (SELECT 1 FROM study_checks c WHERE c.assignment_id = a.id)`,
			st.RoundID, p.UserID).Scan(&held); err != nil {
			return err
		}
		want := st.Definition.ItemsPerParticipant - held
		if want <= 0 {
			return nil
		}
		// The items dealt least so far, in the study's shuffled order,
		// read from the dealing index (study_items.dealt is kept by
		// triggers on assignments), skipping any the participant ever
		// held: the cost does not grow with the study's size.
		picks, err := tasks.IDList(ctx, tx, `SELECT i.summary_id FROM study_items i
			WHERE i.study_id = ?1 AND i.is_check = 0 AND i.dealt < ?4
				AND NOT EXISTS (SELECT 1 FROM assignments a WHERE a.round_id = ?2 AND a.summary_id = i.summary_id AND a.user_id = ?3)
			ORDER BY i.dealt, i.shuffle LIMIT ?5`, st.ID, st.RoundID, p.UserID, st.Definition.K, want)
		if err != nil {
			return err
		}
		checks, err := dealChecks(ctx, tx, st, p, len(picks))
		if err != nil {
			return err
		}
		order := mixIn(picks, checks, st.Definition.Seed, p.Number)
		isCheck := map[int64]bool{}
		for _, c := range checks {
			isCheck[c] = true
		}
		byItem := st.Definition.Randomise == "item" && len(st.Definition.Conditions) > 1
		var dealt map[int64][]int
		if byItem {
			if dealt, err = itemConditionCounts(ctx, tx, st, picks); err != nil {
				return err
			}
		}
		for _, sum := range order {
			id, err := appendAssignment(ctx, tx, st.RoundID, sum, p.UserID)
			if err != nil {
				return err
			}
			// Randomised by participant, every item and check shows the
			// participant's condition; by item, each item its own, and
			// checks no assistant where the study has that condition.
			cond := p.Condition
			switch {
			case byItem && isCheck[sum]:
				cond = st.Definition.Conditions[0]
				if slices.Contains(st.Definition.Conditions, "none") {
					cond = "none"
				}
			case byItem:
				// Counterbalanced over the item's live assignments
				// (released ones aside): experiment.ItemConditionFor.
				counts := dealt[sum]
				c := experiment.ItemConditionFor(st.Definition.Seed, int(sum), counts)
				counts[c]++
				cond = st.Definition.Conditions[c]
			}
			if err := tasks.SetAssistanceTx(ctx, tx, id, ConditionAssistance(cond)); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO study_conditions (assignment_id, condition) VALUES (?, ?)`, id, cond); err != nil {
				return err
			}
			if isCheck[sum] {
				if _, err := tx.ExecContext(ctx, `INSERT INTO study_checks (assignment_id, participant_id) VALUES (?, ?)`, id, p.ID); err != nil {
					return err
				}
			}
		}
		held += len(picks)
		return nil
	})
	return held, domain.Op("Store.Deal", err)
}

// itemConditionCounts counts, for each of the items about to be dealt,
// its live assignments (released ones aside) in each of the study's
// conditions, in one query.
func itemConditionCounts(ctx context.Context, tx *sql.Tx, st *Study, items []int64) (map[int64][]int, error) {
	conds := st.Definition.Conditions
	out := make(map[int64][]int, len(items))
	for _, id := range items {
		out[id] = make([]int, len(conds))
	}
	list, err := json.Marshal(items)
	if err != nil {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT a.summary_id, c.condition FROM assignments a JOIN study_conditions c ON c.assignment_id = a.id
		WHERE a.round_id = ? AND a.status != 'released' AND a.summary_id IN (SELECT value FROM json_each(?))`, st.RoundID, string(list))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var c string
		if err := rows.Scan(&id, &c); err != nil {
			return nil, err
		}
		if i := slices.Index(conds, c); i >= 0 && out[id] != nil {
			out[id][i]++
		}
	}
	return out, rows.Err()
}

// ConditionAssistance is what an assistance condition shows on the
// labelling page: none hides the assistant; verdict shows the
// Adjudicator's label and report alone (a single view); debate shows the
// Advocate, the Skeptic and the Adjudicator; after shows the debate once
// the participant's first label of the sentence is saved.
func ConditionAssistance(condition string) domain.Assistance {
	switch condition {
	case "verdict":
		return domain.Assistance{Visibility: domain.AssistAlways, VerdictOnly: true}
	case "debate":
		return domain.Assistance{Visibility: domain.AssistAlways}
	case "after":
		return domain.Assistance{Visibility: domain.AssistAfterLabel}
	}
	return domain.Assistance{Visibility: domain.AssistNever}
}

// checksFor is how many attention checks go with n items at a study's
// rate: the share of all the participant's summaries that are checks,
// rounded, at least one when the rate is above zero.
func checksFor(n int, rate float64) int {
	if rate <= 0 || n <= 0 {
		return 0
	}
	return max(1, int(math.Round(rate*float64(n)/(1-rate))))
}

// dealChecks picks the attention checks to go with n new items: from the
// study's check summaries the participant does not have, in an order
// drawn from the participant's number.
func dealChecks(ctx context.Context, tx *sql.Tx, st *Study, p *Participant, n int) ([]int64, error) {
	rate := 0.0
	if st.Definition.AttentionRate != nil {
		rate = *st.Definition.AttentionRate
	}
	want := checksFor(n, rate)
	if want == 0 || st.Checks == 0 {
		return nil, nil
	}
	return tasks.IDList(ctx, tx, `SELECT i.summary_id FROM study_items i
		WHERE i.study_id = ?1 AND i.is_check = 1
		AND NOT EXISTS (SELECT 1 FROM assignments a WHERE a.round_id = ?2 AND a.summary_id = i.summary_id AND a.user_id = ?3)
		ORDER BY (i.summary_id * 2654435761 + ?4) % 4294967291 LIMIT ?5`, st.ID, st.RoundID, p.UserID, p.Number, want)
}

// mixIn puts the checks among the items at places drawn from the study's
// seed and the participant's number, so that nothing in their order tells
// a check apart.
func mixIn(items, checks []int64, seed uint64, number int) []int64 {
	out := append(append([]int64{}, items...), checks...)
	r := rand.New(rand.NewPCG(seed, uint64(number)+1<<40))
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// ItemConditions maps each item assignment of a project's studies to the
// assistance condition it was dealt in.
func (s *Store) ItemConditions(ctx context.Context, projectID int64) (map[int64]string, error) {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, `SELECT c.assignment_id, c.condition FROM study_conditions c
		JOIN assignments a ON a.id = c.assignment_id JOIN rounds r ON r.id = a.round_id WHERE r.project_id = ?`, projectID)
	if err != nil {
		return nil, domain.Op("Store.ItemConditions", err)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var id int64
		var c string
		if err := rows.Scan(&id, &c); err != nil {
			return nil, domain.Op("Store.ItemConditions", err)
		}
		out[id] = c
	}
	return out, domain.Op("Store.ItemConditions", rows.Err())
}

// DealScreening gives a participant the study's screening test, once: n
// of its summaries with gold, drawn by the participant's number. It
// returns the test's assignments in order.
func (s *Store) DealScreening(ctx context.Context, st *Study, p *Participant, n int) ([]CheckResult, error) {
	if err := s.dealGold(ctx, st, p, n, "screening"); err != nil {
		return nil, domain.Op("Store.DealScreening", err)
	}
	val, err := s.Screening(ctx, p.ID)
	return val, domain.Op("Store.DealScreening", err)
}

// DealTraining gives a participant the study's training items, once: n of
// its summaries with gold they have not had (their screening test's
// aside). It returns them in order.
func (s *Store) DealTraining(ctx context.Context, st *Study, p *Participant, n int) ([]CheckResult, error) {
	if err := s.dealGold(ctx, st, p, n, "training"); err != nil {
		return nil, domain.Op("Store.DealTraining", err)
	}
	val, err := s.Training(ctx, p.ID)
	return val, domain.Op("Store.DealTraining", err)
}

// dealGold deals n of the study's summaries with gold that the
// participant does not have, marked with the flag column (screening or
// training), with the assistant hidden; nothing when some are dealt
// already.
func (s *Store) dealGold(ctx context.Context, st *Study, p *Participant, n int, flag string) error {
	return s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		var have int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM study_checks WHERE participant_id = ? AND `+flag+` = 1`, p.ID).Scan(&have); err != nil {
			return err
		}
		if have > 0 {
			return nil
		}
		picks, err := tasks.IDList(ctx, tx, `SELECT i.summary_id FROM study_items i WHERE i.study_id = ?1 AND i.is_check = 1
			AND NOT EXISTS (SELECT 1 FROM assignments a WHERE a.round_id = ?4 AND a.summary_id = i.summary_id AND a.user_id = ?5)
			ORDER BY (i.summary_id * 2246822519 + ?2) % 4294967291 LIMIT ?3`, st.ID, p.Number, n, st.RoundID, p.UserID)
		if err != nil {
			return err
		}
		for _, sum := range picks {
			id, err := appendAssignment(ctx, tx, st.RoundID, sum, p.UserID)
			if err != nil {
				return err
			}
			if err := tasks.SetAssistanceTx(ctx, tx, id, domain.Assistance{Visibility: domain.AssistNever}); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO study_checks (assignment_id, participant_id, `+flag+`) VALUES (?, ?, 1)`, id, p.ID); err != nil {
				return err
			}
		}
		return nil
	})
}

// appendAssignment gives the summary to the participant in the study's
// round, at the end of their queue, and returns the assignment's id.
func appendAssignment(ctx context.Context, tx *sql.Tx, roundID, summaryID, userID int64) (int64, error) {
	res, err := tx.ExecContext(ctx, `INSERT INTO assignments (round_id, summary_id, user_id, position)
		VALUES (?, ?, ?, (SELECT coalesce(max(position), 0) + 1 FROM assignments WHERE user_id = ?))`, roundID, summaryID, userID, userID)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}
