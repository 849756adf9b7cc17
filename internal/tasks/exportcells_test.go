package tasks_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/tasks"
	"annotate/internal/testkit"
)

// cellsOracle is how the raw export read its cells before it merged one
// cursor per table: a query per summary that joins everything for every
// cell. It is the reference EachCells must agree with.
const cellsOracle = `SELECT r.name, a.id, a.user_id, u.username, a.status, a.active_seconds, coalesce(a.started_at, ''), coalesce(a.submitted_at, ''),
		ss.id, ss.idx, l.id IS NOT NULL, coalesce(l.label, ''),
		CASE WHEN l.label = 'unfaithful' THEN l.error_types ELSE '[]' END, CASE WHEN l.label = 'unfaithful' THEN l.explanation ELSE '' END, l.ambiguous,
		coalesce(l.ambiguity_type, ''), coalesce(l.ambiguity_note, ''), coalesce(l.unsure_note, ''), coalesce(l.first_label, ''),
		coalesce(l.assistant_visible, 0), coalesce(l.changed_after_reveal, 0), coalesce(l.updated_at, ''),
		sl.relevance, coalesce(sl.non_summary, 0), coalesce(sl.topic_category, ''), coalesce(sl.comment, ''),
		coalesce((SELECT o.label FROM assist_runs ar CROSS JOIN assist_outputs o ON o.run_id = ar.id AND o.sentence_id = ss.id
			WHERE ar.project_id = ?3 AND o.status = 'ok' AND o.label != '' ORDER BY ar.sample, ar.id DESC LIMIT 1), ''),
		coalesce(g.label, ''), coalesce(g.provenance, ''), coalesce(f.note, ''), coalesce(k.reason, '')
	FROM assignments a JOIN rounds r ON r.id = a.round_id JOIN users u ON u.id = a.user_id
	JOIN summary_sentences ss ON ss.summary_id = a.summary_id
	LEFT JOIN sentence_labels l ON l.assignment_id = a.id AND l.sentence_id = ss.id
	LEFT JOIN sentence_flags f ON f.assignment_id = a.id AND f.sentence_id = ss.id
	LEFT JOIN assignment_skips k ON k.assignment_id = a.id
	LEFT JOIN summary_labels sl ON sl.assignment_id = a.id
	LEFT JOIN gold_sentences g ON g.sentence_id = ss.id
	WHERE a.summary_id = ?1 AND (?2 = 0 OR a.round_id = ?2)
	ORDER BY ss.idx, a.id`

