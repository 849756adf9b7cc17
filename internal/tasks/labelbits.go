package tasks

import (
	"context"
	"database/sql"
)

// sentenceLabelsV45 is the sentence_labels table from version 45 on: the
// first release's columns and label_bits, the label's values that readers
// of many labels (the report, the raw export) want as one number, stored
// when the label is written. Computing them per row at each read, with a
// dozen text comparisons, took longer than reading the rest of the row:
// 0.7 s of a 1.2 s read of 1.5M labels.
//
// label_bits holds (labelBits* name the masks):
//   - bits 0–1: the label, 0 for none, 1 faithful, 2 unfaithful, 3
//     borderline; bit 8 is set for any other value (which the CHECK
//     refuses: a reader treats it as an error);
//   - bits 2–3: the first label, the same codes, 0 when it is empty or not
//     a label value; bit 11 is set for one that is not a label value;
//   - bits 4–5: the ambiguity answer, 0 unanswered, 1 no, 2 yes;
//   - bit 6: the assistant was visible; bit 7: the label changed after it
//     was revealed;
//   - bit 9: the error types list is not empty; bit 10: an ambiguity type
//     is given.
const sentenceLabelsV45 = `CREATE TABLE sentence_labels (
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
)`

// The parts of sentence_labels.label_bits (see sentenceLabelsV45), and
// labelBitsWidth, the bits it takes: a reader packs the sentence id above
// them.
const (
	labelBitsLabel      = 3
	labelBitsNotLabel   = 256
	labelBitsErrorTypes = 512
	labelBitsAmbiguity  = 1024
	labelBitsOddFirst   = 2048
	labelBitsWidth      = 12
)

// sentencesFitAboveLabelBits reports whether every sentence id of the
// database leaves room for label_bits below it in one integer, as the
// labels queries pack them (labelSentence); when one does not (SQLite
// numbers every sentence after one inserted with a huge id above it),
// they read the sentence id as a column of its own.
func sentencesFitAboveLabelBits(ctx context.Context, tx *sql.Tx) (bool, error) {
	var maxID int64
	err := tx.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) FROM summary_sentences`).Scan(&maxID)
	return maxID < 1<<(63-labelBitsWidth), err
}
