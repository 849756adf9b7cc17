package tasks_test

import (
	"context"
	"database/sql"
	"fmt"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/tasks"
)

// roundFixture makes a project with docs×perDoc summaries and n annotators.
func roundFixture(t *testing.T, docs, perDoc, n int) (*tasks.Store, *domain.Project, []int64, []int64) {
	t.Helper()
	s := openStore(t)
	ctx := context.Background()
	p, _ := s.CreateProject(ctx, domain.Project{Slug: "r", Settings: domain.DefaultSettings()})
	var in []domain.DocumentInput
	for d := 0; d < docs; d++ {
		doc := domain.DocumentInput{ExternalID: fmt.Sprintf("d%d", d), Sentences: []string{"A sentence."}}
		for k := 0; k < perDoc; k++ {
			doc.Summaries = append(doc.Summaries, domain.SummaryInput{ExternalID: fmt.Sprintf("d%d-s%d", d, k), Sentences: []domain.SentenceInput{{Text: "A."}}})
		}
		in = append(in, doc)
	}
	if _, err := s.Import(ctx, p.ID, in); err != nil {
		t.Fatal(err)
	}
	var users []int64
	for i := 0; i < n; i++ {
		u, err := s.CreateUser(ctx, fmt.Sprintf("ann%d", i), "", "a long enough password", false)
		if err != nil {
			t.Fatal(err)
		}
		s.SetMember(ctx, p.ID, u.ID, domain.RoleAnnotator)
		users = append(users, u.ID)
	}
	sums, err := s.SummaryIDs(ctx, p.ID, nil)
	if err != nil || len(sums) != docs*perDoc {
		t.Fatalf("SummaryIDs = %d, %v", len(sums), err)
	}
	return s, p, users, sums
}

type assignmentRow struct {
	summary, doc, user int64
	position           int
}

