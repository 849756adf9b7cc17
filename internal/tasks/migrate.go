package tasks

import (
	"context"
	"database/sql"
	_ "embed"
	"errors"
	"fmt"
)

// baseSchema is the schema of version 1, the first release. A fresh
// database gets it and then every migration, so the migrations are the
// one source of the schema; schema.sql at the module's root is written
// from them for reading (see TestSchemaFileIsCurrent).
//
//go:embed schema_v1.sql
var baseSchema string

// migrations are the ordered, append-only steps after the base schema.
// Step i brings the database from version i+1 to i+2. Never edit or reorder
// a step that has shipped; add a new one, then regenerate schema.sql
// (go generate ./internal/tasks).
var migrations = []string{
	// 2: the adjudication queue and gold resolution find labels by sentence.
	`CREATE INDEX IF NOT EXISTS sentence_labels_sentence ON sentence_labels(sentence_id)`,
	// 3: server-side sessions, revocable; the cookie holds a token whose hash is kept here.
	`CREATE TABLE IF NOT EXISTS sessions (
    id           INTEGER PRIMARY KEY,
    token_hash   BLOB NOT NULL UNIQUE,
    user_id      INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    csrf         TEXT NOT NULL,
    data         TEXT NOT NULL DEFAULT '{}',
    address      TEXT NOT NULL DEFAULT '',
    user_agent   TEXT NOT NULL DEFAULT '',
    created_at   TEXT NOT NULL,
    last_seen_at TEXT NOT NULL,
    expires_at   TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_user ON sessions(user_id);
DELETE FROM secrets WHERE name IN ('session-hash-key', 'session-block-key');`,
	// 4: when each assignment last reported active time.
	`CREATE TABLE IF NOT EXISTS assignment_activity (
    assignment_id  INTEGER PRIMARY KEY REFERENCES assignments(id) ON DELETE CASCADE,
    last_report_at TEXT NOT NULL
);`,
	// 5: one-time password links made by administrators.
	`CREATE TABLE IF NOT EXISTS password_resets (
    token_hash BLOB PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
    expires_at TEXT NOT NULL
);`,
	// 6: an index for every lookup and foreign key the pages use, and a
	// gold version kept on the row instead of counted from its history.
	`CREATE INDEX IF NOT EXISTS assignments_queue ON assignments(user_id, position, status, round_id);
	CREATE INDEX IF NOT EXISTS sentence_label_history_sentence ON sentence_label_history(sentence_id);
	CREATE INDEX IF NOT EXISTS keyfact_labels_sentence ON keyfact_labels(sentence_id, key_fact_id);
	CREATE INDEX IF NOT EXISTS keyfact_labels_key_fact ON keyfact_labels(key_fact_id);
	CREATE INDEX IF NOT EXISTS gold_history_sentence ON gold_history(sentence_id);
	CREATE INDEX IF NOT EXISTS gold_sentences_unresolved ON gold_sentences(sentence_id) WHERE provenance = 'unresolved';
	CREATE INDEX IF NOT EXISTS assist_runs_project ON assist_runs(project_id);
	CREATE INDEX IF NOT EXISTS assist_outputs_sentence ON assist_outputs(sentence_id);
	ALTER TABLE gold_sentences ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
	UPDATE gold_sentences SET version = (SELECT count(*) FROM gold_history h WHERE h.sentence_id = gold_sentences.sentence_id);
	ANALYZE;`,
	// 7: how each round was dealt (balanced or by document) and sampled.
	// Rounds without a row predate it and were dealt by document.
	`CREATE TABLE IF NOT EXISTS round_dealing (
		round_id INTEGER PRIMARY KEY REFERENCES rounds(id) ON DELETE CASCADE,
		dealing  TEXT NOT NULL CHECK (dealing IN ('balanced', 'by_document')),
		seed     INTEGER NOT NULL DEFAULT 0,
		sample   INTEGER NOT NULL DEFAULT 0
	)`,
	// 8: personal access tokens for the JSON API.
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
	// 9: a per-project change counter for caching the agreement report.
	reportVersionsSQL,
	// 10: annotators skip a summary with a reason and flag sentences for leads.
	skipsAndFlagsSchema,
	// 11: accounts and rounds made by importing annotators' labels.
	`CREATE TABLE IF NOT EXISTS imported_users (
		user_id    INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
		project_id INTEGER REFERENCES projects(id) ON DELETE SET NULL,
		created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
	);
	CREATE TABLE IF NOT EXISTS imported_rounds (
		round_id   INTEGER PRIMARY KEY REFERENCES rounds(id) ON DELETE CASCADE,
		created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
	)`,
	// 12: annotators' values on a project's own rating scales.
	`CREATE TABLE IF NOT EXISTS scale_scores (
		assignment_id INTEGER NOT NULL REFERENCES assignments(id) ON DELETE CASCADE,
		sentence_id   INTEGER NOT NULL DEFAULT 0,
		scale         TEXT NOT NULL,
		value         TEXT NOT NULL,
		updated_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
		PRIMARY KEY (assignment_id, sentence_id, scale)
	)`,
	// 13: the id a document had in the annotation study it came from.
	`CREATE TABLE IF NOT EXISTS document_refs (
		document_id   INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
		annotation_id TEXT NOT NULL
	)`,
	// 14: webhooks and their deliveries.
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
	// 15: the change counter follows scale values, flags, skips and
	// document metadata, which exports read.
	exportVersionsSQL,
	// 16: a counter per project of changes to what rounds give out, for
	// the adjudication queue's counts; replaced by a counter per round in
	// 31, which drops what this made.
	`SELECT 1`,
	// 17: assistant runs are leased by the process running them.
	`ALTER TABLE assist_runs ADD COLUMN lease_owner TEXT NOT NULL DEFAULT '';
ALTER TABLE assist_runs ADD COLUMN lease_until TEXT;`,
	// 18: a sentence keeps its number in the published file it came from.
	`ALTER TABLE summary_sentences ADD COLUMN source_index INTEGER;`,
	// 19: labels given on a text that a re-import replaced are kept, with
	// the text they were given on.
	`CREATE TABLE IF NOT EXISTS stale_labels (
    id            INTEGER PRIMARY KEY,
    project_id    INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    document      TEXT NOT NULL,    -- external ids and number, as exports name the sentence
    summary       TEXT NOT NULL,
    sentence      INTEGER NOT NULL,
    sentence_text TEXT NOT NULL,    -- the text the annotator labelled
    user_id       INTEGER NOT NULL REFERENCES users(id),
    round         TEXT NOT NULL,
    data          TEXT NOT NULL,    -- the label as JSON
    saved_at      TEXT NOT NULL,
    reason        TEXT NOT NULL,
    replaced_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX IF NOT EXISTS stale_labels_project ON stale_labels(project_id, id);`,
	// 20: crowd studies: a round dealt to participants who enter by a
	// public link from a recruitment platform.
	`CREATE TABLE IF NOT EXISTS studies (
    id          INTEGER PRIMARY KEY,
    project_id  INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    round_id    INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    definition  TEXT NOT NULL,          -- the study definition as JSON, defaults filled
    entry_token TEXT NOT NULL UNIQUE,   -- the secret of the public entry link; replaced to revoke it
    open        INTEGER NOT NULL DEFAULT 1,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (project_id, name)
);
CREATE TABLE IF NOT EXISTS study_items (
    study_id   INTEGER NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
    summary_id INTEGER NOT NULL REFERENCES summaries(id) ON DELETE CASCADE,
    PRIMARY KEY (study_id, summary_id)
);
CREATE TABLE IF NOT EXISTS study_participants (
    id             INTEGER PRIMARY KEY,
    study_id       INTEGER NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
    user_id        INTEGER NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE,
    number         INTEGER NOT NULL,   -- order of entry from 0, which randomisation uses
    platform       TEXT NOT NULL,      -- prolific, mturk or pid
    platform_id    TEXT NOT NULL,      -- personal data: stored here only
    platform_refs  TEXT NOT NULL DEFAULT '{}', -- the platform's study, session, assignment and HIT ids, as JSON
    condition      TEXT NOT NULL,
    phase          TEXT NOT NULL,      -- consent, instructions, work, completed, no_consent
    entered_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    finished_at    TEXT,
    UNIQUE (study_id, platform, platform_id),
    UNIQUE (study_id, number)
);`,
	// 21: an assignment may show the assistant otherwise than its
	// project does (a study's assistance condition).
	`CREATE TABLE IF NOT EXISTS assignment_assistance (
    assignment_id INTEGER PRIMARY KEY REFERENCES assignments(id) ON DELETE CASCADE,
    visibility    TEXT NOT NULL,               -- always, after_first_label or never
    verdict_only  INTEGER NOT NULL DEFAULT 0   -- the Adjudicator's verdict alone, without the debate
);`,
	// 22: attention checks and exclusions in crowd studies.
	`ALTER TABLE study_items ADD COLUMN is_check INTEGER NOT NULL DEFAULT 0;
ALTER TABLE study_participants ADD COLUMN excluded INTEGER NOT NULL DEFAULT 0;
ALTER TABLE study_participants ADD COLUMN excluded_why TEXT NOT NULL DEFAULT '';
CREATE TABLE IF NOT EXISTS study_checks (
    assignment_id  INTEGER PRIMARY KEY REFERENCES assignments(id) ON DELETE CASCADE,
    participant_id INTEGER NOT NULL REFERENCES study_participants(id) ON DELETE CASCADE,
    passed         INTEGER                  -- NULL until the item is submitted
);
CREATE INDEX IF NOT EXISTS study_checks_participant ON study_checks(participant_id);`,
	// 23: a study's screening test, taken on summaries with gold before
	// any item.
	`ALTER TABLE study_checks ADD COLUMN screening INTEGER NOT NULL DEFAULT 0;`,
	// 24: a study's exclusions can be undone, and each decision is kept.
	`CREATE TABLE IF NOT EXISTS study_released (
    assignment_id  INTEGER PRIMARY KEY REFERENCES assignments(id) ON DELETE CASCADE,
    participant_id INTEGER NOT NULL REFERENCES study_participants(id) ON DELETE CASCADE,
    status         TEXT NOT NULL          -- the assignment's status before the exclusion released it
);
CREATE INDEX IF NOT EXISTS study_released_participant ON study_released(participant_id);
CREATE TABLE IF NOT EXISTS study_decisions (
    id             INTEGER PRIMARY KEY,
    participant_id INTEGER NOT NULL REFERENCES study_participants(id) ON DELETE CASCADE,
    excluded       INTEGER NOT NULL,      -- 1 excluded, 0 included again
    reason         TEXT NOT NULL,
    decided_by     INTEGER REFERENCES users(id) ON DELETE SET NULL, -- NULL: the study's rule
    decided_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX IF NOT EXISTS study_decisions_participant ON study_decisions(participant_id);`,
	// 25: a study's exit survey answers.
	`CREATE TABLE IF NOT EXISTS study_answers (
    participant_id INTEGER NOT NULL REFERENCES study_participants(id) ON DELETE CASCADE,
    question       TEXT NOT NULL,
    answer         TEXT NOT NULL,   -- free text is personal data: shown by participant number only
    PRIMARY KEY (participant_id, question)
);`,
	// 26: a study's training items, shown with feedback before the work.
	`ALTER TABLE study_checks ADD COLUMN training INTEGER NOT NULL DEFAULT 0;`,
	// 27: an annotator's queue counted in blocks of 256 queue positions,
	// kept by triggers, so that the labelling page finds its place in a
	// queue of any length without counting the queue (see QueueNav); and
	// the open assignments indexed apart, so that finding the next one to
	// do does not step over every submitted one.
	queueBlocksSchema,
	// 28: the assistance condition of each item a study deals (by item,
	// it differs between a participant's items), and participants whose
	// time ran out.
	`CREATE TABLE IF NOT EXISTS study_conditions (
    assignment_id INTEGER PRIMARY KEY REFERENCES assignments(id) ON DELETE CASCADE,
    condition     TEXT NOT NULL
);
INSERT OR IGNORE INTO study_conditions (assignment_id, condition)
    SELECT a.id, sp.condition FROM study_participants sp JOIN studies s ON s.id = sp.study_id
    JOIN assignments a ON a.round_id = s.round_id AND a.user_id = sp.user_id
    WHERE NOT EXISTS (SELECT 1 FROM study_checks c WHERE c.assignment_id = a.id AND (c.screening = 1 OR c.training = 1));
ALTER TABLE study_participants ADD COLUMN timed_out INTEGER NOT NULL DEFAULT 0;`,
	// 29: a study deals from an index of its items by how often each is
	// dealt (kept by triggers) and a shuffled order, instead of counting
	// the round's assignments at every deal.
	studyDealingSchema,
	// 30: the gold index: a row per sentence with gold, with what the
	// adjudication queue sorts, filters and counts by, refreshed from the
	// sentences triggers name stale (see gold_index.go).
	goldIndexSchema,
	// 31: the membership counter per round rather than per project (see
	// membership.go).
	membershipRoundsSchema,
	// 32: the gold index's imported gold with labels in the order the
	// adjudication queue lists it (see gold_imported.go).
	importedGoldIndex,
	// 33: the gold index counted by what the adjudication queue groups
	// by, kept by triggers (see gold_counts.go).
	goldCountsSchema,
	// 34: summaries by topic, for the list of a project's topics (see
	// dealpick.go).
	summariesTopicIndex,
	// 35: each assistant run's outputs that are not 'ok', so that the
	// runs page counts them without reading every output.
	`CREATE INDEX IF NOT EXISTS assist_outputs_failed ON assist_outputs(run_id) WHERE status <> 'ok';`,
	// 36: when each annotator last saved a label in each round, kept by
	// triggers (see round_activity.go).
	roundActivitySchema,
	// 37: each project's number of sentences, kept by triggers (see
	// project_counts.go).
	projectCountsSchema,
	// 38: each assistant run's number of results, kept by triggers (see
	// assist_run_counts.go).
	assistRunCountsSchema,
	// 39: a round's assignments by annotator with what the round page
	// counts of them, so that it reads the index alone (see
	// roundCountsQuery).
	`CREATE INDEX IF NOT EXISTS assignments_round_user ON assignments(round_id, user_id, status, active_seconds, submitted_at);`,
	// 40: each assistant run's labelled results with their labels, so
	// that a report reads the labels without the outputs (see
	// reportAssistantByRun).
	`CREATE INDEX IF NOT EXISTS assist_outputs_labels ON assist_outputs(run_id, sentence_id, label) WHERE status = 'ok' AND label != '';`,
	// 41: each project's number of sentences with a gold label, kept by
	// triggers (see project_counts.go).
	projectGoldSchema,
	// 42: each annotator's assignments in each round by status, with
	// their active seconds and last submission, kept by triggers (see
	// round_counts.go).
	roundCountsSchema,
	// 43: a second counter that only gold and the assistant's results
	// bump, for the assistant page's evaluations (see evalversion.go).
	evalVersionSchema(),
	// 44: the index of a round's assignments by annotator also holds
	// their summaries, so that a report reads a round's assignments from
	// it alone (see reportCountedAssignments).
	`DROP INDEX IF EXISTS assignments_round_user;
CREATE INDEX assignments_round_user ON assignments(round_id, user_id, status, active_seconds, submitted_at, summary_id);`,
	// 45: each sentence label keeps its values as one number, computed
	// when it is written, for readers of many labels (see
	// sentenceLabelsV45); made by migrationSteps.
	``,
}

