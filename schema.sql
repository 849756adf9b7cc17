-- The database schema of annotate, version 45, as a fresh database holds it.
-- Written from the migrations (internal/tasks/schema_v1.sql, then
-- internal/tasks/migrate.go) by `go generate ./internal/tasks`; do not edit:
-- a change goes in a new migration.

CREATE TABLE users (
    id            INTEGER PRIMARY KEY,
    username      TEXT NOT NULL UNIQUE COLLATE NOCASE,
    display_name  TEXT NOT NULL DEFAULT '',
    password_hash BLOB NOT NULL,
    is_admin      INTEGER NOT NULL DEFAULT 0,
    disabled      INTEGER NOT NULL DEFAULT 0,
    created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE projects (
    id          INTEGER PRIMARY KEY,
    slug        TEXT NOT NULL UNIQUE,
    name        TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    settings    TEXT NOT NULL DEFAULT '{}',
    guidelines  TEXT NOT NULL DEFAULT '',
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE memberships (
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role       TEXT NOT NULL CHECK (role IN ('lead', 'adjudicator', 'annotator')),
    PRIMARY KEY (project_id, user_id)
);

CREATE INDEX memberships_user ON memberships(user_id);

CREATE TABLE documents (
    id          INTEGER PRIMARY KEY,
    project_id  INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    external_id TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('prose', 'dialogue')),
    language    TEXT NOT NULL DEFAULT 'en',
    domain      TEXT NOT NULL DEFAULT '',
    title       TEXT NOT NULL DEFAULT '',
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (project_id, external_id)
);

CREATE TABLE document_units (
    id          INTEGER PRIMARY KEY,
    document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL, -- 1-based, as cited
    speaker     TEXT NOT NULL DEFAULT '',
    text        TEXT NOT NULL,
    UNIQUE (document_id, idx)
);

CREATE TABLE summaries (
    id          INTEGER PRIMARY KEY,
    project_id  INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    external_id TEXT NOT NULL,
    topic       TEXT NOT NULL DEFAULT '',
    model       TEXT NOT NULL DEFAULT '', -- never shown to annotators
    language    TEXT NOT NULL DEFAULT 'en',
    original    TEXT NOT NULL DEFAULT '', -- the summary it was edited from
    edit_types  TEXT NOT NULL DEFAULT '[]',
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (project_id, external_id)
);

CREATE INDEX summaries_document ON summaries(document_id);

CREATE TABLE summary_sentences (
    id          INTEGER PRIMARY KEY,
    summary_id  INTEGER NOT NULL REFERENCES summaries(id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL, -- 1-based
    text        TEXT NOT NULL,
    translation TEXT NOT NULL DEFAULT '', source_index INTEGER,
    UNIQUE (summary_id, idx)
);

CREATE TABLE key_facts (
    id          INTEGER PRIMARY KEY,
    document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    topic       TEXT NOT NULL DEFAULT '',
    idx         INTEGER NOT NULL,
    text        TEXT NOT NULL,
    category    TEXT NOT NULL DEFAULT '',
    UNIQUE (document_id, topic, idx)
);

CREATE TABLE rounds (
    id         INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    kind       TEXT NOT NULL CHECK (kind IN ('calibration', 'production')),
    per_item   INTEGER NOT NULL DEFAULT 2,
    status     TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    closed_at  TEXT,
    UNIQUE (project_id, name)
);

CREATE TABLE assignments (
    id             INTEGER PRIMARY KEY,
    round_id       INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    summary_id     INTEGER NOT NULL REFERENCES summaries(id) ON DELETE CASCADE,
    user_id        INTEGER NOT NULL REFERENCES users(id),
    position       INTEGER NOT NULL, -- order in the annotator's queue
    status         TEXT NOT NULL DEFAULT 'pending'
                   CHECK (status IN ('pending', 'in_progress', 'submitted', 'released')),
    version        INTEGER NOT NULL DEFAULT 0, -- bumped on every save
    active_seconds INTEGER NOT NULL DEFAULT 0,
    started_at     TEXT,
    submitted_at   TEXT,
    UNIQUE (round_id, summary_id, user_id)
);

CREATE INDEX assignments_user ON assignments(user_id, status);

CREATE INDEX assignments_summary ON assignments(summary_id);

CREATE TABLE sentence_label_history (
    id            INTEGER PRIMARY KEY,
    assignment_id INTEGER NOT NULL REFERENCES assignments(id) ON DELETE CASCADE,
    sentence_id   INTEGER NOT NULL REFERENCES summary_sentences(id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL REFERENCES users(id),
    data          TEXT NOT NULL, -- the label as JSON after the change
    created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE INDEX sentence_label_history_assignment ON sentence_label_history(assignment_id, sentence_id);

CREATE TABLE summary_labels (
    assignment_id  INTEGER PRIMARY KEY REFERENCES assignments(id) ON DELETE CASCADE,
    relevance      INTEGER CHECK (relevance BETWEEN 1 AND 5),
    non_summary    INTEGER NOT NULL DEFAULT 0,
    topic_category TEXT NOT NULL DEFAULT '' CHECK (topic_category IN ('', 'main', 'marginal')),
    comment        TEXT NOT NULL DEFAULT '',
    updated_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE keyfact_labels (
    assignment_id INTEGER NOT NULL REFERENCES assignments(id) ON DELETE CASCADE,
    key_fact_id   INTEGER NOT NULL REFERENCES key_facts(id) ON DELETE CASCADE,
    sentence_id   INTEGER NOT NULL REFERENCES summary_sentences(id) ON DELETE CASCADE,
    created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (assignment_id, key_fact_id, sentence_id)
);

CREATE TABLE gold_sentences (
    sentence_id    INTEGER PRIMARY KEY REFERENCES summary_sentences(id) ON DELETE CASCADE,
    label          TEXT NOT NULL DEFAULT '' CHECK (label IN ('', 'faithful', 'unfaithful', 'borderline')),
    error_types    TEXT NOT NULL DEFAULT '[]',
    explanation    TEXT NOT NULL DEFAULT '',
    ambiguous      INTEGER,
    ambiguity_type TEXT NOT NULL DEFAULT '',
    ambiguity_note TEXT NOT NULL DEFAULT '',
    provenance     TEXT NOT NULL CHECK (provenance IN ('imported', 'unanimous', 'majority', 'adjudicated', 'unresolved')),
    decided_by     INTEGER REFERENCES users(id),
    decided_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    note           TEXT NOT NULL DEFAULT ''
, version INTEGER NOT NULL DEFAULT 0);

CREATE TABLE gold_history (
    id          INTEGER PRIMARY KEY,
    sentence_id INTEGER NOT NULL REFERENCES summary_sentences(id) ON DELETE CASCADE,
    data        TEXT NOT NULL,
    decided_by  INTEGER REFERENCES users(id),
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE gold_summaries (
    summary_id INTEGER PRIMARY KEY REFERENCES summaries(id) ON DELETE CASCADE,
    label      TEXT NOT NULL CHECK (label IN ('faithful', 'unfaithful', 'borderline')),
    provenance TEXT NOT NULL,
    decided_by INTEGER REFERENCES users(id),
    decided_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    note       TEXT NOT NULL DEFAULT ''
);

CREATE TABLE assist_runs (
    id                INTEGER PRIMARY KEY,
    project_id        INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    name              TEXT NOT NULL DEFAULT '',
    protocol          TEXT NOT NULL,
    model             TEXT NOT NULL DEFAULT '',
    settings          TEXT NOT NULL DEFAULT '{}',
    prompt_version    TEXT NOT NULL DEFAULT '',
    status            TEXT NOT NULL DEFAULT 'queued'
                      CHECK (status IN ('queued', 'running', 'done', 'failed', 'cancelled', 'imported')),
    sample            INTEGER NOT NULL DEFAULT 0, -- shipped sample output, not a real run
    total             INTEGER NOT NULL DEFAULT 0,
    calls             INTEGER NOT NULL DEFAULT 0,
    cache_hits        INTEGER NOT NULL DEFAULT 0,
    prompt_tokens     INTEGER NOT NULL DEFAULT 0,
    completion_tokens INTEGER NOT NULL DEFAULT 0,
    failures          INTEGER NOT NULL DEFAULT 0,
    error             TEXT NOT NULL DEFAULT '',
    created_at        TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    finished_at       TEXT
, lease_owner TEXT NOT NULL DEFAULT '', lease_until TEXT);

CREATE TABLE assist_outputs (
    id          INTEGER PRIMARY KEY,
    run_id      INTEGER NOT NULL REFERENCES assist_runs(id) ON DELETE CASCADE,
    sentence_id INTEGER NOT NULL REFERENCES summary_sentences(id) ON DELETE CASCADE,
    label       TEXT NOT NULL DEFAULT '',
    status      TEXT NOT NULL DEFAULT 'ok',
    output      TEXT NOT NULL, -- assist.SentenceResult as JSON
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (run_id, sentence_id)
);

CREATE TABLE llm_cache (
    key        TEXT PRIMARY KEY,
    value      BLOB NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE secrets (
    name  TEXT PRIMARY KEY,
    value BLOB NOT NULL
);

CREATE TABLE sessions (
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

CREATE INDEX sessions_user ON sessions(user_id);

CREATE TABLE assignment_activity (
    assignment_id  INTEGER PRIMARY KEY REFERENCES assignments(id) ON DELETE CASCADE,
    last_report_at TEXT NOT NULL
);

CREATE TABLE password_resets (
    token_hash BLOB PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
    expires_at TEXT NOT NULL
);

CREATE INDEX assignments_queue ON assignments(user_id, position, status, round_id);

CREATE INDEX sentence_label_history_sentence ON sentence_label_history(sentence_id);

CREATE INDEX keyfact_labels_sentence ON keyfact_labels(sentence_id, key_fact_id);

CREATE INDEX keyfact_labels_key_fact ON keyfact_labels(key_fact_id);

CREATE INDEX gold_history_sentence ON gold_history(sentence_id);

CREATE INDEX gold_sentences_unresolved ON gold_sentences(sentence_id) WHERE provenance = 'unresolved';

CREATE INDEX assist_runs_project ON assist_runs(project_id);

CREATE INDEX assist_outputs_sentence ON assist_outputs(sentence_id);

CREATE TABLE round_dealing (
		round_id INTEGER PRIMARY KEY REFERENCES rounds(id) ON DELETE CASCADE,
		dealing  TEXT NOT NULL CHECK (dealing IN ('balanced', 'by_document')),
		seed     INTEGER NOT NULL DEFAULT 0,
		sample   INTEGER NOT NULL DEFAULT 0
	);

CREATE TABLE api_tokens (
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

CREATE INDEX api_tokens_user ON api_tokens(user_id);

CREATE TABLE api_token_projects (
    token_id   INTEGER NOT NULL REFERENCES api_tokens(id) ON DELETE CASCADE,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    PRIMARY KEY (token_id, project_id)
);

CREATE TABLE report_versions (
    project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    version    INTEGER NOT NULL
);

CREATE TRIGGER report_version_summary_labels_insert AFTER INSERT ON summary_labels BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = NEW.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_summary_labels_update AFTER UPDATE ON summary_labels BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = NEW.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_summary_labels_delete AFTER DELETE ON summary_labels BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = OLD.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_keyfact_labels_insert AFTER INSERT ON keyfact_labels BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = NEW.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_keyfact_labels_update AFTER UPDATE ON keyfact_labels BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = NEW.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_keyfact_labels_delete AFTER DELETE ON keyfact_labels BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = OLD.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_assignments_insert AFTER INSERT ON assignments BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM rounds r WHERE r.id = NEW.round_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_assignments_update AFTER UPDATE ON assignments BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM rounds r WHERE r.id = NEW.round_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_assignments_delete AFTER DELETE ON assignments BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM rounds r WHERE r.id = OLD.round_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_rounds_insert AFTER INSERT ON rounds BEGIN
    INSERT INTO report_versions (project_id, version) SELECT p.id, 1 FROM projects p WHERE p.id = NEW.project_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_rounds_update AFTER UPDATE ON rounds BEGIN
    INSERT INTO report_versions (project_id, version) SELECT p.id, 1 FROM projects p WHERE p.id = NEW.project_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_rounds_delete AFTER DELETE ON rounds BEGIN
    INSERT INTO report_versions (project_id, version) SELECT p.id, 1 FROM projects p WHERE p.id = OLD.project_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_gold_sentences_insert AFTER INSERT ON gold_sentences BEGIN
    INSERT INTO report_versions (project_id, version) SELECT s.project_id, 1 FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id WHERE ss.id = NEW.sentence_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_gold_sentences_update AFTER UPDATE ON gold_sentences BEGIN
    INSERT INTO report_versions (project_id, version) SELECT s.project_id, 1 FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id WHERE ss.id = NEW.sentence_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_gold_sentences_delete AFTER DELETE ON gold_sentences BEGIN
    INSERT INTO report_versions (project_id, version) SELECT s.project_id, 1 FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id WHERE ss.id = OLD.sentence_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_gold_summaries_insert AFTER INSERT ON gold_summaries BEGIN
    INSERT INTO report_versions (project_id, version) SELECT s.project_id, 1 FROM summaries s WHERE s.id = NEW.summary_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_gold_summaries_update AFTER UPDATE ON gold_summaries BEGIN
    INSERT INTO report_versions (project_id, version) SELECT s.project_id, 1 FROM summaries s WHERE s.id = NEW.summary_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_gold_summaries_delete AFTER DELETE ON gold_summaries BEGIN
    INSERT INTO report_versions (project_id, version) SELECT s.project_id, 1 FROM summaries s WHERE s.id = OLD.summary_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_summary_sentences_insert AFTER INSERT ON summary_sentences BEGIN
    INSERT INTO report_versions (project_id, version) SELECT s.project_id, 1 FROM summaries s WHERE s.id = NEW.summary_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_summary_sentences_update AFTER UPDATE ON summary_sentences BEGIN
    INSERT INTO report_versions (project_id, version) SELECT s.project_id, 1 FROM summaries s WHERE s.id = NEW.summary_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_summary_sentences_delete AFTER DELETE ON summary_sentences BEGIN
    INSERT INTO report_versions (project_id, version) SELECT s.project_id, 1 FROM summaries s WHERE s.id = OLD.summary_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_key_facts_insert AFTER INSERT ON key_facts BEGIN
    INSERT INTO report_versions (project_id, version) SELECT d.project_id, 1 FROM documents d WHERE d.id = NEW.document_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_key_facts_update AFTER UPDATE ON key_facts BEGIN
    INSERT INTO report_versions (project_id, version) SELECT d.project_id, 1 FROM documents d WHERE d.id = NEW.document_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_key_facts_delete AFTER DELETE ON key_facts BEGIN
    INSERT INTO report_versions (project_id, version) SELECT d.project_id, 1 FROM documents d WHERE d.id = OLD.document_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_assist_runs_insert AFTER INSERT ON assist_runs BEGIN
    INSERT INTO report_versions (project_id, version) SELECT p.id, 1 FROM projects p WHERE p.id = NEW.project_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_assist_runs_update AFTER UPDATE ON assist_runs BEGIN
    INSERT INTO report_versions (project_id, version) SELECT p.id, 1 FROM projects p WHERE p.id = NEW.project_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_assist_runs_delete AFTER DELETE ON assist_runs BEGIN
    INSERT INTO report_versions (project_id, version) SELECT p.id, 1 FROM projects p WHERE p.id = OLD.project_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_assist_outputs_insert AFTER INSERT ON assist_outputs BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assist_runs r WHERE r.id = NEW.run_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_assist_outputs_update AFTER UPDATE ON assist_outputs BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assist_runs r WHERE r.id = NEW.run_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_assist_outputs_delete AFTER DELETE ON assist_outputs BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assist_runs r WHERE r.id = OLD.run_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TABLE assignment_skips (
    assignment_id INTEGER PRIMARY KEY REFERENCES assignments(id) ON DELETE CASCADE,
    reason        TEXT NOT NULL,
    skipped_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE sentence_flags (
    assignment_id INTEGER NOT NULL REFERENCES assignments(id) ON DELETE CASCADE,
    sentence_id   INTEGER NOT NULL REFERENCES summary_sentences(id) ON DELETE CASCADE,
    note          TEXT NOT NULL,
    updated_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (assignment_id, sentence_id)
);

CREATE TABLE imported_users (
		user_id    INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
		project_id INTEGER REFERENCES projects(id) ON DELETE SET NULL,
		created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
	);

CREATE TABLE imported_rounds (
		round_id   INTEGER PRIMARY KEY REFERENCES rounds(id) ON DELETE CASCADE,
		created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
	);

CREATE TABLE scale_scores (
		assignment_id INTEGER NOT NULL REFERENCES assignments(id) ON DELETE CASCADE,
		sentence_id   INTEGER NOT NULL DEFAULT 0,
		scale         TEXT NOT NULL,
		value         TEXT NOT NULL,
		updated_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
		PRIMARY KEY (assignment_id, sentence_id, scale)
	);

CREATE TABLE document_refs (
		document_id   INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
		annotation_id TEXT NOT NULL
	);

CREATE TABLE webhooks (
    id          INTEGER PRIMARY KEY,
    project_id  INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    url         TEXT NOT NULL,
    secret      TEXT NOT NULL,
    events      TEXT NOT NULL,
    gold_cursor INTEGER NOT NULL DEFAULT 0,
    created_by  INTEGER REFERENCES users(id),
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE webhook_deliveries (
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

CREATE INDEX webhook_deliveries_due ON webhook_deliveries(status, next_attempt_at);

CREATE TRIGGER report_version_scale_scores_insert AFTER INSERT ON scale_scores BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = NEW.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_scale_scores_update AFTER UPDATE ON scale_scores BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = NEW.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_scale_scores_delete AFTER DELETE ON scale_scores BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = OLD.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_sentence_flags_insert AFTER INSERT ON sentence_flags BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = NEW.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_sentence_flags_update AFTER UPDATE ON sentence_flags BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = NEW.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_sentence_flags_delete AFTER DELETE ON sentence_flags BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = OLD.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_assignment_skips_insert AFTER INSERT ON assignment_skips BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = NEW.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_assignment_skips_update AFTER UPDATE ON assignment_skips BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = NEW.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_assignment_skips_delete AFTER DELETE ON assignment_skips BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = OLD.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_documents_update AFTER UPDATE ON documents BEGIN
    INSERT INTO report_versions (project_id, version) VALUES (NEW.project_id, 1)
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TABLE stale_labels (
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

CREATE INDEX stale_labels_project ON stale_labels(project_id, id);

CREATE TABLE studies (
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

CREATE TABLE study_items (
    study_id   INTEGER NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
    summary_id INTEGER NOT NULL REFERENCES summaries(id) ON DELETE CASCADE, is_check INTEGER NOT NULL DEFAULT 0, dealt INTEGER NOT NULL DEFAULT 0, shuffle INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (study_id, summary_id)
);

CREATE TABLE study_participants (
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
    finished_at    TEXT, excluded INTEGER NOT NULL DEFAULT 0, excluded_why TEXT NOT NULL DEFAULT '', timed_out INTEGER NOT NULL DEFAULT 0,
    UNIQUE (study_id, platform, platform_id),
    UNIQUE (study_id, number)
);

CREATE TABLE assignment_assistance (
    assignment_id INTEGER PRIMARY KEY REFERENCES assignments(id) ON DELETE CASCADE,
    visibility    TEXT NOT NULL,               -- always, after_first_label or never
    verdict_only  INTEGER NOT NULL DEFAULT 0   -- the Adjudicator's verdict alone, without the debate
);

CREATE TABLE study_checks (
    assignment_id  INTEGER PRIMARY KEY REFERENCES assignments(id) ON DELETE CASCADE,
    participant_id INTEGER NOT NULL REFERENCES study_participants(id) ON DELETE CASCADE,
    passed         INTEGER                  -- NULL until the item is submitted
, screening INTEGER NOT NULL DEFAULT 0, training INTEGER NOT NULL DEFAULT 0);

CREATE INDEX study_checks_participant ON study_checks(participant_id);

CREATE TABLE study_released (
    assignment_id  INTEGER PRIMARY KEY REFERENCES assignments(id) ON DELETE CASCADE,
    participant_id INTEGER NOT NULL REFERENCES study_participants(id) ON DELETE CASCADE,
    status         TEXT NOT NULL          -- the assignment's status before the exclusion released it
);

CREATE INDEX study_released_participant ON study_released(participant_id);

CREATE TABLE study_decisions (
    id             INTEGER PRIMARY KEY,
    participant_id INTEGER NOT NULL REFERENCES study_participants(id) ON DELETE CASCADE,
    excluded       INTEGER NOT NULL,      -- 1 excluded, 0 included again
    reason         TEXT NOT NULL,
    decided_by     INTEGER REFERENCES users(id) ON DELETE SET NULL, -- NULL: the study's rule
    decided_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE INDEX study_decisions_participant ON study_decisions(participant_id);

CREATE TABLE study_answers (
    participant_id INTEGER NOT NULL REFERENCES study_participants(id) ON DELETE CASCADE,
    question       TEXT NOT NULL,
    answer         TEXT NOT NULL,   -- free text is personal data: shown by participant number only
    PRIMARY KEY (participant_id, question)
);

CREATE TABLE queue_blocks (
    user_id  INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    round_id INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    block    INTEGER NOT NULL,
    total    INTEGER NOT NULL DEFAULT 0,
    done     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, round_id, block)
) WITHOUT ROWID;

CREATE TRIGGER queue_blocks_insert AFTER INSERT ON assignments WHEN NEW.status != 'released' BEGIN
    INSERT INTO queue_blocks (user_id, round_id, block, total, done) VALUES (NEW.user_id, NEW.round_id, NEW.position >> 8, 1, NEW.status = 'submitted')
        ON CONFLICT (user_id, round_id, block) DO UPDATE SET total = total + 1, done = done + excluded.done;
END;

CREATE TRIGGER queue_blocks_delete AFTER DELETE ON assignments WHEN OLD.status != 'released' BEGIN
    UPDATE queue_blocks SET total = total - 1, done = done - (OLD.status = 'submitted')
        WHERE user_id = OLD.user_id AND round_id = OLD.round_id AND block = OLD.position >> 8;
END;

CREATE TRIGGER queue_blocks_update AFTER UPDATE OF status, position, user_id, round_id ON assignments
    WHEN OLD.status IS NOT NEW.status OR OLD.position IS NOT NEW.position OR OLD.user_id IS NOT NEW.user_id OR OLD.round_id IS NOT NEW.round_id BEGIN
    UPDATE queue_blocks SET total = total - (OLD.status != 'released'), done = done - (OLD.status = 'submitted')
        WHERE OLD.status != 'released' AND user_id = OLD.user_id AND round_id = OLD.round_id AND block = OLD.position >> 8;
    INSERT INTO queue_blocks (user_id, round_id, block, total, done)
        SELECT NEW.user_id, NEW.round_id, NEW.position >> 8, 1, NEW.status = 'submitted' WHERE NEW.status != 'released'
        ON CONFLICT (user_id, round_id, block) DO UPDATE SET total = total + 1, done = done + excluded.done;
END;

CREATE INDEX assignments_open ON assignments(user_id, position) WHERE status IN ('pending', 'in_progress');

CREATE TABLE study_conditions (
    assignment_id INTEGER PRIMARY KEY REFERENCES assignments(id) ON DELETE CASCADE,
    condition     TEXT NOT NULL
);

CREATE INDEX study_items_deal ON study_items(study_id, is_check, dealt, shuffle);

CREATE INDEX studies_round ON studies(round_id);

CREATE TRIGGER study_items_dealt_insert AFTER INSERT ON assignments WHEN NEW.status != 'released' BEGIN
    UPDATE study_items SET dealt = dealt + 1
        WHERE summary_id = NEW.summary_id AND study_id IN (SELECT id FROM studies WHERE round_id = NEW.round_id);
END;

CREATE TRIGGER study_items_dealt_delete AFTER DELETE ON assignments WHEN OLD.status != 'released' BEGIN
    UPDATE study_items SET dealt = dealt - 1
        WHERE summary_id = OLD.summary_id AND study_id IN (SELECT id FROM studies WHERE round_id = OLD.round_id);
END;

CREATE TRIGGER study_items_dealt_update AFTER UPDATE OF status, round_id, summary_id ON assignments
    WHEN (OLD.status != 'released') != (NEW.status != 'released') OR OLD.round_id IS NOT NEW.round_id OR OLD.summary_id IS NOT NEW.summary_id BEGIN
    UPDATE study_items SET dealt = dealt - 1
        WHERE OLD.status != 'released' AND summary_id = OLD.summary_id AND study_id IN (SELECT id FROM studies WHERE round_id = OLD.round_id);
    UPDATE study_items SET dealt = dealt + 1
        WHERE NEW.status != 'released' AND summary_id = NEW.summary_id AND study_id IN (SELECT id FROM studies WHERE round_id = NEW.round_id);
END;

CREATE TABLE gold_tallies (
    sentence_id INTEGER PRIMARY KEY REFERENCES summary_sentences(id) ON DELETE CASCADE,
    project_id  INTEGER NOT NULL,
    summary_id  INTEGER NOT NULL,
    idx         INTEGER NOT NULL,
    provenance  TEXT NOT NULL,
    rounds      TEXT NOT NULL DEFAULT ',', -- ',3,7,': the rounds that gave the summary out (released assignments aside)
    votes       INTEGER NOT NULL DEFAULT 0, -- submitted annotators' rows (unresolved and imported gold only)
    top         REAL NOT NULL DEFAULT 0,    -- Tally.Score: the largest split of any dimension
    label_split REAL NOT NULL DEFAULT 0,    -- and the label's split
    split       INTEGER NOT NULL DEFAULT 0, -- dimensions in disagreement: 1 label, 2 error types, 4 ambiguity
    ready       INTEGER NOT NULL DEFAULT 0, -- a strict majority AcceptMajority would take
    flagged     INTEGER NOT NULL DEFAULT 0, -- an annotator flagged it for the leads
    against     INTEGER NOT NULL DEFAULT 0  -- imported gold: votes for another label
);

CREATE INDEX gold_tallies_queue ON gold_tallies(project_id, provenance, top DESC, label_split DESC, summary_id, idx, split, flagged, rounds);

CREATE INDEX gold_tallies_counts ON gold_tallies(project_id, provenance, rounds, ready, flagged, split, votes, against);

CREATE TABLE gold_tallies_stale (sentence_id INTEGER PRIMARY KEY) WITHOUT ROWID;

CREATE TRIGGER gold_tallies_gold_insert AFTER INSERT ON gold_sentences BEGIN
    INSERT INTO gold_tallies_stale (sentence_id) VALUES (NEW.sentence_id)
        ON CONFLICT DO NOTHING;
END;

CREATE TRIGGER gold_tallies_gold_update AFTER UPDATE OF provenance, label, decided_by ON gold_sentences BEGIN
    INSERT INTO gold_tallies_stale (sentence_id) VALUES (NEW.sentence_id)
        ON CONFLICT DO NOTHING;
END;

CREATE TRIGGER gold_tallies_gold_delete AFTER DELETE ON gold_sentences BEGIN
    INSERT INTO gold_tallies_stale (sentence_id) VALUES (OLD.sentence_id)
        ON CONFLICT DO NOTHING;
END;

CREATE TRIGGER gold_tallies_flags_insert AFTER INSERT ON sentence_flags BEGIN
    INSERT INTO gold_tallies_stale (sentence_id)
        SELECT sentence_id FROM gold_sentences WHERE sentence_id = NEW.sentence_id AND provenance = 'unresolved'
        ON CONFLICT DO NOTHING;
END;

CREATE TRIGGER gold_tallies_flags_delete AFTER DELETE ON sentence_flags BEGIN
    INSERT INTO gold_tallies_stale (sentence_id)
        SELECT sentence_id FROM gold_sentences WHERE sentence_id = OLD.sentence_id AND provenance = 'unresolved'
        ON CONFLICT DO NOTHING;
END;

CREATE TRIGGER gold_tallies_assignments_insert AFTER INSERT ON assignments BEGIN
    INSERT INTO gold_tallies_stale (sentence_id)
        SELECT g.sentence_id FROM summary_sentences ss JOIN gold_sentences g ON g.sentence_id = ss.id WHERE ss.summary_id = NEW.summary_id
        ON CONFLICT DO NOTHING;
END;

CREATE TRIGGER gold_tallies_assignments_delete AFTER DELETE ON assignments BEGIN
    INSERT INTO gold_tallies_stale (sentence_id)
        SELECT g.sentence_id FROM summary_sentences ss JOIN gold_sentences g ON g.sentence_id = ss.id WHERE ss.summary_id = OLD.summary_id
        ON CONFLICT DO NOTHING;
END;

CREATE TRIGGER gold_tallies_assignments_update AFTER UPDATE OF status, submitted_at, user_id, round_id, summary_id ON assignments
    WHEN (OLD.status = 'released') != (NEW.status = 'released') OR (OLD.status = 'submitted') != (NEW.status = 'submitted')
        OR OLD.submitted_at IS NOT NEW.submitted_at OR OLD.user_id IS NOT NEW.user_id OR OLD.round_id IS NOT NEW.round_id
        OR OLD.summary_id IS NOT NEW.summary_id BEGIN
    INSERT INTO gold_tallies_stale (sentence_id)
        SELECT g.sentence_id FROM summary_sentences ss JOIN gold_sentences g ON g.sentence_id = ss.id WHERE ss.summary_id IN (OLD.summary_id, NEW.summary_id)
        ON CONFLICT DO NOTHING;
END;

CREATE TABLE membership_rounds (
    round_id INTEGER PRIMARY KEY REFERENCES rounds(id) ON DELETE CASCADE,
    version  INTEGER NOT NULL
);

CREATE TRIGGER membership_assignments_insert AFTER INSERT ON assignments BEGIN
    INSERT INTO membership_rounds (round_id, version) SELECT r.id, 1 FROM rounds r WHERE r.id = NEW.round_id
        ON CONFLICT (round_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER membership_assignments_delete AFTER DELETE ON assignments BEGIN
    INSERT INTO membership_rounds (round_id, version) SELECT r.id, 1 FROM rounds r WHERE r.id = OLD.round_id
        ON CONFLICT (round_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER membership_assignments_update AFTER UPDATE OF status, round_id, summary_id ON assignments
    WHEN (OLD.status = 'released') IS NOT (NEW.status = 'released') OR OLD.round_id IS NOT NEW.round_id OR OLD.summary_id IS NOT NEW.summary_id BEGIN
    INSERT INTO membership_rounds (round_id, version) SELECT r.id, 1 FROM rounds r WHERE r.id IN (OLD.round_id, NEW.round_id)
        ON CONFLICT (round_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER membership_sentences_insert AFTER INSERT ON summary_sentences BEGIN
    INSERT INTO membership_rounds (round_id, version) SELECT DISTINCT r.id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id
        WHERE a.summary_id = NEW.summary_id
        ON CONFLICT (round_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER membership_sentences_delete AFTER DELETE ON summary_sentences BEGIN
    INSERT INTO membership_rounds (round_id, version) SELECT DISTINCT r.id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id
        WHERE a.summary_id = OLD.summary_id
        ON CONFLICT (round_id) DO UPDATE SET version = version + 1;
END;

CREATE INDEX gold_tallies_imported ON gold_tallies(project_id, against DESC, summary_id, idx)
	WHERE provenance = 'imported' AND votes > 0;

CREATE TABLE gold_counts (
    project_id INTEGER NOT NULL,
    provenance TEXT NOT NULL,
    rounds     TEXT NOT NULL,
    ready      INTEGER NOT NULL,
    flagged    INTEGER NOT NULL,
    split      INTEGER NOT NULL,
    n          INTEGER NOT NULL,
    PRIMARY KEY (project_id, provenance, rounds, ready, flagged, split)
) WITHOUT ROWID;

CREATE TRIGGER gold_counts_insert AFTER INSERT ON gold_tallies BEGIN
    INSERT INTO gold_counts (project_id, provenance, rounds, ready, flagged, split, n)
        VALUES (NEW.project_id, NEW.provenance, NEW.rounds, NEW.ready, NEW.flagged, NEW.split, 1)
        ON CONFLICT (project_id, provenance, rounds, ready, flagged, split) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER gold_counts_delete AFTER DELETE ON gold_tallies BEGIN
    UPDATE gold_counts SET n = n - 1 WHERE project_id = OLD.project_id AND provenance = OLD.provenance
        AND rounds = OLD.rounds AND ready = OLD.ready AND flagged = OLD.flagged AND split = OLD.split;
    DELETE FROM gold_counts WHERE project_id = OLD.project_id AND provenance = OLD.provenance
        AND rounds = OLD.rounds AND ready = OLD.ready AND flagged = OLD.flagged AND split = OLD.split AND n <= 0;
END;

CREATE TRIGGER gold_counts_update AFTER UPDATE OF project_id, provenance, rounds, ready, flagged, split ON gold_tallies
    WHEN OLD.project_id IS NOT NEW.project_id OR OLD.provenance IS NOT NEW.provenance OR OLD.rounds IS NOT NEW.rounds
        OR OLD.ready IS NOT NEW.ready OR OLD.flagged IS NOT NEW.flagged OR OLD.split IS NOT NEW.split BEGIN
    UPDATE gold_counts SET n = n - 1 WHERE project_id = OLD.project_id AND provenance = OLD.provenance
        AND rounds = OLD.rounds AND ready = OLD.ready AND flagged = OLD.flagged AND split = OLD.split;
    DELETE FROM gold_counts WHERE project_id = OLD.project_id AND provenance = OLD.provenance
        AND rounds = OLD.rounds AND ready = OLD.ready AND flagged = OLD.flagged AND split = OLD.split AND n <= 0;
    INSERT INTO gold_counts (project_id, provenance, rounds, ready, flagged, split, n)
        VALUES (NEW.project_id, NEW.provenance, NEW.rounds, NEW.ready, NEW.flagged, NEW.split, 1)
        ON CONFLICT (project_id, provenance, rounds, ready, flagged, split) DO UPDATE SET n = n + 1;
END;

CREATE INDEX summaries_topic ON summaries(project_id, topic);

CREATE INDEX assist_outputs_failed ON assist_outputs(run_id) WHERE status <> 'ok';

CREATE TABLE round_activity (
    round_id INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    user_id  INTEGER NOT NULL,
    last_at  TEXT NOT NULL,
    PRIMARY KEY (round_id, user_id)
) WITHOUT ROWID;

CREATE TABLE project_counts (
    project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    sentences  INTEGER NOT NULL
);

CREATE TRIGGER project_counts_sentences_insert AFTER INSERT ON summary_sentences BEGIN
    INSERT INTO project_counts (project_id, sentences) SELECT s.project_id, 1 FROM summaries s WHERE s.id = NEW.summary_id
        ON CONFLICT (project_id) DO UPDATE SET sentences = sentences + 1;
END;

CREATE TRIGGER project_counts_sentences_delete AFTER DELETE ON summary_sentences BEGIN
    UPDATE project_counts SET sentences = sentences - 1
        WHERE project_id = (SELECT s.project_id FROM summaries s WHERE s.id = OLD.summary_id);
END;

CREATE TRIGGER project_counts_summaries_delete BEFORE DELETE ON summaries BEGIN
    UPDATE project_counts SET sentences = sentences - (SELECT count(*) FROM summary_sentences WHERE summary_id = OLD.id)
        WHERE project_id = OLD.project_id;
END;

CREATE TABLE assist_run_counts (
    run_id  INTEGER PRIMARY KEY REFERENCES assist_runs(id) ON DELETE CASCADE,
    outputs INTEGER NOT NULL
);

CREATE TRIGGER assist_run_counts_insert AFTER INSERT ON assist_outputs BEGIN
    INSERT INTO assist_run_counts (run_id, outputs) VALUES (NEW.run_id, 1)
        ON CONFLICT (run_id) DO UPDATE SET outputs = outputs + 1;
END;

CREATE TRIGGER assist_run_counts_delete AFTER DELETE ON assist_outputs BEGIN
    UPDATE assist_run_counts SET outputs = outputs - 1 WHERE run_id = OLD.run_id;
END;

CREATE TRIGGER assist_run_counts_update AFTER UPDATE OF run_id ON assist_outputs
    WHEN OLD.run_id IS NOT NEW.run_id BEGIN
    UPDATE assist_run_counts SET outputs = outputs - 1 WHERE run_id = OLD.run_id;
    INSERT INTO assist_run_counts (run_id, outputs) VALUES (NEW.run_id, 1)
        ON CONFLICT (run_id) DO UPDATE SET outputs = outputs + 1;
END;

CREATE INDEX assist_outputs_labels ON assist_outputs(run_id, sentence_id, label) WHERE status = 'ok' AND label != '';

CREATE TABLE project_gold (
    project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    gold       INTEGER NOT NULL
);

CREATE TRIGGER project_counts_gold_insert AFTER INSERT ON gold_sentences WHEN NEW.label != '' BEGIN
    INSERT INTO project_gold (project_id, gold)
        SELECT s.project_id, 1 FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id WHERE ss.id = NEW.sentence_id
        ON CONFLICT (project_id) DO UPDATE SET gold = gold + 1;
END;

CREATE TRIGGER project_counts_gold_delete AFTER DELETE ON gold_sentences WHEN OLD.label != '' BEGIN
    UPDATE project_gold SET gold = gold - 1 WHERE project_id =
        (SELECT s.project_id FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id WHERE ss.id = OLD.sentence_id);
END;

CREATE TRIGGER project_counts_gold_update AFTER UPDATE OF label, sentence_id ON gold_sentences
    WHEN (OLD.label != '') != (NEW.label != '') OR OLD.sentence_id != NEW.sentence_id BEGIN
    UPDATE project_gold SET gold = gold - (OLD.label != '') WHERE project_id =
        (SELECT s.project_id FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id WHERE ss.id = OLD.sentence_id);
    INSERT INTO project_gold (project_id, gold)
        SELECT s.project_id, NEW.label != '' FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id WHERE ss.id = NEW.sentence_id
        ON CONFLICT (project_id) DO UPDATE SET gold = gold + excluded.gold;
END;

CREATE TRIGGER project_counts_gold_sentences_delete BEFORE DELETE ON summary_sentences BEGIN
    UPDATE project_gold SET gold = gold - (SELECT count(*) FROM gold_sentences g WHERE g.sentence_id = OLD.id AND g.label != '')
        WHERE project_id = (SELECT s.project_id FROM summaries s WHERE s.id = OLD.summary_id);
END;

CREATE TRIGGER project_counts_gold_summaries_delete BEFORE DELETE ON summaries BEGIN
    UPDATE project_gold SET gold = gold - (SELECT count(*) FROM summary_sentences ss CROSS JOIN gold_sentences g ON g.sentence_id = ss.id
        WHERE ss.summary_id = OLD.id AND g.label != '')
        WHERE project_id = OLD.project_id;
END;

CREATE TABLE round_counts (
    round_id       INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    user_id        INTEGER NOT NULL,
    submitted      INTEGER NOT NULL DEFAULT 0,
    in_progress    INTEGER NOT NULL DEFAULT 0,
    pending        INTEGER NOT NULL DEFAULT 0,
    released       INTEGER NOT NULL DEFAULT 0,
    active_seconds INTEGER NOT NULL DEFAULT 0,
    last_submit    TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (round_id, user_id)
) WITHOUT ROWID;

CREATE TRIGGER round_counts_insert AFTER INSERT ON assignments BEGIN
    INSERT INTO round_counts (round_id, user_id, submitted, in_progress, pending, released, active_seconds, last_submit)
        VALUES (NEW.round_id, NEW.user_id, NEW.status = 'submitted', NEW.status = 'in_progress', NEW.status = 'pending',
            NEW.status = 'released', NEW.active_seconds, coalesce(NEW.submitted_at, ''))
        ON CONFLICT (round_id, user_id) DO UPDATE SET submitted = submitted + excluded.submitted, in_progress = in_progress + excluded.in_progress,
            pending = pending + excluded.pending, released = released + excluded.released,
            active_seconds = active_seconds + excluded.active_seconds, last_submit = max(last_submit, excluded.last_submit);
END;

CREATE TRIGGER round_counts_delete AFTER DELETE ON assignments BEGIN
    UPDATE round_counts SET submitted = submitted - (OLD.status = 'submitted'), in_progress = in_progress - (OLD.status = 'in_progress'),
        pending = pending - (OLD.status = 'pending'), released = released - (OLD.status = 'released'),
        active_seconds = active_seconds - OLD.active_seconds
        WHERE round_id = OLD.round_id AND user_id = OLD.user_id;
END;

CREATE TRIGGER round_counts_update AFTER UPDATE OF status, active_seconds, submitted_at, user_id, round_id ON assignments
    WHEN OLD.status IS NOT NEW.status OR OLD.active_seconds IS NOT NEW.active_seconds OR OLD.submitted_at IS NOT NEW.submitted_at
        OR OLD.user_id IS NOT NEW.user_id OR OLD.round_id IS NOT NEW.round_id BEGIN
    UPDATE round_counts SET submitted = submitted - (OLD.status = 'submitted'), in_progress = in_progress - (OLD.status = 'in_progress'),
        pending = pending - (OLD.status = 'pending'), released = released - (OLD.status = 'released'),
        active_seconds = active_seconds - OLD.active_seconds
        WHERE round_id = OLD.round_id AND user_id = OLD.user_id;
    INSERT INTO round_counts (round_id, user_id, submitted, in_progress, pending, released, active_seconds, last_submit)
        VALUES (NEW.round_id, NEW.user_id, NEW.status = 'submitted', NEW.status = 'in_progress', NEW.status = 'pending',
            NEW.status = 'released', NEW.active_seconds, coalesce(NEW.submitted_at, ''))
        ON CONFLICT (round_id, user_id) DO UPDATE SET submitted = submitted + excluded.submitted, in_progress = in_progress + excluded.in_progress,
            pending = pending + excluded.pending, released = released + excluded.released,
            active_seconds = active_seconds + excluded.active_seconds, last_submit = max(last_submit, excluded.last_submit);
END;

CREATE TABLE eval_versions (
    project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    version    INTEGER NOT NULL
);

CREATE TRIGGER eval_version_gold_sentences_insert AFTER INSERT ON gold_sentences BEGIN
    INSERT INTO eval_versions (project_id, version) SELECT s.project_id, 1 FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id WHERE ss.id = NEW.sentence_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER eval_version_gold_sentences_update AFTER UPDATE ON gold_sentences BEGIN
    INSERT INTO eval_versions (project_id, version) SELECT s.project_id, 1 FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id WHERE ss.id = NEW.sentence_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER eval_version_gold_sentences_delete AFTER DELETE ON gold_sentences BEGIN
    INSERT INTO eval_versions (project_id, version) SELECT s.project_id, 1 FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id WHERE ss.id = OLD.sentence_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER eval_version_assist_outputs_insert AFTER INSERT ON assist_outputs BEGIN
    INSERT INTO eval_versions (project_id, version) SELECT r.project_id, 1 FROM assist_runs r WHERE r.id = NEW.run_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER eval_version_assist_outputs_update AFTER UPDATE ON assist_outputs BEGIN
    INSERT INTO eval_versions (project_id, version) SELECT r.project_id, 1 FROM assist_runs r WHERE r.id = NEW.run_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER eval_version_assist_outputs_delete AFTER DELETE ON assist_outputs BEGIN
    INSERT INTO eval_versions (project_id, version) SELECT r.project_id, 1 FROM assist_runs r WHERE r.id = OLD.run_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE INDEX assignments_round_user ON assignments(round_id, user_id, status, active_seconds, submitted_at, summary_id);

CREATE TABLE sentence_labels (
    id                   INTEGER PRIMARY KEY,
    assignment_id        INTEGER NOT NULL REFERENCES assignments(id) ON DELETE CASCADE,
    sentence_id          INTEGER NOT NULL REFERENCES summary_sentences(id) ON DELETE CASCADE,
    label                TEXT NOT NULL DEFAULT '' CHECK (label IN ('', 'faithful', 'unfaithful', 'borderline')),
    error_types          TEXT NOT NULL DEFAULT '[]',
    explanation          TEXT NOT NULL DEFAULT '',
    ambiguous            INTEGER, -- NULL: not answered
    ambiguity_type       TEXT NOT NULL DEFAULT '',
    ambiguity_note       TEXT NOT NULL DEFAULT '',
    unsure_note          TEXT NOT NULL DEFAULT '',
    assistant_visible    INTEGER NOT NULL DEFAULT 0,
    changed_after_reveal INTEGER NOT NULL DEFAULT 0,
    first_label          TEXT NOT NULL DEFAULT '',
    updated_at           TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    label_bits           INTEGER NOT NULL GENERATED ALWAYS AS (
        (CASE label WHEN '' THEN 0 WHEN 'faithful' THEN 1 WHEN 'unfaithful' THEN 2 WHEN 'borderline' THEN 3 ELSE 256 END)
        | (CASE first_label WHEN '' THEN 0 WHEN 'faithful' THEN 4 WHEN 'unfaithful' THEN 8 WHEN 'borderline' THEN 12 ELSE 2048 END)
        | (coalesce((ambiguous != 0) + 1, 0) << 4)
        | ((assistant_visible != 0) << 6) | ((changed_after_reveal != 0) << 7)
        | ((length(error_types) > 2) << 9) | ((ambiguity_type != '') << 10)) STORED,
    UNIQUE (assignment_id, sentence_id)
);

CREATE INDEX sentence_labels_sentence ON sentence_labels(sentence_id);

CREATE TRIGGER report_version_sentence_labels_insert AFTER INSERT ON sentence_labels BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = NEW.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_sentence_labels_update AFTER UPDATE ON sentence_labels BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = NEW.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER report_version_sentence_labels_delete AFTER DELETE ON sentence_labels BEGIN
    INSERT INTO report_versions (project_id, version) SELECT r.project_id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE a.id = OLD.assignment_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER gold_tallies_labels_insert AFTER INSERT ON sentence_labels BEGIN
    INSERT INTO gold_tallies_stale (sentence_id)
        SELECT sentence_id FROM gold_sentences WHERE sentence_id = NEW.sentence_id AND provenance IN ('unresolved', 'imported')
        ON CONFLICT DO NOTHING;
END;

CREATE TRIGGER gold_tallies_labels_update AFTER UPDATE ON sentence_labels BEGIN
    INSERT INTO gold_tallies_stale (sentence_id)
        SELECT sentence_id FROM gold_sentences WHERE sentence_id IN (NEW.sentence_id, OLD.sentence_id) AND provenance IN ('unresolved', 'imported')
        ON CONFLICT DO NOTHING;
END;

CREATE TRIGGER gold_tallies_labels_delete AFTER DELETE ON sentence_labels BEGIN
    INSERT INTO gold_tallies_stale (sentence_id)
        SELECT sentence_id FROM gold_sentences WHERE sentence_id = OLD.sentence_id AND provenance IN ('unresolved', 'imported')
        ON CONFLICT DO NOTHING;
END;

CREATE TRIGGER round_activity_labels_insert AFTER INSERT ON sentence_labels BEGIN
    INSERT INTO round_activity (round_id, user_id, last_at)
        SELECT a.round_id, a.user_id, NEW.updated_at FROM assignments a WHERE a.id = NEW.assignment_id
        ON CONFLICT (round_id, user_id) DO UPDATE SET last_at = max(last_at, excluded.last_at);
END;

CREATE TRIGGER round_activity_labels_update AFTER UPDATE OF updated_at ON sentence_labels
    WHEN NEW.updated_at IS NOT OLD.updated_at BEGIN
    INSERT INTO round_activity (round_id, user_id, last_at)
        SELECT a.round_id, a.user_id, NEW.updated_at FROM assignments a WHERE a.id = NEW.assignment_id
        ON CONFLICT (round_id, user_id) DO UPDATE SET last_at = max(last_at, excluded.last_at);
END;
