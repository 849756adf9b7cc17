package studies

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"

	"annotate/internal/domain"
	"annotate/internal/study"
	"annotate/internal/tasks"
)

// Study is a crowd study of a project.
type Study struct {
	ID, ProjectID, RoundID int64
	Name, RoundName        string
	Definition             study.Definition
	// EntryToken is the secret part of the public entry link.
	EntryToken string
	Open       bool
	CreatedAt  string
	// Items counts the summaries the study deals; Checks the summaries
	// with gold it mixes in as attention checks.
	Items, Checks int
}

// NewStudy is what Create stores.
type NewStudy struct {
	Name       string
	Definition study.Definition
	EntryToken string
	// Round is the round's id when it exists; else the study makes a
	// production round named Definition.Round over Summaries.
	Round     int64
	Summaries []int64
	// Checks are summaries with gold on every sentence, mixed into each
	// participant's work as attention checks; never dealt as items.
	Checks []int64
}

// Create stores a study, and its round when it does not exist yet.
func (s *Store) Create(ctx context.Context, projectID int64, n NewStudy) (*Study, error) {
	def, err := json.Marshal(n.Definition)
	if err != nil {
		return nil, domain.Op("Store.Create", err)
	}
	var id int64
	err = s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		var taken int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM studies WHERE project_id = ? AND name = ?`, projectID, n.Name).Scan(&taken); err != nil {
			return err
		}
		if taken > 0 {
			return domain.Errorf(domain.EConflict, "a study named %q already exists in this project", n.Name)
		}
		round := n.Round
		if round == 0 {
			res, err := tx.ExecContext(ctx, `INSERT INTO rounds (project_id, name, kind, per_item) VALUES (?, ?, ?, ?)`,
				projectID, n.Definition.Round, domain.RoundProduction, n.Definition.K)
			if err != nil {
				return err
			}
			if round, err = res.LastInsertId(); err != nil {
				return err
			}
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO studies (project_id, name, round_id, definition, entry_token) VALUES (?, ?, ?, ?, ?)`,
			projectID, n.Name, round, string(def), n.EntryToken)
		if err != nil {
			return err
		}
		if id, err = res.LastInsertId(); err != nil {
			return err
		}
		// The items, then the checks, go in one statement each, in id
		// order, with each item's order and count computed as it is
		// written. Written a statement per item in the round's order and
		// then set by a second pass, they took about 2.5 s of the 5.5-6.6 s a
		// study over a round of 200,000 assignments took to make (0.8 s
		// now). In id order the summaries, the round's assignments and
		// the items' key are each read or written front to back.
		for _, set := range []struct {
			ids   []int64
			check bool
		}{{n.Summaries, false}, {n.Checks, true}} {
			if len(set.ids) == 0 {
				continue
			}
			// Each item's place in the dealing order among items dealt
			// as often (drawn from the study's seed), and how often the
			// round has dealt it already.
			if _, err := tx.ExecContext(ctx, `INSERT INTO study_items (study_id, summary_id, is_check, shuffle, dealt)
				SELECT ?1, s.id, ?2, (s.id * 2654435761 + ?5) % 4294967291,
					(SELECT count(*) FROM assignments a WHERE a.round_id = ?6 AND a.summary_id = s.id AND a.status != 'released')
				FROM json_each(?3) j CROSS JOIN summaries s ON s.id = j.value WHERE s.project_id = ?4`,
				id, set.check, tasks.JSONIDs(slices.Sorted(slices.Values(set.ids))), projectID, int64(n.Definition.Seed%4294967291), round); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, domain.Op("Store.Create", err)
	}
	val, err := s.byQuery(ctx, `st.id = ?`, id)
	return val, domain.Op("Store.Create", err)
}

const studySelect = `SELECT st.id, st.project_id, st.round_id, st.name, r.name, st.definition, st.entry_token, st.open, st.created_at,
		(SELECT count(*) FROM study_items i WHERE i.study_id = st.id AND i.is_check = 0),
		(SELECT count(*) FROM study_items i WHERE i.study_id = st.id AND i.is_check = 1)
	FROM studies st JOIN rounds r ON r.id = st.round_id WHERE `

func (s *Store) byQuery(ctx context.Context, cond string, args ...any) (*Study, error) {
	list, err := s.list(ctx, cond, args...)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, domain.Errorf(domain.ENotFound, "study not found")
	}
	return &list[0], nil
}

func (s *Store) list(ctx context.Context, cond string, args ...any) ([]Study, error) {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, studySelect+cond+` ORDER BY st.id`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Study
	for rows.Next() {
		var st Study
		var def string
		if err := rows.Scan(&st.ID, &st.ProjectID, &st.RoundID, &st.Name, &st.RoundName, &def, &st.EntryToken, &st.Open, &st.CreatedAt, &st.Items, &st.Checks); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(def), &st.Definition); err != nil {
			return nil, fmt.Errorf("study %d: definition: %w", st.ID, err)
		}
		out = append(out, st)
	}
	return out, rows.Err()
}

// ByName returns a project's study by name.
func (s *Store) ByName(ctx context.Context, projectID int64, name string) (*Study, error) {
	val, err := s.byQuery(ctx, `st.project_id = ? AND st.name = ?`, projectID, name)
	return val, domain.Op("Store.ByName", err)
}

// ByToken returns the study whose entry link holds token.
func (s *Store) ByToken(ctx context.Context, token string) (*Study, error) {
	val, err := s.byQuery(ctx, `st.entry_token = ?`, token)
	return val, domain.Op("Store.ByToken", err)
}

// ByID returns a study by id.
func (s *Store) ByID(ctx context.Context, id int64) (*Study, error) {
	val, err := s.byQuery(ctx, `st.id = ?`, id)
	return val, domain.Op("Store.ByID", err)
}

// List returns a project's studies, oldest first.
func (s *Store) List(ctx context.Context, projectID int64) ([]Study, error) {
	val, err := s.list(ctx, `st.project_id = ?`, projectID)
	return val, domain.Op("Store.List", err)
}

// SetEntry replaces a study's entry token (revoking the old link) and
// opens or closes entry.
func (s *Store) SetEntry(ctx context.Context, studyID int64, token string, open bool) error {
	return domain.Op("Store.SetEntry", s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE studies SET entry_token = ?, open = ? WHERE id = ?`, token, open, studyID)
		return err
	}))
}