// migrationSteps are the migrations that SQL alone cannot make, by the
// version they bring a database to; their entry in migrations is empty.
var migrationSteps = map[int]func(context.Context, *sql.Tx) error{
	45: func(ctx context.Context, tx *sql.Tx) error {
		return rebuildTable(ctx, tx, "sentence_labels", sentenceLabelsV45)
	},
}

// studyDealingSchema keeps, per study item, how many of the study round's
// assignments of it are live (not released), and a fixed shuffled order;
// Deal reads the least dealt first from study_items_deal.
const studyDealingSchema = `ALTER TABLE study_items ADD COLUMN dealt INTEGER NOT NULL DEFAULT 0;
ALTER TABLE study_items ADD COLUMN shuffle INTEGER NOT NULL DEFAULT 0;
UPDATE study_items SET shuffle = (summary_id * 2654435761) % 4294967291,
    dealt = (SELECT count(*) FROM assignments a JOIN studies s ON s.id = study_items.study_id
        WHERE a.round_id = s.round_id AND a.summary_id = study_items.summary_id AND a.status != 'released');
CREATE INDEX IF NOT EXISTS study_items_deal ON study_items(study_id, is_check, dealt, shuffle);
CREATE INDEX IF NOT EXISTS studies_round ON studies(round_id);
CREATE TRIGGER IF NOT EXISTS study_items_dealt_insert AFTER INSERT ON assignments WHEN NEW.status != 'released' BEGIN
    UPDATE study_items SET dealt = dealt + 1
        WHERE summary_id = NEW.summary_id AND study_id IN (SELECT id FROM studies WHERE round_id = NEW.round_id);
END;
CREATE TRIGGER IF NOT EXISTS study_items_dealt_delete AFTER DELETE ON assignments WHEN OLD.status != 'released' BEGIN
    UPDATE study_items SET dealt = dealt - 1
        WHERE summary_id = OLD.summary_id AND study_id IN (SELECT id FROM studies WHERE round_id = OLD.round_id);
END;
CREATE TRIGGER IF NOT EXISTS study_items_dealt_update AFTER UPDATE OF status, round_id, summary_id ON assignments
    WHEN (OLD.status != 'released') != (NEW.status != 'released') OR OLD.round_id IS NOT NEW.round_id OR OLD.summary_id IS NOT NEW.summary_id BEGIN
    UPDATE study_items SET dealt = dealt - 1
        WHERE OLD.status != 'released' AND summary_id = OLD.summary_id AND study_id IN (SELECT id FROM studies WHERE round_id = OLD.round_id);
    UPDATE study_items SET dealt = dealt + 1
        WHERE NEW.status != 'released' AND summary_id = NEW.summary_id AND study_id IN (SELECT id FROM studies WHERE round_id = NEW.round_id);
END;`

