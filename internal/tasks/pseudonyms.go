package tasks

import (
	"context"
	"strconv"
)

// Pseudonym is how the n-th person of a project (1-based) is named where
// names are hidden: "Annotator 1", "Annotator 2" and so on.
func Pseudonym(n int) string { return "Annotator " + strconv.Itoa(n) }

// Pseudonyms names the people of one project when names are hidden. Those
// who have held an assignment there come first, then the other members and
// whoever decided gold, each group in the order of account ids, so a person
// keeps one pseudonym on every page, report and export of the project.
type Pseudonyms struct {
	byID   map[int64]string
	byName map[string]string
}

// Add names the next person of the project: the pseudonym after those
// already given.
func (p *Pseudonyms) Add(id int64, username string) {
	if p.byID == nil {
		p.byID, p.byName = map[int64]string{}, map[string]string{}
	}
	alias := Pseudonym(len(p.byID) + 1)
	p.byID[id], p.byName[username] = alias, alias
}

// ID returns the pseudonym of a user id, or "" for someone outside the
// project.
func (p Pseudonyms) ID(id int64) string { return p.byID[id] }

// Username returns the pseudonym of a username, or "" for someone outside
// the project.
func (p Pseudonyms) Username(name string) string { return p.byName[name] }

// Pseudonyms numbers the people of a project.
func (s *Store) Pseudonyms(ctx context.Context, projectID int64) (Pseudonyms, error) {
	val, err := pseudonymsOf(ctx, s.read, projectID)
	return val, Op("Store.Pseudonyms", err)
}

// Pseudonyms numbers the people of the exported project from the export's
// snapshot, as Store.Pseudonyms does.
func (r *ExportReader) Pseudonyms(ctx context.Context) (Pseudonyms, error) {
	val, err := pseudonymsOf(ctx, r.tx, r.scope.ProjectID)
	return val, Op("ExportReader.Pseudonyms", err)
}

func pseudonymsOf(ctx context.Context, q querier, projectID int64) (Pseudonyms, error) {
	rows, err := q.QueryContext(ctx, `SELECT u.id, u.username FROM users u WHERE u.id IN (
			SELECT user_id FROM memberships WHERE project_id = ?1
			UNION SELECT a.user_id FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE r.project_id = ?1
			UNION SELECT g.decided_by FROM gold_sentences g JOIN summary_sentences ss ON ss.id = g.sentence_id
				JOIN summaries s ON s.id = ss.summary_id WHERE s.project_id = ?1 AND g.decided_by IS NOT NULL
			UNION SELECT g.decided_by FROM gold_summaries g JOIN summaries s ON s.id = g.summary_id
				WHERE s.project_id = ?1 AND g.decided_by IS NOT NULL)
		ORDER BY NOT EXISTS (SELECT 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE r.project_id = ?1 AND a.user_id = u.id), u.id`, projectID)
	if err != nil {
		return Pseudonyms{}, err
	}
	defer rows.Close()
	var p Pseudonyms
	for rows.Next() {
		var id int64
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			return Pseudonyms{}, err
		}
		p.Add(id, name)
	}
	return p, rows.Err()
}
