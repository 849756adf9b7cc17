package tasks_test

import (
	"context"
	"database/sql"
	"reflect"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/tasks"
)

// activityRows reads round_activity and the same worked out from the
// labels, each as round/user → time.
func activityRows(t *testing.T, path string) (kept, fromLabels map[[2]int64]string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=query_only(ON)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	read := func(query string) map[[2]int64]string {
		out := map[[2]int64]string{}
		rows, err := db.Query(query)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var k [2]int64
			var at string
			if err := rows.Scan(&k[0], &k[1], &at); err != nil {
				t.Fatal(err)
			}
			out[k] = at
		}
		return out
	}
	return read(`SELECT round_id, user_id, last_at FROM round_activity`),
		read(`SELECT a.round_id, a.user_id, max(l.updated_at) FROM sentence_labels l JOIN assignments a ON a.id = l.assignment_id GROUP BY 1, 2`)
}

// TestRoundActivityFollowsSavesAndImports: the last label time kept per
// round and annotator is the latest of their labels' times after an
// import (whose triggers are held: the writer records the times), after
// saves made through the labelling page's path, and after a second save
// of the same sentence; and the round page's pace reads it.
func TestRoundActivityFollowsSavesAndImports(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	p, _ := s.CreateProject(ctx, domain.Project{Slug: "p", Settings: domain.DefaultSettings()})
	if _, err := s.Import(ctx, p.ID, labelledDocs("faithful")); err != nil {
		t.Fatal(err)
	}
	kept, want := activityRows(t, s.Path())
	if len(want) != 2 || !reflect.DeepEqual(kept, want) {
		t.Fatalf("after the import: kept %v, from the labels %v", kept, want)
	}
	// A round dealt to a lead-made annotator, who saves twice on one
	// sentence.
	u, err := s.CreateUser(ctx, "ann", "", "a long enough password", false)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetMember(ctx, p.ID, u.ID, domain.RoleAnnotator); err != nil {
		t.Fatal(err)
	}
	sums, err := s.SummaryIDs(ctx, p.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.CreateRound(ctx, p.ID, domain.RoundSpec{Name: "r", Kind: domain.RoundCalibration, Annotators: []int64{u.ID}, Summaries: sums[:1]})
	if err != nil {
		t.Fatal(err)
	}
	q, err := s.Queue(ctx, p.ID, u.ID)
	if err != nil || len(q) != 1 {
		t.Fatalf("queue %v, %v", q, err)
	}
	sum, err := s.Summary(ctx, q[0].SummaryID)
	if err != nil {
		t.Fatal(err)
	}
	v := q[0].Version
	for _, label := range []string{domain.LabelFaithful, domain.LabelUnfaithful} {
		l := domain.SentenceLabel{SentenceID: sum.Sentences[0].ID, Label: label}
		if label == domain.LabelUnfaithful {
			l.ErrorTypes = []string{"contradiction"}
		}
		if _, v, err = s.SaveSentenceLabelFromPage(ctx, q[0].ID, u.ID, v, l); err != nil {
			t.Fatal(err)
		}
		kept, want = activityRows(t, s.Path())
		if len(want) != 3 || !reflect.DeepEqual(kept, want) {
			t.Fatalf("after saving %s: kept %v, from the labels %v", label, kept, want)
		}
	}
	pace, err := s.RoundPace(ctx, r.ID)
	if err != nil || len(pace) != 1 || pace[0].LastActive != want[[2]int64{r.ID, u.ID}] || pace[0].LastActive == "" {
		t.Fatalf("pace %+v (%v), want the last save %q", pace, err, want[[2]int64{r.ID, u.ID}])
	}
}

// TestRoundActivityMigrationFills: a database from before the kept times
// gets them from its labels when it is opened.
func TestRoundActivityMigrationFills(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	p, _ := s.CreateProject(ctx, domain.Project{Slug: "p", Settings: domain.DefaultSettings()})
	if _, err := s.Import(ctx, p.ID, labelledDocs("unfaithful")); err != nil {
		t.Fatal(err)
	}
	path := s.Path()
	s.Close()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`DROP TRIGGER round_activity_labels_insert`, `DROP TRIGGER round_activity_labels_update`,
		`DROP TABLE round_activity`, `PRAGMA user_version = 35`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	s2, err := tasks.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	kept, want := activityRows(t, path)
	if len(want) != 2 || !reflect.DeepEqual(kept, want) {
		t.Fatalf("after the migration: kept %v, from the labels %v", kept, want)
	}
}