// queueBlocksSchema keeps, per annotator, round and block of 256 queue
// positions (position >> 8, queueBlockShift), how many of the block's
// assignments are in the queue (not released) and how many of those are
// submitted. Summing a queue's blocks gives its length and progress; the
// blocks before an assignment's, plus a count inside its own block, give
// its place.
const queueBlocksSchema = `CREATE TABLE IF NOT EXISTS queue_blocks (
    user_id  INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    round_id INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    block    INTEGER NOT NULL,
    total    INTEGER NOT NULL DEFAULT 0,
    done     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, round_id, block)
) WITHOUT ROWID;
INSERT INTO queue_blocks (user_id, round_id, block, total, done)
    SELECT user_id, round_id, position >> 8, count(*), sum(status = 'submitted')
    FROM assignments WHERE status != 'released' GROUP BY user_id, round_id, position >> 8;
CREATE TRIGGER IF NOT EXISTS queue_blocks_insert AFTER INSERT ON assignments WHEN NEW.status != 'released' BEGIN
    INSERT INTO queue_blocks (user_id, round_id, block, total, done) VALUES (NEW.user_id, NEW.round_id, NEW.position >> 8, 1, NEW.status = 'submitted')
        ON CONFLICT (user_id, round_id, block) DO UPDATE SET total = total + 1, done = done + excluded.done;
END;
CREATE TRIGGER IF NOT EXISTS queue_blocks_delete AFTER DELETE ON assignments WHEN OLD.status != 'released' BEGIN
    UPDATE queue_blocks SET total = total - 1, done = done - (OLD.status = 'submitted')
        WHERE user_id = OLD.user_id AND round_id = OLD.round_id AND block = OLD.position >> 8;
END;
CREATE TRIGGER IF NOT EXISTS queue_blocks_update AFTER UPDATE OF status, position, user_id, round_id ON assignments
    WHEN OLD.status IS NOT NEW.status OR OLD.position IS NOT NEW.position OR OLD.user_id IS NOT NEW.user_id OR OLD.round_id IS NOT NEW.round_id BEGIN
    UPDATE queue_blocks SET total = total - (OLD.status != 'released'), done = done - (OLD.status = 'submitted')
        WHERE OLD.status != 'released' AND user_id = OLD.user_id AND round_id = OLD.round_id AND block = OLD.position >> 8;
    INSERT INTO queue_blocks (user_id, round_id, block, total, done)
        SELECT NEW.user_id, NEW.round_id, NEW.position >> 8, 1, NEW.status = 'submitted' WHERE NEW.status != 'released'
        ON CONFLICT (user_id, round_id, block) DO UPDATE SET total = total + 1, done = done + excluded.done;
END;
CREATE INDEX IF NOT EXISTS assignments_open ON assignments(user_id, position) WHERE status IN ('pending', 'in_progress');`

