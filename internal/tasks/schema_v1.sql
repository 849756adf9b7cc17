-- The whole schema of annotate. Applied in one transaction on a fresh
-- database; PRAGMA user_version records it. Later changes go in
-- migrations.go as ordered, append-only steps.

CREATE TABLE users (
    id            INTEGER PRIMARY KEY,
    username      TEXT NOT NULL UNIQUE COLLATE NOCASE,
    display_name  TEXT NOT NULL DEFAULT '',
    password_hash BLOB NOT NULL,
    is_admin      INTEGER NOT NULL DEFAULT 0,
    disabled      INTEGER NOT NULL DEFAULT 0,
    created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- settings is the label schema as JSON (see tasks.Settings).
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

-- The numbered units of a document: sentences of prose, turns of a dialogue.
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

-- The annotation units. The split is editable by a lead until labelled.
CREATE TABLE summary_sentences (
    id          INTEGER PRIMARY KEY,
    summary_id  INTEGER NOT NULL REFERENCES summaries(id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL, -- 1-based
    text        TEXT NOT NULL,
    translation TEXT NOT NULL DEFAULT '',
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

-- The current label of one annotator on one sentence; every change is also
-- appended to sentence_label_history.
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
    UNIQUE (assignment_id, sentence_id)
);

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

-- Key-fact alignment: the annotator says sentence S carries key fact K.
CREATE TABLE keyfact_labels (
    assignment_id INTEGER NOT NULL REFERENCES assignments(id) ON DELETE CASCADE,
    key_fact_id   INTEGER NOT NULL REFERENCES key_facts(id) ON DELETE CASCADE,
    sentence_id   INTEGER NOT NULL REFERENCES summary_sentences(id) ON DELETE CASCADE,
    created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (assignment_id, key_fact_id, sentence_id)
);

-- Gold per sentence, with provenance: imported, unanimous, majority,
-- adjudicated or unresolved.
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
);

CREATE TABLE gold_history (
    id          INTEGER PRIMARY KEY,
    sentence_id INTEGER NOT NULL REFERENCES summary_sentences(id) ON DELETE CASCADE,
    data        TEXT NOT NULL,
    decided_by  INTEGER REFERENCES users(id),
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Gold for a whole summary (SummEdits labels summaries, not sentences).
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
);

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

-- Responses of the LLM endpoint keyed by a hash of the exact request.
CREATE TABLE llm_cache (
    key        TEXT PRIMARY KEY,
    value      BLOB NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Server secrets generated on first start (session keys).
CREATE TABLE secrets (
    name  TEXT PRIMARY KEY,
    value BLOB NOT NULL
);
