package tasks

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"

	"annotate/internal/domain"
)

// querier is what both *sql.Tx and *sql.DB offer for reads.
type querier interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
	QueryRowContext(context.Context, string, ...any) *sql.Row
}

const goldColumns = `g.sentence_id, g.label, g.error_types, g.explanation, g.ambiguous, g.ambiguity_type, g.ambiguity_note,
	g.provenance, coalesce(g.decided_by, 0), coalesce(u.display_name, ''), g.decided_at, g.note, g.version`

const goldFrom = ` FROM gold_sentences g LEFT JOIN users u ON u.id = g.decided_by`

func scanGold(row interface{ Scan(...any) error }) (*domain.Gold, error) {
	var g domain.Gold
	var types string
	var amb sql.NullBool
	if err := row.Scan(&g.SentenceID, &g.Label, &types, &g.Explanation, &amb, &g.AmbiguityType, &g.AmbiguityNote,
		&g.Provenance, &g.DecidedBy, &g.DecidedByName, &g.DecidedAt, &g.Note, &g.Version); err != nil {
		return nil, err
	}
	if amb.Valid {
		g.Ambiguous = &amb.Bool
	}
	if err := json.Unmarshal([]byte(types), &g.ErrorTypes); err != nil {
		return nil, err
	}
	return &g, nil
}

// goldOf returns a sentence's gold, or nil when it has none.
func goldOf(ctx context.Context, q querier, sentenceID int64) (*domain.Gold, error) {
	g, err := scanGold(q.QueryRowContext(ctx, `SELECT `+goldColumns+goldFrom+` WHERE g.sentence_id = ?`, sentenceID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return g, err
}

// SummaryGold returns the gold of a summary's sentences, keyed by
// sentence id; sentences without gold are absent.
func (s *Store) SummaryGold(ctx context.Context, summaryID int64) (map[int64]domain.Gold, error) {
	val, err := summaryGold(ctx, s.reader(ctx), summaryID)
	return val, domain.Op("Store.SummaryGold", err)
}

func summaryGold(ctx context.Context, q querier, summaryID int64) (map[int64]domain.Gold, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+goldColumns+goldFrom+` JOIN summary_sentences ss ON ss.id = g.sentence_id WHERE ss.summary_id = ?`, summaryID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]domain.Gold{}
	for rows.Next() {
		g, err := scanGold(rows)
		if err != nil {
			return nil, err
		}
		out[g.SentenceID] = *g
	}
	return out, rows.Err()
}

// writeGold stores a sentence's gold and appends it to the gold history.
// With onlyAutomatic, it writes only over no gold or gold that
// auto-resolution owns (see Gold.automatic), and reports false when it
// left the row alone.
func (s *Store) writeGold(ctx context.Context, tx txQuerier, g domain.Gold, onlyAutomatic bool) (bool, error) {
	g.ErrorTypes = domain.NonNil(g.ErrorTypes)
	types, _ := json.Marshal(g.ErrorTypes)
	var amb, by any
	if g.Ambiguous != nil {
		amb = *g.Ambiguous
	}
	if g.DecidedBy != 0 {
		by = g.DecidedBy
	}
	g.DecidedAt = stamp(s.now())
	q := `INSERT INTO gold_sentences (sentence_id, label, error_types, explanation, ambiguous, ambiguity_type, ambiguity_note,
			provenance, decided_by, decided_at, note, version)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)
		ON CONFLICT (sentence_id) DO UPDATE SET label = excluded.label, error_types = excluded.error_types,
			explanation = excluded.explanation, ambiguous = excluded.ambiguous, ambiguity_type = excluded.ambiguity_type,
			ambiguity_note = excluded.ambiguity_note, provenance = excluded.provenance, decided_by = excluded.decided_by,
			decided_at = excluded.decided_at, note = excluded.note, version = gold_sentences.version + 1`
	if onlyAutomatic {
		q += ` WHERE gold_sentences.provenance = 'unanimous' OR (gold_sentences.provenance = 'unresolved' AND gold_sentences.decided_by IS NULL)`
	}
	res, err := tx.ExecContext(ctx, q, g.SentenceID, g.Label, string(types), g.Explanation, amb, g.AmbiguityType, g.AmbiguityNote,
		g.Provenance, by, g.DecidedAt, g.Note)
	if err != nil {
		return false, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, nil
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO gold_history (sentence_id, data, decided_by, created_at) VALUES (?, ?, ?, ?)`,
		g.SentenceID, goldHistoryData(&g), by, g.DecidedAt)
	return err == nil, err
}

// goldTarget is a sentence being adjudicated with its summary and project.
type goldTarget struct {
	summary  int64
	settings domain.Settings
}

func goldSentence(ctx context.Context, tx *sql.Tx, projectID, sentenceID int64) (goldTarget, error) {
	var t goldTarget
	var raw string
	err := tx.QueryRowContext(ctx, `SELECT ss.summary_id, p.settings FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id
		JOIN projects p ON p.id = s.project_id WHERE ss.id = ? AND p.id = ?`, sentenceID, projectID).Scan(&t.summary, &raw)
	if errors.Is(err, sql.ErrNoRows) {
		return t, domain.Errorf(domain.ENotFound, "sentence not found in this project")
	}
	if err != nil {
		return t, err
	}
	t.settings, err = decodeSettings(raw)
	return t, err
}

// goldVersion is the number of gold changes of a sentence, kept on its
// gold row; a page sends back the version it showed so that two
// adjudicators cannot overwrite each other's decision unseen.
func goldVersion(ctx context.Context, q querier, sentenceID int64) (int, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT coalesce((SELECT version FROM gold_sentences WHERE sentence_id = ?), 0)`, sentenceID).Scan(&n)
	return n, err
}

// GoldVersions returns the gold version (see SetGold) of each sentence of a
// summary. SummaryGold carries the same versions with the gold itself,
// read together; a page showing gold should take them from there.
func (s *Store) GoldVersions(ctx context.Context, summaryID int64) (map[int64]int, error) {
	rows, err := s.reader(ctx).QueryContext(ctx, `SELECT ss.id, coalesce(g.version, 0)
		FROM summary_sentences ss LEFT JOIN gold_sentences g ON g.sentence_id = ss.id WHERE ss.summary_id = ?`, summaryID)
	if err != nil {
		return nil, domain.Op("Store.GoldVersions", err)
	}
	defer rows.Close()
	out := map[int64]int{}
	for rows.Next() {
		var id int64
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return nil, domain.Op("Store.GoldVersions", err)
		}
		out[id] = n
	}
	return out, domain.Op("Store.GoldVersions", rows.Err())
}