// skipsAndFlagsSchema creates the tables of skips and flags.
const skipsAndFlagsSchema = `
CREATE TABLE IF NOT EXISTS assignment_skips (
    assignment_id INTEGER PRIMARY KEY REFERENCES assignments(id) ON DELETE CASCADE,
    reason        TEXT NOT NULL,
    skipped_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE TABLE IF NOT EXISTS sentence_flags (
    assignment_id INTEGER NOT NULL REFERENCES assignments(id) ON DELETE CASCADE,
    sentence_id   INTEGER NOT NULL REFERENCES summary_sentences(id) ON DELETE CASCADE,
    note          TEXT NOT NULL,
    updated_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (assignment_id, sentence_id)
);`

//go:generate go test -run TestSchemaFileIsCurrent -update-schema .

// baseVersion is the version of baseSchema.
const baseVersion = 1

// CurrentSchemaVersion is the user_version this build brings databases to.
func CurrentSchemaVersion() int { return baseVersion + len(migrations) }

// migrate brings the database to CurrentSchemaVersion, calling notice
// (when not nil) first for a database an older build made.
func (s *Store) migrate(ctx context.Context, notice func(from, to int)) error {
	// A database already at this build's version needs nothing written:
	// its version is read outside a transaction, so that opening it does
	// not wait for (and, past the busy timeout, fail behind) another
	// process's write, such as a long import, which a reader never waits
	// for in WAL mode.
	var v int
	if err := s.write.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	if v == CurrentSchemaVersion() {
		return nil
	}
	// The migrations run with foreign keys off, as SQLite's documentation
	// has a table's definition changed (see rebuildTable): a table made
	// anew keeps its rows as they were, also a row whose parent is gone
	// (left by a tool that wrote with the keys off), which with the keys on
	// would stop the copy and leave the database unopenable by this build.
	// The pragma cannot change inside a transaction, so it is set on the
	// writer's one connection around it.
	conn, err := s.write.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA foreign_keys = OFF"); err != nil {
		return err
	}
	err = migrateOn(ctx, conn, notice)
	if _, on := conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA foreign_keys = ON"); on != nil {
		return errors.Join(err, on) // Open then closes the connection
	}
	return err
}