// oracleCells reads summary's cells with cellsOracle.
func oracleCells(t *testing.T, db *sql.DB, scope domain.ExportScope, summary int64) []domain.ExportLabel {
	t.Helper()
	rows, err := db.Query(cellsOracle, summary, scope.RoundID, scope.ProjectID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []domain.ExportLabel
	for rows.Next() {
		var l domain.ExportLabel
		var types string
		var amb sql.NullBool
		var rel sql.NullInt64
		if err := rows.Scan(&l.Round, &l.AssignmentID, &l.UserID, &l.Username, &l.Status, &l.ActiveSeconds, &l.StartedAt, &l.SubmittedAt,
			&l.SentenceID, &l.SentenceIndex, &l.Labelled, &l.Label, &types, &l.Explanation, &amb,
			&l.AmbiguityType, &l.AmbiguityNote, &l.UnsureNote, &l.FirstLabel,
			&l.AssistantVisible, &l.ChangedAfterReveal, &l.UpdatedAt,
			&rel, &l.NonSummary, &l.TopicCategory, &l.Comment, &l.AssistantLabel, &l.GoldLabel, &l.GoldProvenance, &l.Flag, &l.SkipReason); err != nil {
			t.Fatal(err)
		}
		l.ErrorTypes = []string{}
		if err := json.Unmarshal([]byte(types), &l.ErrorTypes); err != nil {
			t.Fatal(err)
		}
		if amb.Valid {
			l.Ambiguous = &amb.Bool
		}
		if rel.Valid {
			v := int(rel.Int64)
			l.Relevance = &v
		}
		out = append(out, l)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// cellsProject is a project with what the raw export must line up: a
// summary added to the first document after the second document's (so
// that summary ids do not follow document order), a summary with no
// assignment and one with no sentence, labels with every kind of answer,
// unlabelled cells, flags on labelled and unlabelled cells, a skip, a
// released assignment, summary labels, gold, assistant outputs, and a
// second project whose rows must stay out.
func cellsProject(t *testing.T) (*tasks.Store, *sql.DB, int64, map[string]int64) {
	t.Helper()
	ctx := context.Background()
	s := testkit.OpenStore(t)
	var project int64
	rounds := map[string]int64{}
	for _, slug := range []string{"other", "cells"} {
		p := testkit.Must(s.CreateProject(ctx, domain.Project{Slug: slug, Name: slug, Settings: domain.DefaultSettings()}))(t)
		var users []int64
		for i := range 3 {
			u := testkit.Must(s.CreateUser(ctx, fmt.Sprintf("%s%d", slug, i), "", "a long enough password", false))(t)
			if err := s.SetMember(ctx, p.ID, u.ID, domain.RoleAnnotator); err != nil {
				t.Fatal(err)
			}
			users = append(users, u.ID)
		}
		docs := []domain.DocumentInput{
			{ExternalID: "d1", Sentences: []string{"One."}, KeyFacts: []domain.KeyFactInput{{Text: "K1."}, {Text: "K2."}, {Topic: "t", Text: "K3."}}, Summaries: []domain.SummaryInput{
				{ExternalID: "d1-a", Sentences: []domain.SentenceInput{{Text: "A one.", Gold: &domain.GoldInput{Label: domain.LabelFaithful}}, {Text: "A two."}, {Text: "A three."}}},
				{ExternalID: "d1-b", Model: "m", Sentences: []domain.SentenceInput{{Text: "B one."}, {Text: "B two."}}},
			}},
			{ExternalID: "d2", Sentences: []string{"Two."}, KeyFacts: []domain.KeyFactInput{{Topic: "t", Text: "K4."}}, Summaries: []domain.SummaryInput{
				{ExternalID: "d2-a", Topic: "t", Sentences: []domain.SentenceInput{{Text: "C one."}}},
				{ExternalID: "d2-idle", Sentences: []domain.SentenceInput{{Text: "Never dealt."}}},
			}},
		}
		testkit.Must(s.Import(ctx, p.ID, docs))(t)
		ids := testkit.Must(s.SummaryIDs(ctx, p.ID, []string{"d1", "d2"}))(t)
		dealt := []int64{}
		for _, id := range ids {
			if sum := testkit.Must(s.Summary(ctx, id))(t); sum.ExternalID != "d2-idle" {
				dealt = append(dealt, id)
			}
		}
		rounds["cal"] = testkit.Must(s.CreateRound(ctx, p.ID, domain.RoundSpec{Name: "cal", Kind: domain.RoundCalibration, Annotators: users, Summaries: dealt}))(t).ID
		rounds["prod"] = testkit.Must(s.CreateRound(ctx, p.ID, domain.RoundSpec{Name: "prod", Kind: domain.RoundProduction, PerItem: 1, Annotators: users[:2], Summaries: dealt[:2]}))(t).ID
		project = p.ID
	}
	db, err := sql.Open("sqlite", "file:"+s.Path()+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatalf("%v\n%s", err, q)
		}
	}
	// A summary added to d1 after d2's, and one without sentences.
	for _, ext := range []string{"d1-late", "d1-empty"} {
		exec(`INSERT INTO summaries (project_id, document_id, external_id) SELECT project_id, id, ? FROM documents WHERE project_id = ? AND external_id = 'd1'`, ext, project)
	}
	exec(`INSERT INTO summary_sentences (summary_id, idx, text) SELECT id, 1, 'Late one.' FROM summaries WHERE external_id = 'd1-late' AND project_id = ?`, project)
	exec(`INSERT INTO summary_sentences (summary_id, idx, text) SELECT id, 2, 'Late two.' FROM summaries WHERE external_id = 'd1-late' AND project_id = ?`, project)
	exec(`INSERT INTO assignments (round_id, summary_id, user_id, position, status)
		SELECT ?, s.id, u.id, 99, 'in_progress' FROM summaries s, users u WHERE s.external_id IN ('d1-late', 'd1-empty') AND s.project_id = ? AND u.username = 'cells0'`, rounds["cal"], project)
	// Labels of both projects: every other cell, with varied answers.
	exec(`INSERT INTO sentence_labels (assignment_id, sentence_id, label, error_types, explanation, ambiguous, ambiguity_type, ambiguity_note,
			unsure_note, assistant_visible, changed_after_reveal, first_label, updated_at)
		SELECT a.id, ss.id,
			CASE (a.id + ss.id) % 4 WHEN 0 THEN 'faithful' WHEN 1 THEN 'unfaithful' WHEN 2 THEN 'borderline' ELSE '' END,
			CASE (a.id + ss.id) % 8 WHEN 1 THEN '["contradiction","extrinsic_information"]' ELSE '[]' END,
			CASE (a.id + ss.id) % 3 WHEN 0 THEN '' ELSE 'why ' || a.id END, CASE ss.id % 3 WHEN 0 THEN NULL ELSE (a.id + ss.id) % 2 END, 'vagueness', 'note "' || ss.id || '"',
			CASE a.id % 2 WHEN 0 THEN 'unsure, ' || a.id ELSE '' END, a.id % 2, (a.id + 1) % 2, CASE a.id % 3 WHEN 0 THEN 'faithful' WHEN 1 THEN 'not a label' ELSE '' END,
			'2026-01-0' || (1 + ss.id % 5) || 'T10:00:00.000Z'
		FROM assignments a JOIN summary_sentences ss ON ss.summary_id = a.summary_id WHERE (a.id * 7 + ss.id) % 3 != 0`)
	// A label on a sentence of another summary is not a cell.
	exec(`INSERT INTO sentence_labels (assignment_id, sentence_id, label)
		SELECT a.id, (SELECT ss.id FROM summary_sentences ss WHERE ss.summary_id != a.summary_id LIMIT 1), 'faithful' FROM assignments a LIMIT 1`)
	exec(`INSERT INTO sentence_flags (assignment_id, sentence_id, note)
		SELECT a.id, ss.id, 'flag ' || a.id || '/' || ss.id FROM assignments a JOIN summary_sentences ss ON ss.summary_id = a.summary_id WHERE (a.id + ss.id) % 5 = 0`)
	exec(`INSERT INTO assignment_skips (assignment_id, reason) SELECT id, 'too long ' || id FROM assignments WHERE id % 4 = 1`)
	exec(`INSERT INTO summary_labels (assignment_id, relevance, non_summary, topic_category, comment)
		SELECT id, CASE id % 3 WHEN 0 THEN NULL ELSE 1 + id % 5 END, id % 2, 'main', 'c' || id FROM assignments WHERE id % 2 = 0`)
	exec(`UPDATE assignments SET status = 'released' WHERE id % 6 = 2`)
	exec(`UPDATE assignments SET status = 'submitted', started_at = '2026-01-01T09:00:00.000Z', submitted_at = '2026-01-01T10:00:00.000Z', active_seconds = id * 3 WHERE id % 6 = 3`)
	// Gold of every provenance on sentences and summaries, and key-fact
	// links that make some alignments a majority and others not.
	// Its texts are each empty on some rows, and all empty on some.
	exec(`INSERT OR REPLACE INTO gold_sentences (sentence_id, label, error_types, explanation, ambiguous, ambiguity_type, ambiguity_note,
			provenance, decided_by, decided_at, note)
		SELECT ss.id, CASE ss.id % 4 WHEN 0 THEN 'faithful' WHEN 1 THEN 'unfaithful' WHEN 2 THEN '' ELSE 'borderline' END,
			CASE ss.id % 4 WHEN 1 THEN '["contradiction"]' ELSE '[]' END, CASE ss.id % 4 WHEN 1 THEN 'gold, ' || ss.id ELSE '' END,
			CASE ss.id % 3 WHEN 0 THEN NULL ELSE ss.id % 2 END,
			CASE ss.id % 11 WHEN 0 THEN 'scope' ELSE '' END, CASE ss.id % 11 WHEN 0 THEN 'wide, or "narrow"' ELSE '' END,
			CASE ss.id % 5 WHEN 0 THEN 'imported' WHEN 1 THEN 'unanimous' WHEN 2 THEN 'majority' WHEN 3 THEN 'adjudicated' ELSE 'unresolved' END,
			CASE WHEN ss.id % 5 = 3 THEN (SELECT min(id) FROM users) END, '2026-01-0' || (1 + ss.id % 7) || 'T12:00:00.000Z',
			CASE ss.id % 3 WHEN 0 THEN 'n' || ss.id ELSE '' END
		FROM summary_sentences ss WHERE ss.id % 7 != 0`)
	exec(`INSERT INTO gold_summaries (summary_id, label, provenance, decided_by, note)
		SELECT id, 'unfaithful', 'adjudicated', (SELECT max(id) FROM users), 'whole' FROM summaries WHERE id % 3 = 0`)
	exec(`UPDATE assignments SET status = 'submitted' WHERE status != 'released'
		AND (id % 5 = 0 OR summary_id IN (SELECT id FROM summaries WHERE external_id = 'd1-b'))`)
	exec(`INSERT INTO keyfact_labels (assignment_id, key_fact_id, sentence_id)
		SELECT a.id, k.id, ss.id FROM assignments a JOIN summaries s ON s.id = a.summary_id JOIN key_facts k ON k.document_id = s.document_id
			JOIN summary_sentences ss ON ss.summary_id = s.id
		WHERE (SELECT count(*) FROM assignments b WHERE b.summary_id = a.summary_id AND b.id < a.id) < 1 + (k.id + ss.id) % 3`)
	for _, sample := range []int{1, 0} {
		exec(`INSERT INTO assist_runs (project_id, protocol, model, sample) VALUES (?, 'single', 'judge', ?)`, project, sample)
		exec(`INSERT INTO assist_outputs (run_id, sentence_id, status, label, output)
			SELECT (SELECT max(id) FROM assist_runs), ss.id, 'ok', CASE ss.id % 2 WHEN 0 THEN 'faithful' ELSE 'unfaithful' END, '{}'
			FROM summary_sentences ss WHERE ss.id % 3 != ?`, sample)
	}
	// The newest run takes precedence where it has a labelled result; its
	// failed and unlabelled results leave the sentence to the older runs.
	exec(`INSERT INTO assist_runs (project_id, protocol, model, sample) VALUES (?, 'debate', 'judge-2', 0)`, project)
	exec(`INSERT INTO assist_outputs (run_id, sentence_id, status, label, output)
		SELECT (SELECT max(id) FROM assist_runs), ss.id, CASE ss.id % 4 WHEN 0 THEN 'error' ELSE 'ok' END,
			CASE ss.id % 5 WHEN 1 THEN '' WHEN 2 THEN 'faithful' ELSE 'unfaithful' END, '{}'
		FROM summary_sentences ss WHERE ss.id % 2 = 0`)
	return s, db, project, rounds
}

// TestEachCellsAgreesWithAQueryPerSummary reads a project's cells in
// every scope with EachCells, its labels on a second connection and on
// the export's own, and with the query per summary it replaced, and
// compares them field by field.
//
// The assistant's labels are read every way: the runs read whole first,
// a seek per run, and the runs sorted for each sentence (taken when a
// project has many runs).
func TestEachCellsAgreesWithAQueryPerSummary(t *testing.T) {
	s, db, project, rounds := cellsProject(t)
	defer func(max int) { *tasks.SeekRunsMax = max }(*tasks.SeekRunsMax)
	defer func() { *tasks.ExportAssistantVia = "" }()
	for _, via := range []string{"runs", "seeks"} {
		for _, max := range []int{*tasks.SeekRunsMax, 2} {
			*tasks.SeekRunsMax = max
			t.Run(fmt.Sprintf("runs read by %s, looked up one by one up to %d", via, max), func(t *testing.T) {
				*tasks.ExportAssistantVia = via
				eachScope(t, s, project, rounds, func(t *testing.T, scope domain.ExportScope) {
					want := allOracleCells(t, s, db, scope)
					if len(want) < 5 {
						t.Fatalf("only %d cells: the fixture does not exercise the merge", len(want))
					}
					compareCells(t, eachCells(t, s, scope), want)
				})
			})
		}
	}
}

// TestRawExportReadsRunsWhole checks that the raw export of a whole
// project reads the runs' labels whole, in order of precedence, and a
// run only when the runs before it left a sentence without a label: with
// the fixture's runs each leaving sentences to the next, all three are
// read; once a newer run labels every sentence, it alone is.
func TestRawExportReadsRunsWhole(t *testing.T) {
	s, db, project, _ := cellsProject(t)
	type read struct {
		run     int64
		whole   bool
		wanting int
	}
	var reads []read
	*tasks.AssistRunRead = func(run int64, whole bool, wanting int) { reads = append(reads, read{run, whole, wanting}) }
	defer func() { *tasks.AssistRunRead = nil }()
	runs := func() []int64 {
		var ids []int64
		rows, err := db.Query(`SELECT id FROM assist_runs WHERE project_id = ? ORDER BY sample, id DESC`, project)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		return ids
	}
	scope := domain.ExportScope{ProjectID: project}
	check := func(want []int64) {
		t.Helper()
		reads = nil
		compareCells(t, eachCells(t, s, scope), allOracleCells(t, s, db, scope))
		var got []int64
		for _, r := range reads {
			if !r.whole {
				t.Errorf("run %d was looked up, not read whole", r.run)
			}
			got = append(got, r.run)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("runs read %v, want %v", got, want)
		}
	}
	check(runs())
	if _, err := db.Exec(`INSERT INTO assist_runs (project_id, protocol, model, sample) VALUES (?, 'single', 'judge-3', 0)`, project); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO assist_outputs (run_id, sentence_id, status, label, output)
		SELECT (SELECT max(id) FROM assist_runs), ss.id, 'ok', 'borderline', '{}' FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id
		WHERE s.project_id = ?`, project); err != nil {
		t.Fatal(err)
	}
	check(runs()[:1])
}

// eachScope runs fn as a subtest for the whole project and for each of
// its rounds, with a second connection free and with none.
func eachScope(t *testing.T, s *tasks.Store, project int64, rounds map[string]int64, fn func(t *testing.T, scope domain.ExportScope)) {
	for _, apart := range []bool{true, false} {
		for name, round := range map[string]int64{"all rounds": 0, "cal": rounds["cal"], "prod": rounds["prod"]} {
			t.Run(fmt.Sprintf("%s, second connection %v", name, apart), func(t *testing.T) {
				if !apart {
					defer tasks.HoldSecondConnection(s)()
				}
				fn(t, domain.ExportScope{ProjectID: project, RoundID: round})
			})
		}
	}
}

// TestEachCellsReadsOneSnapshot writes labels after an export's
// transaction started and before its labels would be read on a second
// connection: the export must still give the labels as they were when it
// started, which the second connection no longer sees.
func TestEachCellsReadsOneSnapshot(t *testing.T) {
	ctx := context.Background()
	s, db, project, _ := cellsProject(t)
	scope := domain.ExportScope{ProjectID: project}
	want := allOracleCells(t, s, db, scope)
	writes := 0
	*tasks.ExportApartBetween = func() {
		writes++
		cells := `SELECT %s(l.id) FROM sentence_labels l JOIN assignments a ON a.id = l.assignment_id JOIN rounds r ON r.id = a.round_id
			JOIN summary_sentences ss ON ss.id = l.sentence_id AND ss.summary_id = a.summary_id WHERE r.project_id = ?`
		for _, q := range []string{
			`UPDATE sentence_labels SET label = 'borderline', updated_at = 'changed' WHERE id IN (` + fmt.Sprintf(cells, "min") + `)`,
			`DELETE FROM sentence_labels WHERE id IN (` + fmt.Sprintf(cells, "max") + `)`,
		} {
			if _, err := db.ExecContext(ctx, q, project); err != nil {
				t.Error(err)
			}
		}
	}
	defer func() { *tasks.ExportApartBetween = nil }()
	got := eachCells(t, s, scope)
	if writes != 1 {
		t.Fatalf("the labels were written %d times between the transactions, want 1: the export did not try a second connection", writes)
	}
	compareCells(t, got, want)
	// The next export sees the writes.
	*tasks.ExportApartBetween = nil
	if after := eachCells(t, s, scope); reflect.DeepEqual(after, want) {
		t.Error("an export after the writes gives the labels from before them")
	}
}

// beginExport opens an ExportReader of scope, which the caller closes.
func beginExport(t *testing.T, s *tasks.Store, scope domain.ExportScope) *tasks.ExportReader {
	t.Helper()
	r, err := s.BeginExport(context.Background(), scope)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// allOracleCells reads the cells of every summary in scope with
// cellsOracle, in the order of EachSummary.
func allOracleCells(t *testing.T, s *tasks.Store, db *sql.DB, scope domain.ExportScope) []domain.ExportLabel {
	t.Helper()
	ctx := context.Background()
	r := beginExport(t, s, scope)
	defer r.Close()
	var want []domain.ExportLabel
	if err := r.EachSummary(ctx, func(sum *domain.ExportSummary) error {
		want = append(want, oracleCells(t, db, scope, sum.ID)...)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return want
}

// eachCells reads the cells of every summary in scope with EachCells,
// checking that each cell's sentence is one of its summary's.
func eachCells(t *testing.T, s *tasks.Store, scope domain.ExportScope) []domain.ExportLabel {
	t.Helper()
	ctx := context.Background()
	r := beginExport(t, s, scope)
	defer r.Close()
	var got []domain.ExportLabel
	n := 0
	if err := r.EachCells(ctx, &tasks.ExportCells{}, func(c *tasks.ExportCells) (*tasks.ExportCells, error) {
		for _, l := range c.Labels {
			if sentenceText(c, l.SentenceID) == "" {
				t.Errorf("%s: cell of sentence %d has no text", c.External, l.SentenceID)
			}
		}
		got = append(got, c.Labels...)
		if n++; n%2 == 0 {
			return &tasks.ExportCells{}, nil // a fresh one now and then
		}
		return c, nil
	}); err != nil {
		t.Fatal(err)
	}
	return got
}

func compareCells(t *testing.T, got, want []domain.ExportLabel) {
	t.Helper()
	compareEach(t, "cell", got, want)
}

// compareEach compares two lists item by item, naming each item what.
func compareEach[T any](t *testing.T, what string, got, want []T) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d of %s, want %d", len(got), what, len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("%s %d:\n got %+v\nwant %+v", what, i, got[i], want[i])
		}
	}
}

func sentenceText(c *tasks.ExportCells, id int64) string {
	for _, s := range c.Sentences {
		if s.ID == id {
			return s.Text
		}
	}
	return ""
}

// TestLargeSentenceIDs: with sentence ids too large to share a number with
// a label's bits (2^52 and above), the raw export's cells are still those
// of the reference query, and the report still reads each label on its
// sentence.
func TestLargeSentenceIDs(t *testing.T) {
	s, db, project, rounds := cellsProject(t)
	ctx := context.Background()
	const shift = int64(1) << 52
	rows, err := db.Query(`SELECT m.name, f."from" FROM sqlite_schema m, pragma_foreign_key_list(m.name) f
		WHERE m.type = 'table' AND f."table" = 'summary_sentences'`)
	if err != nil {
		t.Fatal(err)
	}
	var stmts []string
	for rows.Next() {
		var table, col string
		if err := rows.Scan(&table, &col); err != nil {
			t.Fatal(err)
		}
		stmts = append(stmts, fmt.Sprintf(`UPDATE %q SET %q = %q + %d`, table, col, col, shift))
	}
	rows.Close()
	if len(stmts) < 5 {
		t.Fatalf("only %d columns refer to sentences", len(stmts))
	}
	// The connection does not enforce foreign keys: the children first,
	// then the sentences.
	for _, q := range append(stmts, fmt.Sprintf(`UPDATE summary_sentences SET id = id + %d`, shift)) {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	eachScope(t, s, project, rounds, func(t *testing.T, scope domain.ExportScope) {
		want := allOracleCells(t, s, db, scope)
		if len(want) < 5 {
			t.Fatalf("only %d cells", len(want))
		}
		compareCells(t, eachCells(t, s, scope), want)
	})
	d, err := s.ReportData(ctx, project, domain.ReportFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Labels) == 0 {
		t.Fatal("the report read no label")
	}
	for _, l := range d.Labels {
		var label string
		err := db.QueryRow(`SELECT label FROM sentence_labels WHERE assignment_id = ? AND sentence_id = ?`, l.AssignmentID, l.SentenceID).Scan(&label)
		if err != nil || l.SentenceID < shift || d.Strings[l.Label] != label {
			t.Fatalf("report label of assignment %d on sentence %d: %q, stored %q (%v)", l.AssignmentID, l.SentenceID, d.Strings[l.Label], label, err)
		}
	}
}
