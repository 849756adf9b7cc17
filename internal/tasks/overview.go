package tasks

import (
	"context"

	"annotate/internal/domain"
)

// ProjectOverview returns the counts behind a project's overview page.
//
// The sentences and the sentences with a gold label are read from
// project_counts and project_gold, which triggers keep. The
// assignments given out (not released) and submitted are summed from
// queue_blocks, which triggers keep per annotator, round and block of the
// queue, rather than counted: 0.5 ms instead of 230 ms for 600,600
// assignments.
func (s *Store) ProjectOverview(ctx context.Context, projectID int64) (domain.Overview, error) {
	var o domain.Overview
	err := s.reader(ctx).QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM documents WHERE project_id = ?1),
		(SELECT count(*) FROM summaries WHERE project_id = ?1),
		coalesce((SELECT sentences FROM project_counts WHERE project_id = ?1), 0),
		(SELECT count(*) FROM key_facts k JOIN documents d ON d.id = k.document_id WHERE d.project_id = ?1),
		(SELECT count(*) FROM rounds WHERE project_id = ?1),
		(SELECT coalesce(sum(b.total), 0) FROM queue_blocks b WHERE b.round_id IN (SELECT id FROM rounds WHERE project_id = ?1)),
		(SELECT coalesce(sum(b.done), 0) FROM queue_blocks b WHERE b.round_id IN (SELECT id FROM rounds WHERE project_id = ?1)),
		coalesce((SELECT gold FROM project_gold WHERE project_id = ?1), 0),
		(SELECT count(*) FROM memberships WHERE project_id = ?1)`, projectID).
		Scan(&o.Documents, &o.Summaries, &o.Sentences, &o.KeyFacts, &o.Rounds, &o.Assignments, &o.Submitted, &o.GoldSentences, &o.Members)
	return o, domain.Op("Store.ProjectOverview", err)
}

// DocumentRows lists a project's documents with their counts, in import
// order, at most limit rows after offset.
func (s *Store) DocumentRows(ctx context.Context, projectID int64, limit, offset int) ([]domain.DocumentRow, error) {
	rows, err := s.reader(ctx).QueryContext(ctx, `
		SELECT d.id, d.external_id, d.kind, d.language, d.domain,
			(SELECT count(*) FROM document_units u WHERE u.document_id = d.id),
			(SELECT count(*) FROM summaries s WHERE s.document_id = d.id),
			(SELECT count(*) FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id WHERE s.document_id = d.id),
			(SELECT count(*) FROM key_facts k WHERE k.document_id = d.id),
			(SELECT count(DISTINCT topic) FROM summaries s WHERE s.document_id = d.id AND topic != '')
		FROM documents d WHERE d.project_id = ? ORDER BY d.id LIMIT ? OFFSET ?`, projectID, limit, offset)
	if err != nil {
		return nil, domain.Op("Store.DocumentRows", err)
	}
	defer rows.Close()
	var out []domain.DocumentRow
	for rows.Next() {
		var r domain.DocumentRow
		if err := rows.Scan(&r.ID, &r.ExternalID, &r.Kind, &r.Language, &r.Domain, &r.Units, &r.Summaries, &r.Sentences, &r.KeyFacts, &r.Topics); err != nil {
			return nil, domain.Op("Store.DocumentRows", err)
		}
		out = append(out, r)
	}
	return out, domain.Op("Store.DocumentRows", rows.Err())
}

// SentenceCount is the number of the project's summary sentences, from
// project_counts (kept by triggers): the assistant's page and runs need it
// alone, where ProjectOverview also counts the project's gold (0.17 s on
// the 1.5M-label project).
func (s *Store) SentenceCount(ctx context.Context, projectID int64) (int, error) {
	var n int
	err := s.reader(ctx).QueryRowContext(ctx, `SELECT coalesce((SELECT sentences FROM project_counts WHERE project_id = ?), 0)`, projectID).Scan(&n)
	return n, domain.Op("Store.SentenceCount", err)
}