// migrateOn brings the database to CurrentSchemaVersion in one
// transaction on conn (see migrate).
func migrateOn(ctx context.Context, conn *sql.Conn, notice func(from, to int)) error {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	err = func() error {
		var v int
		if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
			return err
		}
		if v > CurrentSchemaVersion() {
			return fmt.Errorf("schema version %d is newer than this build knows (%d): use a newer annotate", v, CurrentSchemaVersion())
		}
		if v > 0 && v < CurrentSchemaVersion() && notice != nil {
			notice(v, CurrentSchemaVersion())
		}
		if v == 0 {
			// A fresh database: the first release's schema, then every
			// migration.
			if _, err := tx.ExecContext(ctx, baseSchema); err != nil {
				return fmt.Errorf("apply schema: %w", err)
			}
			v = baseVersion
		}
		for ; v < CurrentSchemaVersion(); v++ {
			var err error
			if step := migrationSteps[v+1]; step != nil {
				err = step(ctx, tx)
			} else {
				_, err = tx.ExecContext(ctx, migrations[v-baseVersion])
			}
			if err != nil {
				return fmt.Errorf("migration to version %d: %w", v+1, err)
			}
		}
		_, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v))
		return err
	}()
	if err != nil {
		return txErr(ctx, err)
	}
	return txErr(ctx, tx.Commit())
}