func assignments(t *testing.T, path string, roundID int64) []assignmentRow {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=query_only(ON)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT a.summary_id, s.document_id, a.user_id, a.position FROM assignments a JOIN summaries s ON s.id = a.summary_id WHERE a.round_id = ? ORDER BY a.user_id, a.position`, roundID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []assignmentRow
	for rows.Next() {
		var r assignmentRow
		rows.Scan(&r.summary, &r.doc, &r.user, &r.position)
		out = append(out, r)
	}
	return out
}

func TestProductionRoundByDocumentGroups(t *testing.T) {
	s, p, users, sums := roundFixture(t, 12, 3, 5)
	r, err := s.CreateRound(context.Background(), p.ID, domain.RoundSpec{Name: "prod-1", Kind: domain.RoundProduction, PerItem: 2, Annotators: users, Summaries: sums, Dealing: domain.DealByDocument})
	if err != nil {
		t.Fatal(err)
	}
	rows := assignments(t, s.Path(), r.ID)
	if len(rows) != len(sums)*2 {
		t.Fatalf("%d assignments, want %d", len(rows), len(sums)*2)
	}
	perSummary := map[int64]map[int64]bool{}
	load := map[int64]int{}
	docsOf := map[int64]map[int64]int{} // user -> doc -> summaries
	for _, a := range rows {
		if perSummary[a.summary] == nil {
			perSummary[a.summary] = map[int64]bool{}
		}
		if perSummary[a.summary][a.user] {
			t.Fatalf("summary %d given twice to user %d", a.summary, a.user)
		}
		perSummary[a.summary][a.user] = true
		load[a.user]++
		if docsOf[a.user] == nil {
			docsOf[a.user] = map[int64]int{}
		}
		docsOf[a.user][a.doc]++
	}
	for sid, us := range perSummary {
		if len(us) != 2 {
			t.Errorf("summary %d has %d annotators, want 2", sid, len(us))
		}
	}
	minLoad, maxLoad := 1<<30, 0
	for _, u := range users {
		minLoad, maxLoad = min(minLoad, load[u]), max(maxLoad, load[u])
	}
	// 72 assignments over 5 people dealt in blocks of 3 summaries.
	if maxLoad-minLoad > 3 {
		t.Errorf("unbalanced: loads %v", load)
	}
	for u, docs := range docsOf {
		for d, n := range docs {
			if n != 3 {
				t.Errorf("user %d got %d of document %d's 3 summaries", u, n, d)
			}
		}
	}
	// The queue keeps a document's summaries together.
	for i := 1; i < len(rows); i++ {
		a, b := rows[i-1], rows[i]
		if a.user == b.user && b.position != a.position+1 {
			t.Errorf("queue of user %d has a gap at %d", a.user, b.position)
		}
	}
	seen := map[[2]int64]bool{}
	for i, a := range rows {
		key := [2]int64{a.user, a.doc}
		if seen[key] && rows[i-1].doc != a.doc {
			t.Errorf("user %d meets document %d twice, apart", a.user, a.doc)
		}
		seen[key] = true
	}
}

// loads counts each annotator's assignments in a round.
func loads(rows []assignmentRow) map[int64]int {
	out := map[int64]int{}
	for _, a := range rows {
		out[a.user]++
	}
	return out
}

func TestProductionRoundBalances(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		docs, perDoc, n, k    int
		wantMin, wantMax, all int
	}{
		// The case that came out 3 / 8 / 9 when documents were kept together.
		{name: "10 summaries x 2 to three annotators", docs: 2, perDoc: 5, n: 3, k: 2, wantMin: 6, wantMax: 7, all: 20},
		{name: "36 summaries x 2 to five", docs: 12, perDoc: 3, n: 5, k: 2, wantMin: 14, wantMax: 15, all: 72},
		{name: "uneven documents", docs: 1, perDoc: 7, n: 4, k: 3, wantMin: 5, wantMax: 6, all: 21},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, p, users, sums := roundFixture(t, tc.docs, tc.perDoc, tc.n)
			r, err := s.CreateRound(context.Background(), p.ID, domain.RoundSpec{Name: "prod", Kind: domain.RoundProduction, PerItem: tc.k, Annotators: users, Summaries: sums})
			if err != nil {
				t.Fatal(err)
			}
			rows := assignments(t, s.Path(), r.ID)
			if len(rows) != tc.all {
				t.Fatalf("%d assignments, want %d", len(rows), tc.all)
			}
			got := loads(rows)
			for _, u := range users {
				if got[u] < tc.wantMin || got[u] > tc.wantMax {
					t.Errorf("loads %v, want each between %d and %d", got, tc.wantMin, tc.wantMax)
					break
				}
			}
			d, err := s.DealingOf(context.Background(), r.ID)
			if err != nil || d.Dealing != domain.DealBalanced {
				t.Errorf("DealingOf = %+v, %v; want balanced", d, err)
			}
		})
	}
}

// TestStartRoundIsReproducible: the same request gives the same round, as
// the Rounds page and `annotate assign` both rely on.
func TestStartRoundIsReproducible(t *testing.T) {
	s, p, users, _ := roundFixture(t, 6, 3, 3)
	ctx := context.Background()
	deal := func(name string, seed uint64) []assignmentRow {
		r, err := s.StartRound(ctx, p.ID, domain.RoundRequest{Name: name, Kind: domain.RoundProduction, PerItem: 2, Annotators: users, Sample: 7, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		rows := assignments(t, s.Path(), r.ID)
		for i := range rows {
			rows[i].position = 0 // queues continue after earlier rounds
		}
		return rows
	}
	a, b, c := deal("a", 42), deal("b", 42), deal("c", 43)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("same seed, different rounds:\n%v\n%v", a, b)
	}
	if fmt.Sprint(a) == fmt.Sprint(c) {
		t.Errorf("seeds 42 and 43 drew the same sample")
	}
	if len(a) != 14 {
		t.Errorf("%d assignments, want 7 summaries x 2", len(a))
	}
	if _, err := s.StartRound(ctx, p.ID, domain.RoundRequest{Name: "d", Kind: domain.RoundProduction, PerItem: 1, Annotators: users, Documents: []string{"d0", "nope"}}); domain.ErrorCode(err) != domain.EInvalid {
		t.Errorf("unknown document: %v, want invalid", err)
	}
}

func TestCalibrationRoundGivesEveryoneEverything(t *testing.T) {
	s, p, users, sums := roundFixture(t, 3, 2, 3)
	r, err := s.CreateRound(context.Background(), p.ID, domain.RoundSpec{Name: "cal-1", Kind: domain.RoundCalibration, Annotators: users, Summaries: sums[:4]})
	if err != nil {
		t.Fatal(err)
	}
	if r.PerItem != 3 {
		t.Errorf("PerItem = %d, want 3", r.PerItem)
	}
	rows := assignments(t, s.Path(), r.ID)
	if len(rows) != 12 {
		t.Fatalf("%d assignments, want 12", len(rows))
	}
}

func TestCreateRoundRejects(t *testing.T) {
	s, p, users, sums := roundFixture(t, 2, 1, 2)
	ctx := context.Background()
	outsider, _ := s.CreateUser(ctx, "outsider", "", "a long enough password", false)
	other, _ := s.CreateProject(ctx, domain.Project{Slug: "other", Settings: domain.DefaultSettings()})
	s.Import(ctx, other.ID, []domain.DocumentInput{{ExternalID: "x", Sentences: []string{"X."}, Summaries: []domain.SummaryInput{{ExternalID: "x1", Sentences: []domain.SentenceInput{{Text: "X."}}}}}})
	otherSums, _ := s.SummaryIDs(ctx, other.ID, nil)
	for _, tc := range []struct {
		name string
		spec domain.RoundSpec
		code string
	}{
		{"k above annotators", domain.RoundSpec{Name: "a", Kind: domain.RoundProduction, PerItem: 3, Annotators: users, Summaries: sums}, domain.EInvalid},
		{"bad kind", domain.RoundSpec{Name: "a", Kind: "final", PerItem: 1, Annotators: users, Summaries: sums}, domain.EInvalid},
		{"non-member", domain.RoundSpec{Name: "a", Kind: domain.RoundProduction, PerItem: 1, Annotators: []int64{outsider.ID}, Summaries: sums}, domain.EInvalid},
		{"other project's summary", domain.RoundSpec{Name: "a", Kind: domain.RoundProduction, PerItem: 1, Annotators: users, Summaries: otherSums}, domain.EInvalid},
		{"no summaries", domain.RoundSpec{Name: "a", Kind: domain.RoundProduction, PerItem: 1, Annotators: users}, domain.EInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := s.CreateRound(ctx, p.ID, tc.spec); domain.ErrorCode(err) != tc.code {
				t.Fatalf("err = %v, want %s", err, tc.code)
			}
		})
	}
	if _, err := s.CreateRound(ctx, p.ID, domain.RoundSpec{Name: "once", Kind: domain.RoundProduction, PerItem: 1, Annotators: users, Summaries: sums}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateRound(ctx, p.ID, domain.RoundSpec{Name: "once", Kind: domain.RoundProduction, PerItem: 1, Annotators: users, Summaries: sums}); domain.ErrorCode(err) != domain.EConflict {
		t.Fatalf("duplicate name: %v", err)
	}
	rs, _ := s.Rounds(ctx, p.ID)
	if len(rs) != 1 {
		t.Fatalf("%d rounds, want 1 (rejected specs wrote nothing)", len(rs))
	}
}
