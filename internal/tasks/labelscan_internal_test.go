package tasks

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/testkit/sqlplan"
)

// bigStoreWith is a labelScanStore and its project "big", with the
// package setting *knob (a batch size or threshold) at v for the test.
func bigStoreWith(t *testing.T, knob *int, v int) (*Store, *domain.Project) {
	t.Helper()
	s := labelScanStore(t, 1)
	old := *knob
	*knob = v
	t.Cleanup(func() { *knob = old })
	p, err := s.ProjectBySlug(context.Background(), "big")
	if err != nil {
		t.Fatal(err)
	}
	return s, p
}

// labelScanStore opens a store with two projects, "big" and "small", whose
// labels were written in a shuffled order, across projects and within
// assignments, and carry every kind of string the labels query reads:
// error-type lists (some malformed), ambiguity types and first labels that
// are not label values. A third of the sentences have gold, of every
// provenance; documents have key facts for no topic or for one of the
// summaries' topics.
func labelScanStore(t *testing.T, seed uint64) *Store {
	t.Helper()
	path := filepath.Join(t.TempDir(), "store.db")
	if err := os.WriteFile(path, labelScanImage(t, seed), dbFileMode); err != nil {
		t.Fatal(err)
	}
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// labelScanImages are the database files labelScanStore copies, by seed:
// made once each, as making one prepares some thousand statements.
var labelScanImages = struct {
	sync.Mutex
	bySeed map[uint64][]byte
}{bySeed: map[uint64][]byte{}}

// labelScanImage returns the file of labelScanStore's database for seed,
// making it the first time.
func labelScanImage(t *testing.T, seed uint64) []byte {
	t.Helper()
	labelScanImages.Lock()
	defer labelScanImages.Unlock()
	if img, ok := labelScanImages.bySeed[seed]; ok {
		return img
	}
	path := filepath.Join(t.TempDir(), "image.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	fillLabelScanStore(t, s, seed)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	img, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	labelScanImages.bySeed[seed] = img
	return img
}

// fillLabelScanStore writes labelScanStore's projects into s.
func fillLabelScanStore(t *testing.T, s *Store, seed uint64) {
	t.Helper()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(seed, 7))
	set := domain.DefaultSettings()
	set.Borderline = true
	values := []string{domain.LabelFaithful, domain.LabelUnfaithful, domain.LabelBorderline, ""}
	types := [][]string{nil, {"contradiction"}, {"contradiction", "unsupported"}, {"unsupported"}}
	topics := []string{"", "budget", "schools"}
	for _, p := range []struct {
		slug string
		docs int
	}{{"big", 24}, {"small", 5}} {
		proj, err := s.CreateProject(ctx, domain.Project{Slug: p.slug, Settings: set})
		if err != nil {
			t.Fatal(err)
		}
		var docs []domain.DocumentInput
		for d := range p.docs {
			doc := domain.DocumentInput{ExternalID: fmt.Sprint("d", d), Kind: domain.KindProse, Sentences: []string{"One thing happened.", "Another did."}}
			for k := range rng.IntN(5) {
				doc.KeyFacts = append(doc.KeyFacts, domain.KeyFactInput{Topic: topics[rng.IntN(len(topics))], Text: fmt.Sprint("Fact ", k, ".")})
			}
			for m := range 2 {
				sum := domain.SummaryInput{ExternalID: fmt.Sprint("s", d, "-", m), Model: "m", Topic: topics[rng.IntN(len(topics))]}
				for k := range 3 {
					in := domain.SentenceInput{Text: fmt.Sprintf("Sentence %d of %d.", k, m)}
					for _, a := range rng.Perm(4)[:2+rng.IntN(3)] {
						l := domain.SentenceLabelInput{Annotator: fmt.Sprint("w", a), Label: values[rng.IntN(len(values))],
							ErrorTypes: types[rng.IntN(len(types))]}
						if rng.IntN(2) == 0 {
							l.Round = "second"
						}
						if rng.IntN(3) == 0 {
							yes := rng.IntN(2) == 0
							l.Ambiguous = &yes
							l.AmbiguityType = domain.AmbiguityTypes[rng.IntN(len(domain.AmbiguityTypes))].Code
						}
						in.Labels = append(in.Labels, l)
					}
					sum.Sentences = append(sum.Sentences, in)
				}
				doc.Summaries = append(doc.Summaries, sum)
			}
			docs = append(docs, doc)
		}
		if _, err := s.Import(ctx, proj.ID, docs); err != nil {
			t.Fatal(err)
		}
	}
	// Shuffle the labels' row order, write odd first labels and error
	// types, and take some assignments out of the report.
	ids, err := IDList(ctx, s.read, `SELECT id FROM sentence_labels`)
	if err != nil {
		t.Fatal(err)
	}
	stmts := []string{}
	order := rng.Perm(len(ids))
	for i, id := range ids {
		stmts = append(stmts, fmt.Sprintf(`UPDATE sentence_labels SET id = %d WHERE id = %d`, 1_000_000+order[i], id))
		id := int64(1_000_000 + order[i]) // the label's id from here on
		switch rng.IntN(8) {
		case 0:
			stmts = append(stmts, fmt.Sprintf(`UPDATE sentence_labels SET first_label = 'odd%d' WHERE id = %d`, rng.IntN(3), id))
		case 1:
			stmts = append(stmts, fmt.Sprintf(`UPDATE sentence_labels SET first_label = 'unfaithful' WHERE id = %d`, id))
		case 2:
			stmts = append(stmts, fmt.Sprintf(`UPDATE sentence_labels SET error_types = '["made up"]' WHERE id = %d`, id))
		}
	}
	// Gold for some sentences, of every provenance.
	provenances := []string{"imported", "unanimous", "majority", "adjudicated", "unresolved"}
	ambiguous := []string{"NULL", "0", "1"}
	for id := int64(1); id <= 200; id++ {
		if rng.IntN(3) != 0 {
			continue
		}
		stmts = append(stmts, fmt.Sprintf(`REPLACE INTO gold_sentences (sentence_id, label, error_types, ambiguous, ambiguity_type, provenance)
			SELECT id, '%s', '%s', %s, '%s', '%s' FROM summary_sentences WHERE id = %d`,
			values[rng.IntN(len(values))], []string{"[]", `["contradiction"]`, `["unsupported","contradiction"]`}[rng.IntN(3)],
			ambiguous[rng.IntN(3)], []string{"", domain.AmbiguityTypes[0].Code}[rng.IntN(2)], provenances[rng.IntN(len(provenances))], id))
	}
	// Summary labels, key-fact links and two assistant runs a project,
	// one a sample, which the report reads by the counted assignments.
	stmts = append(stmts,
		`INSERT INTO summary_labels (assignment_id, relevance, topic_category)
			SELECT id, 1 + id % 5, CASE id % 3 WHEN 0 THEN '' WHEN 1 THEN 'main' ELSE 'marginal' END FROM assignments WHERE id % 4 != 1`,
		`INSERT INTO keyfact_labels (assignment_id, key_fact_id, sentence_id)
			SELECT a.id, k.id, ss.id FROM assignments a JOIN summaries s ON s.id = a.summary_id JOIN key_facts k ON k.document_id = s.document_id
			JOIN summary_sentences ss ON ss.summary_id = s.id WHERE (a.id + k.id + ss.id) % 3 = 0`,
		`INSERT INTO assist_runs (project_id, protocol, sample) SELECT id, 'debate', 0 FROM projects`,
		`INSERT INTO assist_runs (project_id, protocol, sample) SELECT id, 'debate', 1 FROM projects`,
		`INSERT INTO assist_outputs (run_id, sentence_id, label, output)
			SELECT r.id, ss.id, CASE (ss.id + r.sample) % 3 WHEN 0 THEN 'faithful' WHEN 1 THEN 'unfaithful' ELSE '' END, '{}'
			FROM assist_runs r JOIN summaries s ON s.project_id = r.project_id JOIN summary_sentences ss ON ss.summary_id = s.id
			WHERE (ss.id + r.id) % 5 != 0`,
		// A newer real run, over some sentences, labelling otherwise,
		// one result of six failed.
		`INSERT INTO assist_runs (project_id, protocol, sample) SELECT id, 'debate', 0 FROM projects`,
		`INSERT INTO assist_outputs (run_id, sentence_id, label, status, output)
			SELECT r.id, ss.id, CASE ss.id % 3 WHEN 0 THEN 'unfaithful' WHEN 1 THEN 'borderline' ELSE 'faithful' END,
				CASE ss.id % 6 WHEN 0 THEN 'failed' ELSE 'ok' END, '{}'
			FROM assist_runs r JOIN summaries s ON s.project_id = r.project_id JOIN summary_sentences ss ON ss.summary_id = s.id
			WHERE r.id > 2 * (SELECT count(*) FROM projects) AND ss.id % 2 = 0`,
		// A sentence added to each project's first summary after the
		// others: the sentences' ids are then not in summary order.
		`INSERT INTO summary_sentences (summary_id, idx, text) SELECT min(id), 1000, 'A sentence added later.' FROM summaries GROUP BY project_id`,
		`UPDATE assignments SET status = 'released' WHERE id % 7 = 0`,
		// Summary gold on some summaries, counted or not.
		`INSERT INTO gold_summaries (summary_id, label, provenance)
			SELECT id, CASE id % 3 WHEN 0 THEN 'faithful' WHEN 1 THEN 'unfaithful' ELSE 'borderline' END,
				CASE id % 4 WHEN 0 THEN 'unresolved' ELSE 'adjudicated' END FROM summaries WHERE id % 3 != 2`,
		`UPDATE assignments SET status = 'in_progress' WHERE id % 5 = 0`)
	for _, q := range stmts {
		if _, err := s.write.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	// REPLACE INTO gold_sentences above deletes without the delete
	// triggers: the kept gold counts are counted again.
	if err := s.tx(ctx, func(tx *sql.Tx) error { return recountProject(ctx, tx, 0) }); err != nil {
		t.Fatal(err)
	}
}

// eachProject opens labelScanStore with three seeds and calls visit for
// each of its projects under each filter.
func eachProject(t *testing.T, filters []domain.ReportFilter, visit func(where string, s *Store, p *domain.Project, f domain.ReportFilter)) {
	t.Helper()
	for seed := range uint64(3) {
		s := labelScanStore(t, seed)
		for _, slug := range []string{"big", "small"} {
			p, err := s.ProjectBySlug(context.Background(), slug)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range filters {
				visit(fmt.Sprintf("seed %d %s %+v", seed, slug, f), s, p, f)
			}
		}
	}
}

// eachReport reads each project's report data under each filter twice
// (see eachProject), with set("a") and set("b") in force, and hands both
// to check.
func eachReport(t *testing.T, filters []domain.ReportFilter, set func(string), check func(where string, a, b *domain.ReportData)) {
	t.Helper()
	eachReportApart(t, filters, set, true, check)
}

// eachReportApart is eachReport with the second way's data read apart
// (the labels on a connection of their own) or not.
func eachReportApart(t *testing.T, filters []domain.ReportFilter, set func(string), apartB bool, check func(where string, a, b *domain.ReportData)) {
	t.Helper()
	t.Cleanup(func() { set("") })
	eachProject(t, filters, func(where string, s *Store, p *domain.Project, f domain.ReportFilter) {
		var read [2]*domain.ReportData
		for i, way := range []string{"a", "b"} {
			set(way)
			var err error
			if read[i], err = s.reportData(context.Background(), p.ID, f, i == 0 || apartB); err != nil {
				t.Fatal(err)
			}
		}
		set("")
		check(where, read[0], read[1])
	})
}

// Reading the labels by one pass over the table, or by the list of the
// counted assignments, gives exactly the data the join through the index
// gives: the same labels in the same order, their strings numbered alike,
// for every project and filter, whichever project holds most of the
// database. The pass is read both ways: on a connection of its own,
// learning the assignments' order from the other reader (apart), and
// reading that order itself (on one connection).
func TestReportLabelsScanSameAsJoin(t *testing.T) {
	filters := []domain.ReportFilter{{}, {SubmittedOnly: true}, {Round: "second"}, {Round: domain.ImportedRound, SubmittedOnly: true}, {Round: "none"}}
	defer func() { fewAssignmentsMax, reportAssignmentsVia = keptListMax, "" }()
	for _, way := range []string{"scan", "scan on one connection", "list by user", "list by join", "list past its most"} {
		set := func(w string) {
			reportLabelsVia = map[string]string{"a": "join", "b": strings.Fields(way)[0]}[w]
			fewAssignmentsMax, reportAssignmentsVia = keptListMax, ""
			switch way {
			case "list by user":
				reportAssignmentsVia = "user"
			case "list by join":
				reportAssignmentsVia = "join"
			case "list past its most":
				fewAssignmentsMax = 3 // the list gives way to the join
			}
		}
		eachReportApart(t, filters, set, way != "scan on one connection", func(where string, join, other *domain.ReportData) {
			if !strings.Contains(where, "none") && len(join.Labels) == 0 {
				t.Fatalf("%s: no labels read", where)
			}
			if !reflect.DeepEqual(comparable(join), comparable(other)) {
				t.Errorf("%s: the %s read other data than the join:\njoin %d labels %v %v\n%s %d labels %v %v",
					where, way, len(join.Labels), join.Strings, join.TypeLists, way, len(other.Labels), other.Strings, other.TypeLists)
			}
		})
	}
}

// Reading the sentences' gold on its own gives exactly the data the join
// with gold_sentences gives, its strings numbered alike.
func TestReportSentencesGoldApartSameAsJoin(t *testing.T) {
	filters := []domain.ReportFilter{{}, {SubmittedOnly: true}, {Round: "second"}}
	set := func(way string) { reportGoldVia = map[string]string{"a": "join", "b": "apart"}[way] }
	eachReport(t, filters, set, func(where string, join, apart *domain.ReportData) {
		gold := 0
		for _, x := range join.Sentences {
			if x.Gold != nil {
				gold++
			}
		}
		if len(join.Sentences) == 0 || gold == 0 {
			t.Fatalf("%s: %d sentences, %d with gold", where, len(join.Sentences), gold)
		}
		if !reflect.DeepEqual(comparable(join), comparable(apart)) {
			t.Errorf("%s: gold read apart differs from the join", where)
		}
	})
}

// TestReportSentencesGoldAsStored: read either way, each sentence's gold
// is what a query of gold_sentences of its own reads: none for unresolved
// gold or none, else its label, error types, ambiguity and ambiguity
// type, derived for unanimous and majority gold.
func TestReportSentencesGoldAsStored(t *testing.T) {
	defer func() { reportGoldVia = "" }()
	kinds := map[string]bool{}
	eachProject(t, []domain.ReportFilter{{}, {Round: "second"}}, func(where string, s *Store, p *domain.Project, f domain.ReportFilter) {
		for _, way := range []string{"join", "apart"} {
			reportGoldVia = way
			d, err := s.reportData(context.Background(), p.ID, f, true)
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range d.Sentences {
				var label, types, ambType string
				var amb sql.NullBool
				var derived bool
				err := s.read.QueryRow(`SELECT label, error_types, ambiguity_type, ambiguous, provenance IN ('unanimous', 'majority')
					FROM gold_sentences WHERE sentence_id = ? AND provenance != 'unresolved'`, x.ID).Scan(&label, &types, &ambType, &amb, &derived)
				if errors.Is(err, sql.ErrNoRows) {
					if x.Gold != nil {
						t.Fatalf("%s by %s: sentence %d: gold %+v, none stored", where, way, x.ID, *x.Gold)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				g := x.Gold
				if g == nil {
					t.Fatalf("%s by %s: sentence %d: no gold, %q stored", where, way, x.ID, label)
				}
				got, _ := json.Marshal([]any{g.Label, domain.NonNil(g.ErrorTypes), g.Ambiguous, g.AmbiguityType, g.Derived})
				var ambWant *bool
				if amb.Valid {
					ambWant = &amb.Bool
				}
				want, _ := json.Marshal([]any{label, domain.NonNil(decodeTypes(types)), ambWant, ambType, derived})
				if string(got) != string(want) {
					t.Fatalf("%s by %s: sentence %d: gold %s, stored %s", where, way, x.ID, got, want)
				}
				kinds[string(got)] = true
			}
		}
	})
	if len(kinds) < 30 {
		t.Errorf("%d kinds of gold read: the fixture does not vary it enough", len(kinds))
	}
}

// The key facts offered with each summary, matched in Go, are those the
// join of summaries and key facts gives.
func TestReportKeyFactsSameAsJoin(t *testing.T) {
	ctx := context.Background()
	eachProject(t, []domain.ReportFilter{{}, {Round: "second"}}, func(where string, s *Store, p *domain.Project, f domain.ReportFilter) {
		d, err := s.reportData(ctx, p.ID, f, true)
		if err != nil {
			t.Fatal(err)
		}
		kept := map[int64]bool{}
		for _, a := range d.Assignments {
			kept[a.SummaryID] = true
		}
		want := map[int64][]int64{}
		rows, err := s.read.QueryContext(ctx, `SELECT s.id, k.id FROM summaries s
			JOIN key_facts k ON k.document_id = s.document_id AND (k.topic = s.topic OR k.topic = '')
			WHERE s.project_id = ? ORDER BY s.id, k.id`, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var sum, kf int64
			if err := rows.Scan(&sum, &kf); err != nil {
				t.Fatal(err)
			}
			if kept[sum] {
				want[sum] = append(want[sum], kf)
			}
		}
		rows.Close()
		if len(want) == 0 {
			t.Fatalf("%s: no summary has key facts", where)
		}
		if !reflect.DeepEqual(d.SummaryKeyFacts, want) {
			t.Errorf("%s: key facts\n%v\nwant\n%v", where, d.SummaryKeyFacts, want)
		}
	})
}

// Reading the sentences, key facts and summary gold of the counted
// summaries, and the summary labels, key-fact links and assistant labels
// of the counted assignments, each named in a list, gives exactly what
// reading those of every assigned summary or assignment and leaving out
// the others gives.
func TestReportKeptSummariesListSameAsAll(t *testing.T) {
	filters := []domain.ReportFilter{{}, {SubmittedOnly: true}, {Round: "second", SubmittedOnly: true}, {Round: "none"}}
	set := func(way string) { reportSummariesVia = map[string]string{"a": "all", "b": "list"}[way] }
	eachReport(t, filters, set, func(where string, all, list *domain.ReportData) {
		if !strings.Contains(where, "none") && (len(all.Sentences) == 0 || len(all.SummaryKeyFacts) == 0 ||
			len(all.SummaryLabels) == 0 || len(all.KeyFactLinks) == 0 || all.Assistant.Len() == 0 || len(all.GoldSummaries) == 0) {
			t.Fatalf("%s: %d sentences, %d summaries with key facts, %d summary labels, %d key-fact links, %d assistant labels, %d summary gold",
				where, len(all.Sentences), len(all.SummaryKeyFacts), len(all.SummaryLabels), len(all.KeyFactLinks), all.Assistant.Len(), len(all.GoldSummaries))
		}
		if !reflect.DeepEqual(comparable(all), comparable(list)) {
			t.Errorf("%s: the list of counted summaries read other data (%d sentences) than all assigned ones (%d)", where, len(list.Sentences), len(all.Sentences))
		}
	})
}

// Reading the assignments by one pass over the table, or through the
// (user_id, status) index, gives exactly the data the join through the
// rounds' index gives, released assignments left out and pending ones
// kept or not as the filter says.
func TestReportAssignmentsScanSameAsJoin(t *testing.T) {
	for _, other := range []string{"scan", "user"} {
		t.Run(other, func(t *testing.T) { assignmentsSameAsJoin(t, other) })
	}
}

func assignmentsSameAsJoin(t *testing.T, other string) {
	filters := []domain.ReportFilter{{}, {SubmittedOnly: true}, {Round: "second"}, {Round: "second", SubmittedOnly: true}}
	set := func(way string) { reportAssignmentsVia = map[string]string{"a": "join", "b": other}[way] }
	eachReport(t, filters, set, func(where string, join, scan *domain.ReportData) {
		statuses := map[string]int{}
		for _, a := range join.Assignments {
			statuses[a.Status]++
		}
		if len(join.Assignments) == 0 || statuses[domain.StatusReleased] > 0 {
			t.Fatalf("%s: assignments by status %v", where, statuses)
		}
		if !reflect.DeepEqual(comparable(join), comparable(scan)) {
			t.Errorf("%s: assignments read by %s differ from the join (%d and %d)", where, other, len(join.Assignments), len(scan.Assignments))
		}
	})
}

// TestLabelIDSpanReadsEnds checks that the span of sentence label ids is
// read from the two ends of the table and not by a pass over its rows,
// and that it counts the ids from the smallest to the largest.
func TestLabelIDSpanReadsEnds(t *testing.T) {
	s := labelScanStore(t, 3)
	ctx := context.Background()
	plan := sqlplan.Of(t, s.read, labelIDSpan)
	for _, detail := range plan {
		if strings.HasPrefix(detail, "SCAN") && detail != "SCAN CONSTANT ROW" {
			t.Errorf("the span of label ids is read by a pass: %q", detail)
		}
	}
	if len(plan) == 0 {
		t.Fatal("no plan")
	}
	var span, lo, hi int64
	if err := s.read.QueryRowContext(ctx, labelIDSpan).Scan(&span); err != nil {
		t.Fatal(err)
	}
	if err := s.read.QueryRowContext(ctx, `SELECT min(id) FROM sentence_labels`).Scan(&lo); err != nil {
		t.Fatal(err)
	}
	if err := s.read.QueryRowContext(ctx, `SELECT max(id) FROM sentence_labels`).Scan(&hi); err != nil {
		t.Fatal(err)
	}
	if lo == 0 || span != hi-lo+1 {
		t.Fatalf("span %d, ids %d…%d", span, lo, hi)
	}
}

// TestReportAssignmentsWayFollowsCounts checks the choice between reading
// the counted assignments through the users' index and through the
// rounds' against counts made by plain queries: through the users' index
// exactly when fewer assignments have the counted statuses than belong to
// the report's rounds; and whether the report counts most assignments
// (both counts at least half of them).
func TestReportAssignmentsWayFollowsCounts(t *testing.T) {
	s := labelScanStore(t, 4)
	ctx := context.Background()
	// Most of the work not yet submitted: a report of submitted work
	// counts few of a large project's assignments.
	if _, err := s.write.ExecContext(ctx, `UPDATE assignments SET status = 'pending' WHERE id % 3 != 0 AND status != 'released'`); err != nil {
		t.Fatal(err)
	}
	count := func(q string, args ...any) int {
		var n int
		if err := s.read.QueryRowContext(ctx, q, args...).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	check := func(pass string) {
		t.Helper()
		seen, seenMany := map[bool]bool{}, map[bool]bool{}
		for _, slug := range []string{"big", "small"} {
			wayFollowsCounts(t, s, slug, count, seen, seenMany)
		}
		if !seen[true] || !seen[false] || !seenMany[true] || !seenMany[false] {
			t.Fatalf("%s: the fixture exercises one way only: by user %v, many %v", pass, seen, seenMany)
		}
	}
	check("dense ids")
	// An assignment far past the others: the span of the ids no longer
	// settles whether a report counts most of them.
	for _, q := range []string{`INSERT INTO users (username, password_hash) VALUES ('far', x'00')`,
		`INSERT INTO assignments (id, round_id, summary_id, user_id, position)
			SELECT 10000000, a.round_id, a.summary_id, (SELECT id FROM users WHERE username = 'far'), 0 FROM assignments a LIMIT 1`} {
		if _, err := s.write.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	check("an id far past the others")
	for _, q := range []string{assignmentIDSpan, labelIDSpan} {
		if plan := strings.Join(sqlplan.Of(t, s.read, q), "; "); strings.Contains(plan, "SCAN assignments") || strings.Contains(plan, "SCAN sentence_labels") {
			t.Errorf("the span of ids is not found by seeks: %s", plan)
		}
	}
}

// wayFollowsCounts checks TestReportAssignmentsWayFollowsCounts's answers
// for project slug, noting the answers met in seen and seenMany.
func wayFollowsCounts(t *testing.T, s *Store, slug string, count func(string, ...any) int, seen, seenMany map[bool]bool) {
	t.Helper()
	ctx := context.Background()
	p, err := s.ProjectBySlug(ctx, slug)
	if err != nil {
		t.Fatal(err)
	}
	var second int64
	if err := s.read.QueryRowContext(ctx, `SELECT id FROM rounds WHERE project_id = ? AND name = 'second'`, p.ID).Scan(&second); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		round     int64
		submitted int
	}{{0, 0}, {0, 1}, {second, 0}, {second, 1}} {
		round, submitted := c.round, c.submitted
		args := reportArgs{project: p.ID, round: round, submitted: submitted}
		tx, err := s.read.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		many, byUser, most, err := manyAssignments(ctx, tx, args)
		tx.Rollback()
		if err != nil {
			t.Fatal(err)
		}
		inRounds := count(`SELECT count(*) FROM assignments WHERE round_id IN (SELECT id FROM rounds WHERE project_id = ? AND (? = 0 OR id = ?))`, p.ID, round, round)
		ofStatus := count(`SELECT count(*) FROM assignments WHERE status = 'submitted' OR (? = 0 AND status IN ('pending', 'in_progress'))`, submitted)
		if want := ofStatus < inRounds; byUser != want {
			t.Errorf("%s round %d, submitted %d: %d of the statuses, %d in the rounds: by user %v, want %v", slug, round, submitted, ofStatus, inRounds, byUser, want)
		}
		counted := count(`SELECT count(*) FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE r.project_id = ? AND (? = 0 OR r.id = ?)
			AND (a.status = 'submitted' OR (? = 0 AND a.status IN ('pending', 'in_progress')))`, p.ID, round, round, submitted)
		if most < counted {
			t.Errorf("%s round %d, submitted %d: at most %d assignments counted, but %d are", slug, round, submitted, most, counted)
		}
		all := count(`SELECT count(*) FROM assignments`)
		if want := min(ofStatus, inRounds) > 0 && 2*min(ofStatus, inRounds) >= all; many != want {
			t.Errorf("%s round %d, submitted %d: %d of the statuses, %d in the rounds, %d in all: many %v, want %v", slug, round, submitted, ofStatus, inRounds, all, many, want)
		}
		seen[byUser], seenMany[many] = true, true
	}
}

// TestSparseGoldByTheSentencesRead checks when a report that reads the
// sentences summary by summary reads the gold apart: when the gold
// sentences are few beside the sentences the report reads (all of them,
// or those of the summaries it lists), not beside every sentence of the
// database. A report that scans every sentence always does.
func TestSparseGoldByTheSentencesRead(t *testing.T) {
	s := labelScanStore(t, 5)
	ctx := context.Background()
	if _, err := s.write.ExecContext(ctx, `DELETE FROM gold_sentences WHERE sentence_id > (SELECT min(sentence_id) + 40 FROM gold_sentences)`); err != nil {
		t.Fatal(err)
	}
	sentences, err := IDList(ctx, s.read, `SELECT id FROM summary_sentences`)
	if err != nil {
		t.Fatal(err)
	}
	summaries, err := IDList(ctx, s.read, `SELECT id FROM summaries ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	var gold int
	if err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM gold_sentences`).Scan(&gold); err != nil {
		t.Fatal(err)
	}
	if gold == 0 || gold > len(sentences)/sparseGoldShare {
		t.Fatalf("%d gold of %d sentences: not sparse", gold, len(sentences))
	}
	way := "summaries"
	read := func(kept []int64) bool {
		args := reportArgs{kept: &reportKept{summaries: newIDSet(kept)}}
		tx, err := s.read.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		apart, err := readsGoldApart(ctx, tx, args, way)
		if err != nil {
			t.Fatal(err)
		}
		return apart
	}
	defer func() { reportSummariesVia = "" }()
	reportSummariesVia = "all" // the report reads every sentence
	if !read(summaries) {
		t.Error("gold sparse among all the sentences is joined")
	}
	reportSummariesVia = "list"
	if !read(summaries) {
		t.Error("gold sparse among the listed summaries' sentences is joined")
	}
	if read(summaries[:2]) {
		t.Error("gold read whole for the sentences of two summaries")
	}
	way = "scan"
	if !read(summaries[:2]) {
		t.Error("gold joined to a scan of every sentence")
	}
}

// Reading every sentence of the database, leaving out those of summaries
// not counted, gives exactly the sentences the counted summaries give,
// in the same order, though some sentence ids are not in summary order.
func TestReportSentencesScanSameAsBySummary(t *testing.T) {
	filters := []domain.ReportFilter{{}, {SubmittedOnly: true}, {Round: "second", SubmittedOnly: true}, {Round: "none"}}
	for _, gold := range []string{"apart", "join"} {
		set := func(way string) {
			reportSentencesVia = map[string]string{"a": "summaries", "b": "scan"}[way]
			reportGoldVia = gold
		}
		eachReport(t, filters, set, func(where string, bySummary, scan *domain.ReportData) {
			if !strings.Contains(where, "none") && len(bySummary.Sentences) == 0 {
				t.Fatalf("%s: no sentences", where)
			}
			if !reflect.DeepEqual(comparable(bySummary), comparable(scan)) {
				t.Errorf("%s (gold by %s): the scan read other sentences (%d) than the summaries' index (%d)", where, gold, len(scan.Sentences), len(bySummary.Sentences))
			}
		})
	}
}

// The assistant's label of each labelled sentence, read run by run for
// the report's sentences or for all the project's, is the one the
// labelling page shows: that of the first run with a labelled result of
// it, real runs before samples, newest first. Both ways leave the rest
// of the data alike, and both read a run's labels from the runs' index
// of labelled results alone, in sentence order without a sort.
func TestReportAssistantPrecedence(t *testing.T) {
	ctx := context.Background()
	filters := []domain.ReportFilter{{}, {SubmittedOnly: true}, {Round: "second", SubmittedOnly: true}}
	defer func() { reportAssistantVia = "" }()
	later := 0 // sentences whose label comes from a run after the first
	eachProject(t, filters, func(where string, s *Store, p *domain.Project, f domain.ReportFilter) {
		var read [2]*domain.ReportData
		for i, way := range []string{"sentences", "run"} {
			reportAssistantVia = way
			var err error
			if read[i], err = s.reportData(ctx, p.ID, f, true); err != nil {
				t.Fatal(err)
			}
			labelled := map[int64]bool{}
			for _, l := range read[i].Labels {
				labelled[l.SentenceID] = true
			}
			if len(labelled) == 0 || read[i].Assistant.Len() == 0 {
				t.Fatalf("%s, by %s: %d labelled sentences, %d assistant labels", where, way, len(labelled), read[i].Assistant.Len())
			}
			for sid := range labelled {
				var want string
				var run, first int64
				err := s.read.QueryRowContext(ctx, `
					SELECT o.label, o.run_id, (SELECT id FROM assist_runs WHERE project_id = ?2 ORDER BY sample, id DESC LIMIT 1)
					FROM assist_outputs o JOIN assist_runs ar ON ar.id = o.run_id
					WHERE o.sentence_id = ?1 AND ar.project_id = ?2 AND o.status = 'ok' AND o.label != ''
					ORDER BY ar.sample, ar.id DESC LIMIT 1`, sid, p.ID).Scan(&want, &run, &first)
				if err != nil && err != sql.ErrNoRows {
					t.Fatal(err)
				}
				if run != first && i == 0 {
					later++
				}
				if got := read[i].Assistant.Of(sid); got != want {
					t.Errorf("%s, by %s: sentence %d: assistant label %q, want %q", where, way, sid, got, want)
				}
			}
		}
		a, b := comparable(read[0]), comparable(read[1])
		a.Assistant, b.Assistant = domain.AssistantLabels{}, domain.AssistantLabels{}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: reading the assistant by run changed other data", where)
		}
	})
	if later == 0 {
		t.Error("no labelled sentence took its label from a run after the first: the fill is not tested")
	}
	// With the statistics of two runs over 500,000 sentences (the
	// 1.5M-label project): the unique (run_id, sentence_id) index looks
	// as selective, but would read each result's row.
	s := labelScanStore(t, 0)
	conn := statsConn(t, s, "assist_outputs", map[string]string{"assist_outputs_labels": "1000000 401 1 1",
		"assist_outputs_sentence": "1000000 2", "sqlite_autoindex_assist_outputs_1": "1000000 401 1", "assist_outputs_failed": "0 0"})
	for _, q := range []struct {
		query string
		args  []any
	}{{runLabelsQuery, []any{1}}, {sentenceRunLabelsQuery, []any{1, "[1,2,3]"}}} {
		plan := strings.Join(sqlplan.Of(t, conn, q.query, q.args...), "; ")
		if !strings.Contains(plan, "COVERING INDEX assist_outputs_labels") || strings.Contains(plan, "TEMP B-TREE") {
			t.Errorf("a run's labels are not read from its index alone: %s", plan)
		}
	}
}

// The report reads a run only for sentences the runs before it left
// without a label: none once the newest run labels every sentence, and
// one sentence, looked up rather than the run read whole, once that run
// lacks one.
func TestReportAssistantReadsOnlyTheRunsNeeded(t *testing.T) {
	ctx := context.Background()
	s := labelScanStore(t, 0)
	p, err := s.ProjectBySlug(ctx, "big")
	if err != nil {
		t.Fatal(err)
	}
	type read struct {
		run     int64
		whole   bool
		wanting int
	}
	var reads []read
	assistRunRead = func(run int64, whole bool, wanting int) { reads = append(reads, read{run, whole, wanting}) }
	defer func() { assistRunRead = nil }()
	report := func() *domain.ReportData {
		t.Helper()
		reads = nil
		d, err := s.reportData(ctx, p.ID, domain.ReportFilter{}, true)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	if report(); len(reads) < 2 || !reads[0].whole {
		t.Fatalf("the fixture's newest run leaves sentences for the others, read whole first: %+v", reads)
	}
	var newest int64
	if err := s.read.QueryRowContext(ctx, `SELECT id FROM assist_runs WHERE project_id = ? ORDER BY sample, id DESC LIMIT 1`, p.ID).Scan(&newest); err != nil {
		t.Fatal(err)
	}
	if _, err := s.write.ExecContext(ctx, `INSERT INTO assist_outputs (run_id, sentence_id, label, output)
		SELECT ?1, ss.id, 'borderline', '{}' FROM summaries s JOIN summary_sentences ss ON ss.summary_id = s.id WHERE s.project_id = ?2
		ON CONFLICT (run_id, sentence_id) DO UPDATE SET label = 'borderline', status = 'ok'`, newest, p.ID); err != nil {
		t.Fatal(err)
	}
	d := report()
	if len(reads) != 1 || reads[0].run != newest {
		t.Errorf("with every sentence labelled by the newest run, the report read %+v", reads)
	}
	var lacking int64
	if err := s.read.QueryRowContext(ctx, `SELECT min(l.sentence_id) FROM sentence_labels l
		JOIN summary_sentences ss ON ss.id = l.sentence_id JOIN summaries s ON s.id = ss.summary_id WHERE s.project_id = ?`, p.ID).Scan(&lacking); err != nil {
		t.Fatal(err)
	}
	if _, err := s.write.ExecContext(ctx, `DELETE FROM assist_outputs WHERE run_id = ? AND sentence_id = ?`, newest, lacking); err != nil {
		t.Fatal(err)
	}
	d = report()
	if len(reads) != 2 || reads[1].whole || reads[1].wanting != 1 {
		t.Errorf("with one sentence unlabelled by the newest run, the report read %+v", reads)
	}
	if d.Assistant.Of(lacking) == "" || d.Assistant.Of(lacking) == "borderline" {
		t.Errorf("sentence %d took %q, not another run's label", lacking, d.Assistant.Of(lacking))
	}
}

// Read apart, the summary labels are the same whichever reader reads
// them: the labels' transaction, once the labels are read, or the
// first, after its other steps (TestReportLabelsScanSameAsJoin compares
// reading apart with one connection).
func TestReportSummaryLabelsEitherReader(t *testing.T) {
	filters := []domain.ReportFilter{{}, {SubmittedOnly: true}, {Round: "second", SubmittedOnly: true}, {Round: "none"}}
	for _, on := range []string{"labels", "first"} {
		set := func(way string) {
			summaryLabelsOn = map[string]string{"a": "", "b": on}[way]
		}
		eachReport(t, filters, set, func(where string, either, forced *domain.ReportData) {
			if !strings.Contains(where, "none") && len(forced.SummaryLabels) == 0 {
				t.Fatalf("%s: no summary labels read by the %s reader", where, on)
			}
			if !reflect.DeepEqual(comparable(either), comparable(forced)) {
				t.Errorf("%s: summary labels read by the %s reader: %d, against %d", where, on, len(forced.SummaryLabels), len(either.SummaryLabels))
			}
		})
	}
}

// Reading every key-fact link of the database in assignment order,
// leaving out those of assignments not counted, gives exactly the links
// the counted assignments give, in the same order; and the pass reads
// the primary key's index alone.
func TestReportLinksScanSameAsByAssignment(t *testing.T) {
	filters := []domain.ReportFilter{{}, {SubmittedOnly: true}, {Round: "second", SubmittedOnly: true}, {Round: "none"}}
	set := func(way string) { reportLinksVia = map[string]string{"a": "assignments", "b": "scan"}[way] }
	eachReport(t, filters, set, func(where string, byAssignment, scan *domain.ReportData) {
		if !strings.Contains(where, "none") && len(byAssignment.KeyFactLinks) == 0 {
			t.Fatalf("%s: no key-fact links", where)
		}
		if !reflect.DeepEqual(comparable(byAssignment), comparable(scan)) {
			t.Errorf("%s: the scan read other links (%d) than the assignments' (%d)", where, len(scan.KeyFactLinks), len(byAssignment.KeyFactLinks))
		}
	})
	s := labelScanStore(t, 0)
	plan := strings.Join(sqlplan.Of(t, s.read, `SELECT k.assignment_id, k.key_fact_id, k.sentence_id FROM `+linksScanFrom), "; ")
	if !strings.Contains(plan, "COVERING INDEX") || strings.Contains(plan, "TEMP B-TREE") {
		t.Errorf("the links are not read in order from the key's index alone: %s", plan)
	}
}

// TestReportCountedAssignmentsReadTheIndexAlone: a report that reads its
// assignments through the rounds (a round's report) finds every column
// it takes in the index of a round's assignments by annotator, and reads
// no assignment's row, under the statistics of the 1.5M-label project
// (306,075 assignments in two rounds), with which the planner would
// otherwise take the unique index the join names elsewhere.
func TestReportCountedAssignmentsReadTheIndexAlone(t *testing.T) {
	s := labelScanStore(t, 0)
	conn := statsConn(t, s, "assignments", map[string]string{"sqlite_autoindex_assignments_1": "306075 153038 2 1",
		"assignments_round_user": "306075 153038 2 2 2 2 1", "assignments_user": "306075 102025 102025",
		"assignments_summary": "306075 3", "assignments_queue": "306075 102025 1 1 1"})
	for _, cols := range []string{reportAssignmentColumns, fewAssignmentColumns} {
		plan := strings.Join(sqlplan.Of(t, conn, `SELECT `+cols+` FROM `+reportCountedAssignments, 1, 1, 0), "; ")
		if !strings.Contains(plan, "COVERING INDEX assignments_round_user") {
			t.Errorf("a round's counted assignments are not read from one index: %s", plan)
		}
	}
}

// TestGoldApartFindsEachSentence: looking sentences up in gold read apart
// finds the gold of each, and none for the others, whether they are
// asked for in increasing order, with repeats, or at random.
func TestGoldApartFindsEachSentence(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	for _, n := range []int{0, 1, 7, 500} {
		a := &goldApart{}
		want := map[int64]int32{}
		id := int64(0)
		for i := range n {
			id += 1 + int64(rng.IntN(3))
			a.sentences = append(a.sentences, id)
			a.kindOf = append(a.kindOf, int32(i))
			a.kinds = append(a.kinds, goldKind{goldKey: goldKey{text: fmt.Sprint(i)}})
			want[id] = int32(i)
		}
		asks := []int64{}
		for x := range id + 3 {
			asks = append(asks, x)
			if rng.IntN(5) == 0 {
				asks = append(asks, x)
			}
		}
		shuffled := slices.Clone(asks)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		for _, order := range [][]int64{asks, shuffled, append(slices.Clone(asks), asks...)} {
			a.next = 0
			for _, x := range order {
				k := a.of(x)
				w, ok := want[x]
				switch {
				case ok && (k == nil || k.text != fmt.Sprint(w)):
					t.Fatalf("%d gold: sentence %d: got %v, want kind %d", n, x, k, w)
				case !ok && k != nil:
					t.Fatalf("%d gold: sentence %d: got %q, want none", n, x, k.text)
				}
			}
		}
	}
}
