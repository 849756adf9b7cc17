package tasks

import (
	"context"
	"database/sql"
	"fmt"

	"annotate"
)

// migrations are the ordered, append-only steps after the base schema.
// Step i brings the database from version i+1 to i+2. Never edit or reorder
// a step that has shipped; add a new one.
var migrations = []string{
	// 2: the adjudication queue and gold resolution find labels by sentence.
	`CREATE INDEX IF NOT EXISTS sentence_labels_sentence ON sentence_labels(sentence_id)`,
	// 3: accounts and rounds made by importing annotators' labels.
	`CREATE TABLE IF NOT EXISTS imported_users (
		user_id    INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
		project_id INTEGER REFERENCES projects(id) ON DELETE SET NULL,
		created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
	);
	CREATE TABLE IF NOT EXISTS imported_rounds (
		round_id   INTEGER PRIMARY KEY REFERENCES rounds(id) ON DELETE CASCADE,
		created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
	)`,
	// 4: annotators' values on a project's own rating scales.
	`CREATE TABLE IF NOT EXISTS scale_scores (
		assignment_id INTEGER NOT NULL REFERENCES assignments(id) ON DELETE CASCADE,
		sentence_id   INTEGER NOT NULL DEFAULT 0,
		scale         TEXT NOT NULL,
		value         TEXT NOT NULL,
		updated_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
		PRIMARY KEY (assignment_id, sentence_id, scale)
	)`,
	// 5: the id a document had in the annotation study it came from.
	`CREATE TABLE IF NOT EXISTS document_refs (
		document_id   INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
		annotation_id TEXT NOT NULL
	)`,
}

// SchemaVersion of a database this build creates.
const baseVersion = 1

// CurrentSchemaVersion is the user_version this build brings databases to.
func CurrentSchemaVersion() int { return baseVersion + len(migrations) }

func (s *Store) migrate(ctx context.Context) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		var v int
		if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
			return err
		}
		if v > CurrentSchemaVersion() {
			return fmt.Errorf("schema version %d is newer than this build knows (%d): use a newer annotate", v, CurrentSchemaVersion())
		}
		if v == 0 {
			if _, err := tx.ExecContext(ctx, annotate.Schema); err != nil {
				return fmt.Errorf("apply schema: %w", err)
			}
			v = baseVersion
		}
		for ; v < CurrentSchemaVersion(); v++ {
			if _, err := tx.ExecContext(ctx, migrations[v-baseVersion]); err != nil {
				return fmt.Errorf("migration to version %d: %w", v+1, err)
			}
		}
		_, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v))
		return err
	})
}