func checkGoldVersion(ctx context.Context, tx *sql.Tx, sentenceID int64, version int) error {
	if version < 0 {
		return nil
	}
	n, err := goldVersion(ctx, tx, sentenceID)
	if err != nil {
		return err
	}
	if n != version {
		return domain.Errorf(domain.EConflict, "the gold label of this sentence was changed elsewhere; reload to see the latest decision")
	}
	return nil
}

// SetGold records an adjudicator's decision on a sentence of the project:
// provenance adjudicated, by userID, now, with the note. It replaces gold
// of any provenance (an adjudicator may correct imported gold too); the
// annotators' labels are not touched. version is the gold version the
// adjudicator saw (see GoldVersions); a different one means someone else
// decided meanwhile and the decision is refused with EConflict. A negative
// version skips the check.
func (s *Store) SetGold(ctx context.Context, projectID, sentenceID, userID int64, version int, d domain.GoldDecision) (*domain.Gold, error) {
	var out *domain.Gold
	err := s.tx(ctx, func(tx *sql.Tx) error {
		t, err := goldSentence(ctx, tx, projectID, sentenceID)
		if err != nil {
			return err
		}
		if err := d.Validate(t.settings); err != nil {
			return err
		}
		if err := checkGoldVersion(ctx, tx, sentenceID, version); err != nil {
			return err
		}
		if err := keepImported(ctx, tx, sentenceID); err != nil {
			return err
		}
		g := domain.Gold{SentenceID: sentenceID, GoldValues: d.GoldValues, Provenance: domain.ProvAdjudicated, DecidedBy: userID, Note: d.Note}
		if _, err := s.writeGold(ctx, tx, g, false); err != nil {
			return err
		}
		if err := s.deriveSummaryGold(ctx, tx, t.summary); err != nil {
			return err
		}
		out, err = goldOf(ctx, tx, sentenceID)
		return err
	})
	return out, domain.Op("Store.SetGold", err)
}

// Reopen sends a sentence back to adjudication: its gold becomes
// unresolved, marked as reopened by userID with the note, and the summary's
// derived gold is withdrawn. The earlier decision stays in the history.
// Auto-resolution does not resolve a reopened sentence again; only an
// adjudicator's decision does.
func (s *Store) Reopen(ctx context.Context, projectID, sentenceID, userID int64, version int, note string) error {
	if err := domain.CheckText("reopen note", note, domain.MaxNoteLen, true); err != nil {
		return domain.Op("Store.Reopen", err)
	}
	return domain.Op("Store.Reopen", s.tx(ctx, func(tx *sql.Tx) error {
		t, err := goldSentence(ctx, tx, projectID, sentenceID)
		if err != nil {
			return err
		}
		if err := checkGoldVersion(ctx, tx, sentenceID, version); err != nil {
			return err
		}
		cur, err := goldOf(ctx, tx, sentenceID)
		if err != nil {
			return err
		}
		if cur != nil && cur.Reopened() {
			return domain.Errorf(domain.EConflict, "this sentence is already open for adjudication")
		}
		if err := keepImported(ctx, tx, sentenceID); err != nil {
			return err
		}
		g := domain.Gold{SentenceID: sentenceID, GoldValues: domain.GoldValues{ErrorTypes: []string{}}, Provenance: domain.ProvUnresolved, DecidedBy: userID, Note: strings.TrimSpace(note)}
		if _, err := s.writeGold(ctx, tx, g, false); err != nil {
			return err
		}
		return s.deriveSummaryGold(ctx, tx, t.summary)
	}))
}

// keepImported records a sentence's imported gold in its history before
// a person replaces it: the import wrote no history row, so the imported
// label would otherwise be lost.
func keepImported(ctx context.Context, tx *sql.Tx, sentenceID int64) error {
	cur, err := goldOf(ctx, tx, sentenceID)
	if err != nil || cur == nil || cur.Provenance != domain.ProvImported {
		return err
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM gold_history WHERE sentence_id = ?`, sentenceID).Scan(&n); err != nil || n > 0 {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO gold_history (sentence_id, data, decided_by, created_at) VALUES (?, ?, NULL, ?)`,
		sentenceID, goldHistoryData(cur), cur.DecidedAt)
	return err
}
