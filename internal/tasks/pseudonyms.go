package tasks

import (
	"context"

	"annotate/internal/domain"
)

// Pseudonyms numbers the people of a project, inside a Snapshot from the
// snapshot's transaction: a page that holds one read connection must not
// wait for a second (with every connection so held, none would come).
func (s *Store) Pseudonyms(ctx context.Context, projectID int64) (domain.Pseudonyms, error) {
	val, err := pseudonymsOf(ctx, s.reader(ctx), projectID)
	return val, domain.Op("Store.Pseudonyms", err)
}

// Pseudonyms numbers the people of the exported project from the export's
// snapshot, as Store.Pseudonyms does.
func (r *ExportReader) Pseudonyms(ctx context.Context) (domain.Pseudonyms, error) {
	val, err := pseudonymsOf(ctx, r.tx, r.scope.ProjectID)
	return val, domain.Op("ExportReader.Pseudonyms", err)
}

func pseudonymsOf(ctx context.Context, q querier, projectID int64) (domain.Pseudonyms, error) {
	rows, err := q.QueryContext(ctx, `SELECT u.id, u.username FROM users u WHERE u.id IN (
			SELECT user_id FROM memberships WHERE project_id = ?1
			UNION SELECT a.user_id FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE r.project_id = ?1
			UNION SELECT g.decided_by FROM gold_sentences g JOIN summary_sentences ss ON ss.id = g.sentence_id
				JOIN summaries s ON s.id = ss.summary_id WHERE s.project_id = ?1 AND g.decided_by IS NOT NULL
			UNION SELECT g.decided_by FROM gold_summaries g JOIN summaries s ON s.id = g.summary_id
				WHERE s.project_id = ?1 AND g.decided_by IS NOT NULL)
		ORDER BY NOT EXISTS (SELECT 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE r.project_id = ?1 AND a.user_id = u.id), u.id`, projectID)
	if err != nil {
		return domain.Pseudonyms{}, err
	}
	defer rows.Close()
	var p domain.Pseudonyms
	for rows.Next() {
		var id int64
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			return domain.Pseudonyms{}, err
		}
		p.Add(id, name)
	}
	return p, rows.Err()
}
