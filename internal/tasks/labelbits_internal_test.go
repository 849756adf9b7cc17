package tasks

import (
	"context"
	"database/sql"
	"fmt"
	"math/bits"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// labelBitsOracle computes sentence_labels.label_bits from a label's
// columns in Go, as sentenceLabelsV45 documents them.
func labelBitsOracle(label, first string, ambiguous sql.NullInt64, visible, changed int64, types, ambiguityType string) int64 {
	codes := map[string]int64{"": 0, "faithful": 1, "unfaithful": 2, "borderline": 3}
	var b int64
	if c, ok := codes[label]; ok {
		b |= c
	} else {
		b |= 256
	}
	if c, ok := codes[first]; ok {
		b |= c << 2
	} else {
		b |= 2048
	}
	if ambiguous.Valid {
		b |= 1 << 4
		if ambiguous.Int64 != 0 {
			b = b&^(3<<4) | 2<<4
		}
	}
	if visible != 0 {
		b |= 64
	}
	if changed != 0 {
		b |= 128
	}
	if utf8.RuneCountInString(types) > 2 {
		b |= 512
	}
	if ambiguityType != "" {
		b |= 1024
	}
	return b
}

// labelRows reads every sentence label's columns but label_bits, by id,
// as text, and what labelBitsOracle makes of them.
func labelRows(t *testing.T, db *sql.DB) (rows []string, bits map[int64]int64) {
	t.Helper()
	bits = map[int64]int64{}
	r, err := db.Query(`SELECT id, assignment_id, sentence_id, label, error_types, explanation, ambiguous, ambiguity_type, ambiguity_note,
		unsure_note, assistant_visible, changed_after_reveal, first_label, updated_at FROM sentence_labels ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for r.Next() {
		var id, aid, sid, visible, changed int64
		var label, types, expl, ambType, ambNote, unsure, first, at string
		var amb sql.NullInt64
		if err := r.Scan(&id, &aid, &sid, &label, &types, &expl, &amb, &ambType, &ambNote, &unsure, &visible, &changed, &first, &at); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, fmt.Sprintf("%d %d %d %q %q %q %v %q %q %q %d %d %q %q", id, aid, sid, label, types, expl, amb, ambType, ambNote, unsure, visible, changed, first, at))
		bits[id] = labelBitsOracle(label, first, amb, visible, changed, types, ambType)
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return rows, bits
}

// tableObjects lists the text of a table's indexes and triggers.
func tableObjects(t *testing.T, db *sql.DB, table string) []string {
	t.Helper()
	var out []string
	r, err := db.Query(`SELECT sql FROM sqlite_schema WHERE tbl_name = ? AND type IN ('index', 'trigger') AND sql IS NOT NULL`, table)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for r.Next() {
		var q string
		r.Scan(&q)
		out = append(out, q)
	}
	slices.Sort(out)
	return out
}

// TestLabelBitsMigration: a database at version 44 with labels of every
// kind (odd first labels, unknown error types, every ambiguity answer,
// one whose assignment is gone) keeps each label as it was, and its table's indexes and
// triggers, when migration 45 makes sentence_labels anew; each label's
// label_bits is then what the columns say (labelBitsOracle), and the
// triggers still fire.
func TestLabelBitsMigration(t *testing.T) {
	ctx := context.Background()
	s := labelScanStore(t, 3)
	path := s.Path()
	// Flags and answers the fixture leaves out.
	for _, q := range []string{
		`UPDATE sentence_labels SET assistant_visible = 1 WHERE id % 3 = 0`,
		`UPDATE sentence_labels SET changed_after_reveal = 2 WHERE id % 5 = 0`,
		`UPDATE sentence_labels SET ambiguous = 0, ambiguity_type = '' WHERE id % 7 = 0`,
		`UPDATE sentence_labels SET error_types = '' WHERE id % 11 = 0`,
	} {
		if _, err := s.write.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	v1 := regexp.MustCompile(`(?s)CREATE TABLE sentence_labels \(.*?\n\);`).FindString(baseSchema)
	if v1 == "" {
		t.Fatal("no sentence_labels in the base schema")
	}
	// Back to version 44: the table as the first release made it.
	if err := s.tx(ctx, func(tx *sql.Tx) error {
		if err := rebuildTable(ctx, tx, "sentence_labels", v1); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `PRAGMA user_version = 44`)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var hasBits int
	db.QueryRow(`SELECT count(*) FROM pragma_table_xinfo('sentence_labels') WHERE name = 'label_bits'`).Scan(&hasBits)
	if hasBits != 0 {
		t.Fatal("label_bits still there at version 44")
	}
	// A label whose assignment is gone, as a tool writing with foreign
	// keys off can leave: kept as it is, and no obstacle to the
	// migration.
	if _, err := db.Exec(`INSERT INTO sentence_labels (assignment_id, sentence_id, label) VALUES (987654321, (SELECT min(id) FROM summary_sentences), 'faithful')`); err != nil {
		t.Fatal(err)
	}
	before, want := labelRows(t, db)
	objects := tableObjects(t, db, "sentence_labels")
	if len(before) < 100 || len(objects) < 8 {
		t.Fatalf("fixture too small: %d labels, %d indexes and triggers", len(before), len(objects))
	}
	odd := 0
	for _, b := range want {
		if b&(256|2048) != 0 {
			odd++
		}
	}
	if odd == 0 {
		t.Fatalf("no label with an odd value in the fixture: %s", before[:5])
	}

	s2, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	after, _ := labelRows(t, db)
	if !reflect.DeepEqual(before, after) {
		t.Fatalf("labels changed in the migration: %d rows before, %d after", len(before), len(after))
	}
	if got := tableObjects(t, db, "sentence_labels"); !reflect.DeepEqual(got, objects) {
		t.Fatalf("indexes and triggers after the migration:\n%q\nwant\n%q", got, objects)
	}
	got := map[int64]int64{}
	r, err := db.Query(`SELECT id, label_bits FROM sentence_labels`)
	if err != nil {
		t.Fatal(err)
	}
	for r.Next() {
		var id, b int64
		r.Scan(&id, &b)
		got[id] = b
	}
	r.Close()
	if !reflect.DeepEqual(got, want) {
		for id, b := range want {
			if got[id] != b {
				t.Fatalf("label %d: label_bits %b, want %b", id, got[id], b)
			}
		}
		t.Fatal("label_bits differ")
	}
	// The store's writer checks foreign keys again.
	if _, err := s2.write.ExecContext(ctx, `INSERT INTO sentence_labels (assignment_id, sentence_id, label) VALUES (987654322, (SELECT min(id) FROM summary_sentences), 'faithful')`); err == nil {
		t.Fatal("a label of no assignment written after the migration")
	}
	// The report's counter still follows the labels.
	var v0, v1After int64
	db.QueryRow(`SELECT coalesce(sum(version), 0) FROM report_versions`).Scan(&v0)
	if _, err := s2.write.ExecContext(ctx, `UPDATE sentence_labels SET label = 'faithful' WHERE id = (SELECT min(id) FROM sentence_labels)`); err != nil {
		t.Fatal(err)
	}
	db.QueryRow(`SELECT coalesce(sum(version), 0) FROM report_versions`).Scan(&v1After)
	if v1After != v0+1 {
		t.Fatalf("report version %d after a label changed, want %d", v1After, v0+1)
	}
}

// TestLabelBitsQueriesUseTheLayout: the labels queries test label_bits
// with the masks labelbits.go names, and shift the sentence above them.
func TestLabelBitsQueriesUseTheLayout(t *testing.T) {
	for _, c := range []struct{ query, want string }{
		{labelSentence, fmt.Sprintf("<< %d)", labelBitsWidth)},
		{labelColumns, fmt.Sprintf("label_bits & %d THEN l.error_types", labelBitsErrorTypes)},
		{labelColumns, fmt.Sprintf("label_bits & %d THEN length(", labelBitsAmbiguity|labelBitsOddFirst)},
		{cellQueries["labels"], fmt.Sprintf("label_bits & %d = %d THEN l.error_types", labelBitsErrorTypes|labelBitsLabel, labelBitsErrorTypes|2)},
		{cellQueries["labels"], fmt.Sprintf("label_bits & %d OR (l.label_bits & %d = 2 AND", labelBitsAmbiguity|labelBitsOddFirst, labelBitsLabel)},
		{sentenceLabelsV45, fmt.Sprintf("ELSE %d END)\n        | (CASE first_label", labelBitsNotLabel)},
		{sentenceLabelsV45, fmt.Sprintf("ELSE %d END)\n        | (coalesce", labelBitsOddFirst)},
		{sentenceLabelsV45, fmt.Sprintf("((length(error_types) > 2) << %d) | ((ambiguity_type != '') << %d)", bits.TrailingZeros(labelBitsErrorTypes), bits.TrailingZeros(labelBitsAmbiguity))},
	} {
		if !strings.Contains(c.query, c.want) {
			t.Errorf("%q not in\n%s", c.want, c.query)
		}
	}
	if 1<<labelBitsWidth <= labelBitsOddFirst {
		t.Errorf("label_bits's widest bit %d does not fit in %d bits", labelBitsOddFirst, labelBitsWidth)
	}
}

// TestMigrationStepsMatchTheirEntries: a migration made by a Go step has
// an empty entry in migrations, and every empty entry has a step.
func TestMigrationStepsMatchTheirEntries(t *testing.T) {
	for i, q := range migrations {
		version := baseVersion + i + 1
		if step := migrationSteps[version]; (step != nil) != (q == "") {
			t.Errorf("migration to version %d: step %v, SQL %q", version, step != nil, q)
		}
	}
	for version := range migrationSteps {
		if version <= baseVersion || version > CurrentSchemaVersion() {
			t.Errorf("a step for version %d, which no migration makes", version)
		}
	}
}
