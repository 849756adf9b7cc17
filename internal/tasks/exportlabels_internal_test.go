package tasks

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"testing"
)

// TestLabelTexts builds labelTextsColumn in SQLite from labels whose texts
// hold commas, digits and characters of several bytes, and reads it back
// with unpackText: the texts come back whole, the explanation only of an
// unfaithful label and the first label only when it is not a label
// value; a value it cannot split is an error, not texts shifted by a few
// bytes.
func TestLabelTexts(t *testing.T) {
	db, err := sql.Open(driverName, "file:"+filepath.Join(t.TempDir(), "l.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	// The labels table as the store makes it, whose label_bits tell the
	// label and the first label apart (foreign keys are not enforced on
	// this connection).
	if _, err := db.ExecContext(ctx, sentenceLabelsV45); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		label, explanation, ambType, ambNote, unsure, first string
		want                                                []string
	}{
		{"faithful", "", "", "", "", "", []string{"", "", "", "", ""}},
		{"unfaithful", "why?", "vagueness", "", "12, 3,", "not a label", []string{"why?", "vagueness", "", "12, 3,", "not a label"}},
		{"unfaithful", "éà", "", "x,1", "", ",", []string{"éà", "", "x,1", "", ","}},
		{"faithful", "kept only for unfaithful", "", "", "", "faithful", []string{"", "", "", "", ""}},
	} {
		if _, err := db.ExecContext(ctx, `DELETE FROM sentence_labels`); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO sentence_labels (assignment_id, sentence_id, label, explanation, ambiguity_type, ambiguity_note,
			unsure_note, first_label) VALUES (1, 1, ?, ?, ?, ?, ?, ?)`, c.label, c.explanation, c.ambType, c.ambNote, c.unsure, c.first); err != nil {
			t.Fatal(err)
		}
		var v string
		if err := db.QueryRowContext(ctx, `SELECT `+labelTextsColumn+` FROM sentence_labels l`).Scan(&v); err != nil {
			t.Fatal(err)
		}
		var got [5]string
		if err := unpackText(v, got[:]); err != nil {
			t.Errorf("%q: %v", v, err)
			continue
		}
		if !slices.Equal(got[:], c.want) {
			t.Errorf("%q: %q, want %q", v, got, c.want)
		}
	}
	for _, bad := range []string{"", "1,2", "4,0,0,0,0,:abc", "x,0,0,0,0,:", "-1,0,0,0,0,:a"} {
		var got [5]string
		if err := unpackText(bad, got[:]); err == nil {
			t.Errorf("%q: split as %q", bad, got)
		}
	}
}
