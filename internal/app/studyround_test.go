package app_test

import (
	"database/sql"
	"testing"

	"annotate/internal/app"
	"annotate/internal/domain"
)

// A study made over a round that exists takes the summaries the round
// deals, released ones too, each once, with how often the round has
// dealt each already (live assignments only) and its place in the
// dealing order drawn from the seed; summaries the round does not deal
// are not items.
func TestStudyOverARoundTakesItsSummaries(t *testing.T) {
	ctx, s, p := studyProject(t)
	label := func(who, summary string) domain.LabelRecord {
		return domain.LabelRecord{Summary: summary, Sentence: 1, Label: &domain.SentenceLabelInput{Annotator: who, Round: "crowd", Label: domain.LabelFaithful}, Source: "test"}
	}
	if _, err := s.Import(ctx, p.ID, nil, label("w1", "s4"), label("w2", "s4"), label("w1", "s2"), label("w3", "s5")); err != nil {
		t.Fatal(err)
	}
	err := s.WriteTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE assignments SET status = 'released'
			WHERE summary_id = (SELECT id FROM summaries WHERE external_id = 's5')`)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	const seed = 4294967291 + 12345 // reduced modulo the prime before use
	def := `{"round":"crowd","conditions":["none"],"seed":4294979636,"attention_rate":0,"k":3,"items_per_participant":2}`
	st, err := app.New(s).CreateStudy(ctx, p, "over the round", []byte(def))
	if err != nil {
		t.Fatal(err)
	}
	type item struct {
		id             int64
		dealt, shuffle int64
		check          bool
	}
	got := map[string]item{}
	rows, err := s.Reader(ctx).QueryContext(ctx, `SELECT sm.external_id, sm.id, i.dealt, i.shuffle, i.is_check FROM study_items i
		JOIN summaries sm ON sm.id = i.summary_id WHERE i.study_id = ?`, st.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		var it item
		if err := rows.Scan(&name, &it.id, &it.dealt, &it.shuffle, &it.check); err != nil {
			t.Fatal(err)
		}
		got[name] = it
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"s2": 1, "s4": 2, "s5": 0}
	if len(got) != len(want) || st.Items != len(want) {
		t.Fatalf("items %v (study says %d), want the round's summaries s2, s4 and s5", got, st.Items)
	}
	for name, n := range want {
		it, ok := got[name]
		if !ok || it.dealt != n || it.check {
			t.Fatalf("item %s: %+v (present %v), want dealt %d and no check", name, it, ok, n)
		}
		if w := (it.id*2654435761 + seed%4294967291) % 4294967291; it.shuffle != w {
			t.Fatalf("item %s: shuffle %d, want %d", name, it.shuffle, w)
		}
	}
}
