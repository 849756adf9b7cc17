package tasks

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
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

// historyGolds are gold decisions with each field set alone and all
// together.
func historyGolds() []domain.Gold {
	no, yes := false, true
	return []domain.Gold{
		{GoldValues: domain.GoldValues{Label: domain.LabelFaithful}, Provenance: domain.ProvUnanimous},
		{Provenance: domain.ProvUnresolved},
		{GoldValues: domain.GoldValues{Label: domain.LabelUnfaithful, ErrorTypes: []string{"contradiction"}, Explanation: "Unit 2 says \"no\".",
			Ambiguous: &no}, Provenance: domain.ProvAdjudicated, DecidedBy: 3, Note: "checked twice"},
		{GoldValues: domain.GoldValues{Label: domain.LabelBorderline, Ambiguous: &yes, AmbiguityType: "scope", AmbiguityNote: "which?"},
			Provenance: domain.ProvMajority, DecidedBy: 2},
		{GoldValues: domain.GoldValues{Label: domain.LabelFaithful}, Provenance: domain.ProvImported},
	}
}

// TestGoldHistoryDataRoundTrips: every gold field survives the compact
// history data, and the provenance is always there.
func TestGoldHistoryDataRoundTrips(t *testing.T) {
	for i, g := range historyGolds() {
		data := goldHistoryData(&g)
		var got domain.Gold
		if err := json.Unmarshal([]byte(data), &got); err != nil {
			t.Fatalf("gold %d: %s: %v", i, data, err)
		}
		got.ErrorTypes, g.ErrorTypes = domain.NonNil(got.ErrorTypes), domain.NonNil(g.ErrorTypes)
		if !reflect.DeepEqual(got, g) {
			t.Fatalf("gold %d: %s reads back as\n%+v, want\n%+v", i, data, got, g)
		}
	}
	if got := goldHistoryData(&domain.Gold{SentenceID: 7, Provenance: domain.ProvUnresolved, DecidedAt: "2026-01-01T00:00:00.000Z"}); got != `{"provenance":"unresolved"}` {
		t.Fatalf("unresolved gold's history data is %s", got)
	}
}

// TestGoldHistoryReadsBothForms: GoldHistory gives the decisions whole,
// with their sentence and time from the row, from compact data and from
// data with every field named.
func TestGoldHistoryReadsBothForms(t *testing.T) {
	s := labelScanStore(t, 1)
	ctx := context.Background()
	p, err := s.ProjectBySlug(ctx, "small")
	if err != nil {
		t.Fatal(err)
	}
	var sid, sum int64
	if err := s.read.QueryRowContext(ctx, `SELECT ss.id, ss.summary_id FROM summary_sentences ss JOIN summaries sm ON sm.id = ss.summary_id
		WHERE sm.project_id = ? ORDER BY ss.id LIMIT 1`, p.ID).Scan(&sid, &sum); err != nil {
		t.Fatal(err)
	}
	want := historyGolds()
	if err := s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM gold_history WHERE sentence_id IN (SELECT id FROM summary_sentences WHERE summary_id = ?)`, sum); err != nil {
			return err
		}
		for i := range want {
			want[i].SentenceID, want[i].DecidedAt = sid, fmt.Sprintf("2026-01-0%dT00:00:00.000Z", i+1)
			data := goldHistoryData(&want[i])
			if i%2 == 1 {
				full, err := json.Marshal(want[i])
				if err != nil {
					return err
				}
				data = string(full)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO gold_history (sentence_id, data, decided_by, created_at) VALUES (?, ?, NULL, ?)`,
				sid, data, want[i].DecidedAt); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	got, err := s.GoldHistory(ctx, p.ID, sum, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d history entries, want %d", len(got), len(want))
	}
	for i, c := range got {
		w := want[len(want)-1-i] // newest first
		c.Gold.ErrorTypes, w.ErrorTypes = domain.NonNil(c.Gold.ErrorTypes), domain.NonNil(w.ErrorTypes)
		if !reflect.DeepEqual(c.Gold, w) {
			t.Fatalf("entry %d reads\n%+v, want\n%+v", i, c.Gold, w)
		}
	}
}
