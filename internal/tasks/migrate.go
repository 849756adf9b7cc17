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
	// 3: personal access tokens for the JSON API.
	`CREATE TABLE IF NOT EXISTS api_tokens (
    id           INTEGER PRIMARY KEY,
    user_id      INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    hash         BLOB NOT NULL UNIQUE,
    hint         TEXT NOT NULL,
    read_only    INTEGER NOT NULL DEFAULT 0,
    expires_at   TEXT NOT NULL,
    created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    last_used_at TEXT,
    revoked_at   TEXT,
    revoked_by   INTEGER REFERENCES users(id)
);
CREATE INDEX IF NOT EXISTS api_tokens_user ON api_tokens(user_id);
CREATE TABLE IF NOT EXISTS api_token_projects (
    token_id   INTEGER NOT NULL REFERENCES api_tokens(id) ON DELETE CASCADE,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    PRIMARY KEY (token_id, project_id)
);`,
	// 4: webhooks and their deliveries.
	`CREATE TABLE IF NOT EXISTS webhooks (
    id          INTEGER PRIMARY KEY,
    project_id  INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    url         TEXT NOT NULL,
    secret      TEXT NOT NULL,
    events      TEXT NOT NULL,
    gold_cursor INTEGER NOT NULL DEFAULT 0,
    created_by  INTEGER REFERENCES users(id),
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE TABLE IF NOT EXISTS webhook_deliveries (
    id              INTEGER PRIMARY KEY,
    webhook_id      INTEGER NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
    event           TEXT NOT NULL,
    event_key       TEXT NOT NULL,
    payload         TEXT NOT NULL,
    status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed', 'skipped')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    last_status     INTEGER NOT NULL DEFAULT 0,
    last_error      TEXT NOT NULL DEFAULT '',
    created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    delivered_at    TEXT,
    UNIQUE (webhook_id, event, event_key)
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries(status, next_attempt_at);`,
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
