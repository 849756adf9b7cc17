package studies

import (
	"context"

	"annotate/internal/domain"
)

// Study figures count gold that is independent of the study's own
// labels: imported with the data, or decided by an adjudicator. Gold that
// resolution made from agreeing labels (unanimous, or a majority a lead
// accepted) may have been made from the very participants it would score,
// so it is left out.

// Observation is one label of an experiment: a participant's submitted
// faithfulness label of an item's sentence that has gold, with the
// assistant's label where a run has one. Excluded participants, attention
// checks and the screening test are left out.
type Observation struct {
	Participant, Sentence int64
	Condition, Label      string
	Gold, Assistant       string
	// Seconds is the item's active time shared over its sentences.
	Seconds float64
}

// CrowdLabel is one kept participant's submitted faithfulness label of
// a study item's sentence, with the sentence's gold where it has one
// (empty otherwise): what crowd aggregation weighs.
type CrowdLabel struct {
	Participant int64
	Number      int // the participant's number, from 0
	Sentence    int64
	Label, Gold string
}

// CrowdLabels reads the faithful and unfaithful labels of a study's item
// sentences by its participants who are not excluded; attention checks,
// the screening test and training are left out.
func (s *Store) CrowdLabels(ctx context.Context, st *Study) ([]CrowdLabel, error) {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, `SELECT sp.id, sp.number, l.sentence_id, l.label,
			coalesce((SELECT g.label FROM gold_sentences g WHERE g.sentence_id = l.sentence_id AND g.provenance IN ('imported', 'adjudicated')
				AND g.label IN ('faithful', 'unfaithful')), '')
		FROM study_participants sp
		JOIN assignments a ON a.user_id = sp.user_id AND a.round_id = ?1 AND a.status = 'submitted'
		JOIN sentence_labels l ON l.assignment_id = a.id AND l.label IN ('faithful', 'unfaithful')
		WHERE sp.study_id = ?2 AND sp.excluded = 0
			AND NOT EXISTS (SELECT 1 FROM study_checks c WHERE c.assignment_id = a.id)
		ORDER BY sp.id, l.sentence_id`, st.RoundID, st.ID)
	if err != nil {
		return nil, domain.Op("Store.CrowdLabels", err)
	}
	defer rows.Close()
	var out []CrowdLabel
	for rows.Next() {
		var c CrowdLabel
		if err := rows.Scan(&c.Participant, &c.Number, &c.Sentence, &c.Label, &c.Gold); err != nil {
			return nil, domain.Op("Store.CrowdLabels", err)
		}
		out = append(out, c)
	}
	return out, domain.Op("Store.CrowdLabels", rows.Err())
}

// Observations reads a study's experiment observations.
func (s *Store) Observations(ctx context.Context, st *Study) ([]Observation, error) {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, `SELECT sp.id, l.sentence_id, coalesce(sc.condition, sp.condition), l.label, g.label,
			coalesce((SELECT o.label FROM assist_outputs o JOIN assist_runs r ON r.id = o.run_id
				WHERE o.sentence_id = l.sentence_id AND o.status = 'ok' AND o.label != '' ORDER BY r.sample, r.id DESC LIMIT 1), ''),
			CAST(a.active_seconds AS REAL) / (SELECT count(*) FROM summary_sentences ss WHERE ss.summary_id = a.summary_id)
		FROM study_participants sp
		JOIN assignments a ON a.user_id = sp.user_id AND a.round_id = ?1 AND a.status = 'submitted'
		LEFT JOIN study_conditions sc ON sc.assignment_id = a.id
		JOIN sentence_labels l ON l.assignment_id = a.id AND l.label IN ('faithful', 'unfaithful')
		JOIN gold_sentences g ON g.sentence_id = l.sentence_id AND g.provenance IN ('imported', 'adjudicated') AND g.label IN ('faithful', 'unfaithful')
		WHERE sp.study_id = ?2 AND sp.excluded = 0
			AND NOT EXISTS (SELECT 1 FROM study_checks c WHERE c.assignment_id = a.id)
		ORDER BY sp.id, l.sentence_id`, st.RoundID, st.ID)
	if err != nil {
		return nil, domain.Op("Store.Observations", err)
	}
	defer rows.Close()
	var out []Observation
	for rows.Next() {
		var o Observation
		if err := rows.Scan(&o.Participant, &o.Sentence, &o.Condition, &o.Label, &o.Gold, &o.Assistant, &o.Seconds); err != nil {
			return nil, domain.Op("Store.Observations", err)
		}
		out = append(out, o)
	}
	return out, domain.Op("Store.Observations", rows.Err())
}
