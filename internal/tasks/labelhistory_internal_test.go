package tasks

import (
	"context"
	"database/sql"
	"encoding/json"
	"reflect"
	"testing"

	"annotate/internal/domain"
)

// historyLabels are labels with each field set alone and all together,
// and with a "no" ambiguity answer, which must not read back as none.
func historyLabels() []domain.SentenceLabel {
	no, yes := false, true
	return []domain.SentenceLabel{
		{Label: domain.LabelFaithful},
		{},
		{Label: domain.LabelUnfaithful, ErrorTypes: []string{"contradiction", "unsupported"}},
		{Label: domain.LabelFaithful, Ambiguous: &no},
		{Label: domain.LabelBorderline, Ambiguous: &yes, AmbiguityType: "scope", AmbiguityNote: "which council?"},
		{Label: domain.LabelFaithful, Explanation: "Units 3 and 4 say \"so\" \u2028 and more.", UnsureNote: "not sure"},
		{Label: domain.LabelUnfaithful, ErrorTypes: []string{"contradiction"}, Flag: "bad split", AssistantVisible: true,
			FirstLabel: domain.LabelFaithful, ChangedAfterReveal: true},
	}
}

// TestHistoryDataRoundTrips: every label field survives the compact
// history data, and a label with only its value is written as that alone.
func TestHistoryDataRoundTrips(t *testing.T) {
	for i, l := range historyLabels() {
		data := historyData(&l)
		var got domain.SentenceLabel
		if err := json.Unmarshal([]byte(data), &got); err != nil {
			t.Fatalf("label %d: %s: %v", i, data, err)
		}
		got.ErrorTypes, l.ErrorTypes = domain.NonNil(got.ErrorTypes), domain.NonNil(l.ErrorTypes)
		if !reflect.DeepEqual(got, l) {
			t.Fatalf("label %d: %s reads back as\n%+v, want\n%+v", i, data, got, l)
		}
	}
	if got := historyData(&domain.SentenceLabel{SentenceID: 7, Label: domain.LabelFaithful, ErrorTypes: []string{}, UpdatedAt: "2026-01-01T00:00:00.000Z"}); got != `{"label":"faithful"}` {
		t.Fatalf("a plain label's history data is %s", got)
	}
}

// TestLabelHistoryReadsBothForms: LabelHistory gives the saved labels
// whole, with their sentence and time from the row, from compact data
// (as saves write it now) and from data with every field named (as rows
// written before hold it).
func TestLabelHistoryReadsBothForms(t *testing.T) {
	s := labelScanStore(t, 1)
	ctx := context.Background()
	p, err := s.ProjectBySlug(ctx, "big")
	if err != nil {
		t.Fatal(err)
	}
	var aid, uid, sid int64
	if err := s.read.QueryRowContext(ctx, `SELECT a.id, a.user_id, ss.id FROM assignments a JOIN rounds r ON r.id = a.round_id
		JOIN summary_sentences ss ON ss.summary_id = a.summary_id WHERE r.project_id = ? ORDER BY a.id, ss.idx LIMIT 1`, p.ID).Scan(&aid, &uid, &sid); err != nil {
		t.Fatal(err)
	}
	if err := s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM sentence_label_history WHERE assignment_id = ?`, aid)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	want := historyLabels()
	for i := range want {
		want[i].SentenceID, want[i].UpdatedAt = sid, stamp(s.now())
		data := historyData(&want[i])
		if i%2 == 1 {
			full, err := json.Marshal(want[i])
			if err != nil {
				t.Fatal(err)
			}
			data = string(full)
		}
		if err := s.tx(ctx, func(tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO sentence_label_history (assignment_id, sentence_id, user_id, data, created_at) VALUES (?, ?, ?, ?, ?)`,
				aid, sid, uid, data, want[i].UpdatedAt)
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.LabelHistory(ctx, aid)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d history entries, want %d", len(got), len(want))
	}
	for i, e := range got {
		e.Label.ErrorTypes, want[i].ErrorTypes = domain.NonNil(e.Label.ErrorTypes), domain.NonNil(want[i].ErrorTypes)
		if !reflect.DeepEqual(e.Label, want[i]) {
			t.Fatalf("entry %d reads\n%+v, want\n%+v", i, e.Label, want[i])
		}
	}
}
