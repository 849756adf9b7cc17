package app_test

import (
	"database/sql"
	"testing"

	"annotate/internal/app"
	"annotate/internal/domain"
)

// An import holds the triggers that count, per study item, the study
// round's live assignments of its summary, and counts them once at the
// end: labels imported into a study's round count as dealt there, as the
// triggers would have counted them, and the triggers are back afterwards.
func TestImportIntoStudyRoundCountsDeals(t *testing.T) {
	ctx, s, p := studyProject(t)
	def := `{"round":"crowd","conditions":["debate","none"],"seed":1,"attention_rate":0,"k":2,"items_per_participant":3,"consent":"I agree to take part.",
		"completion":{"completed":"DONE42","no_consent":"NOPE7"}}`
	if _, err := app.New(s).CreateStudy(ctx, p, "pilot", []byte(def)); err != nil {
		t.Fatal(err)
	}
	dealt := func() map[string]int {
		t.Helper()
		rows, err := s.Reader(ctx).QueryContext(ctx, `SELECT sm.external_id, i.dealt FROM study_items i JOIN summaries sm ON sm.id = i.summary_id`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		out := map[string]int{}
		for rows.Next() {
			var name string
			var n int
			if err := rows.Scan(&name, &n); err != nil {
				t.Fatal(err)
			}
			out[name] = n
		}
		return out
	}
	label := func(who, summary string) domain.LabelRecord {
		return domain.LabelRecord{Summary: summary, Sentence: 1, Label: &domain.SentenceLabelInput{Annotator: who, Round: "crowd", Label: domain.LabelFaithful}, Source: "test"}
	}
	if _, err := s.Import(ctx, p.ID, nil, label("w1", "s1"), label("w2", "s1"), label("w1", "s2")); err != nil {
		t.Fatal(err)
	}
	got := dealt()
	if len(got) != 6 || got["s1"] != 2 || got["s2"] != 1 || got["s3"] != 0 {
		t.Fatalf("dealt after the import: %v, want s1 2, s2 1, the rest 0", got)
	}
	// The triggers are back: an assignment released outside an import
	// counts at once.
	err := s.WriteTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE assignments SET status = 'released' WHERE id = (SELECT a.id FROM assignments a JOIN summaries sm ON sm.id = a.summary_id
			WHERE sm.external_id = 's1' ORDER BY a.id LIMIT 1)`)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := dealt(); got["s1"] != 1 || got["s2"] != 1 {
		t.Fatalf("dealt after a release: %v, want s1 1, s2 1", got)
	}
}
