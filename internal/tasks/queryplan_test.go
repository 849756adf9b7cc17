package tasks_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"annotate/internal/assiststore"
	"annotate/internal/domain"
	"annotate/internal/tasks"
	"annotate/internal/testkit/sqlplan"
)

// smallTables may be scanned whole: a handful of rows per project.
var smallTables = map[string]bool{"projects": true, "rounds": true, "memberships": true, "users": true, "secrets": true,
	"json_each": true} // json_each: a list passed as a parameter

// partialIndexes hold only the rows a page lists (the sentences waiting
// for adjudication), so scanning one reads no more than the page shows.
var partialIndexes = []string{"gold_sentences_unresolved"}

// TestHotQueriesUseIndexes runs the store methods behind the labelling
// page, a save, a submit, the queue, the adjudication page and a gold
// decision against a seeded database with planner statistics, records the
// queries they send, and fails when SQLite's plan for one of them scans a
// large table whole (a table scan, or a scan of a whole index).
func TestHotQueriesUseIndexes(t *testing.T) {
	tr := queryTracer()
	old := *tasks.DriverName
	*tasks.DriverName = "sqlite-trace"
	t.Cleanup(func() { *tasks.DriverName = old })
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "plan.db")
	s, err := tasks.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	w := seedPlanProject(t, s)
	if _, err := w.db.ExecContext(ctx, "ANALYZE"); err != nil {
		t.Fatal(err)
	}

	tr.record(true)
	w.hotPaths(t)
	queries := tr.record(false)
	if len(queries) < 15 {
		t.Fatalf("recorded only %d queries; is the tracing driver in use?", len(queries))
	}
	for _, q := range queries {
		if bad := fullScans(t, w.db, q); len(bad) > 0 {
			t.Errorf("full scan of %s in\n%s", strings.Join(bad, ", "), q)
		}
	}
}

var fromJoin = regexp.MustCompile(`(?i)\b(?:FROM|JOIN)\s+([a-z_]+)(?:\s+(?:AS\s+)?([a-z_]+))?`)

// fullScans returns the large tables the plan of q reads whole.
func fullScans(t *testing.T, db *sql.DB, q string) []string {
	t.Helper()
	trimmed := strings.TrimSpace(q)
	upper := strings.ToUpper(trimmed)
	if !strings.HasPrefix(upper, "SELECT") && !strings.HasPrefix(upper, "UPDATE") && !strings.HasPrefix(upper, "INSERT") &&
		!strings.HasPrefix(upper, "DELETE") && !strings.HasPrefix(upper, "WITH") {
		return nil // PRAGMA, BEGIN and the like
	}
	alias := map[string]string{}
	for _, m := range fromJoin.FindAllStringSubmatch(trimmed, -1) {
		alias[m[1]] = m[1]
		if m[2] != "" && !isKeyword(m[2]) {
			alias[m[2]] = m[1]
		}
	}
	var bad []string
	for _, detail := range sqlplan.Of(t, db, trimmed, make([]any, params(trimmed))...) {
		if testing.Verbose() {
			t.Logf("%.60s: %s", strings.Join(strings.Fields(trimmed), " "), detail)
		}
		f := strings.Fields(detail)
		if len(f) < 2 || f[0] != "SCAN" {
			continue
		}
		table, ok := alias[f[1]]
		if !ok || smallTables[table] {
			continue // a subquery's rows, or a small table
		}
		if i := slices.Index(f, "INDEX"); i > 0 && i+1 < len(f) && slices.Contains(partialIndexes, f[i+1]) {
			continue
		}
		bad = append(bad, fmt.Sprintf("%s (%s)", table, detail))
	}
	return bad
}

var numbered = regexp.MustCompile(`\?(\d+)`)

// params counts the parameters of q (plain ? or numbered ?N), so that the
// plan can be asked for with every parameter NULL.
func params(q string) int {
	n := 0
	for _, m := range numbered.FindAllStringSubmatch(q, -1) {
		var k int
		fmt.Sscan(m[1], &k)
		n = max(n, k)
	}
	return max(n, strings.Count(q, "?")-len(numbered.FindAllString(q, -1)))
}

func isKeyword(w string) bool {
	switch strings.ToUpper(w) {
	case "WHERE", "ON", "JOIN", "LEFT", "INNER", "CROSS", "GROUP", "ORDER", "LIMIT", "USING", "SET", "VALUES", "UNION", "AND":
		return true
	}
	return false
}

// planWorld is the seeded project of the plan test.
type planWorld struct {
	s       *tasks.Store
	db      *sql.DB
	ctx     context.Context
	p       *domain.Project
	users   []*domain.User
	lead    *domain.User
	summary int64
	assign  int64
}

// seedPlanProject makes 60 documents of 4 summaries of 4 sentences, three
// annotators with two rounds, three assistant runs with an output for
// every sentence, labels and submissions, and some gold.
func seedPlanProject(t *testing.T, s *tasks.Store) *planWorld {
	t.Helper()
	ctx := context.Background()
	w := &planWorld{s: s, ctx: ctx}
	var err error
	if w.p, err = s.CreateProject(ctx, domain.Project{Slug: "plan", Settings: domain.DefaultSettings()}); err != nil {
		t.Fatal(err)
	}
	var docs []domain.DocumentInput
	for d := 0; d < 60; d++ {
		doc := domain.DocumentInput{ExternalID: fmt.Sprintf("d%d", d), Sentences: []string{"The council met.", "It approved the budget.", "The vote was close."},
			KeyFacts: []domain.KeyFactInput{{Topic: "t", Text: "The budget passed."}}}
		for k := 0; k < 4; k++ {
			doc.Summaries = append(doc.Summaries, domain.SummaryInput{ExternalID: fmt.Sprintf("d%d-s%d", d, k), Topic: "t",
				Sentences: []domain.SentenceInput{{Text: "The council met."}, {Text: "It approved the budget."}, {Text: "The vote was unanimous."}, {Text: "Parks got money."}}})
		}
		docs = append(docs, doc)
	}
	if _, err := s.Import(ctx, w.p.ID, docs); err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, name := range []string{"ann", "bob", "cat"} {
		u, err := s.CreateUser(ctx, name, "", "a long enough password", false)
		if err != nil {
			t.Fatal(err)
		}
		s.SetMember(ctx, w.p.ID, u.ID, domain.RoleAnnotator)
		w.users = append(w.users, u)
		ids = append(ids, u.ID)
	}
	w.lead, _ = s.CreateUser(ctx, "lea", "", "a long enough password", false)
	s.SetMember(ctx, w.p.ID, w.lead.ID, domain.RoleLead)
	sums, _ := s.SummaryIDs(ctx, w.p.ID, nil)
	if _, err := s.CreateRound(ctx, w.p.ID, domain.RoundSpec{Name: "cal", Kind: domain.RoundCalibration, Annotators: ids, Summaries: sums[:8]}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateRound(ctx, w.p.ID, domain.RoundSpec{Name: "prod", Kind: domain.RoundProduction, PerItem: 2, Annotators: ids, Summaries: sums[8:]}); err != nil {
		t.Fatal(err)
	}
	for r := 0; r < 3; r++ {
		run, err := assiststore.New(s).CreateAssistRun(ctx, assiststore.AssistRun{ProjectID: w.p.ID, Protocol: "single", Status: assiststore.RunImported})
		if err != nil {
			t.Fatal(err)
		}
		for _, sid := range sums {
			sum, _ := s.Summary(ctx, sid)
			for _, x := range sum.Sentences {
				if err := assiststore.New(s).SaveAssistOutput(ctx, run.ID, assiststore.AssistOutput{SentenceID: x.ID, Label: "faithful", Status: assiststore.AssistOutputOK, Output: []byte(`{}`)}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	// Everyone labels and submits the calibration round, disagreeing on
	// the last sentence; ann labels half of her production queue.
	for i, u := range w.users {
		q, _ := s.Queue(ctx, w.p.ID, u.ID)
		for n, a := range q {
			if a.RoundName == "prod" && (i > 0 || n > 40) {
				continue
			}
			sum, _ := s.Summary(ctx, a.SummaryID)
			v := a.Version
			for k, x := range sum.Sentences {
				l := domain.SentenceLabel{SentenceID: x.ID, Label: "faithful", ErrorTypes: []string{}, Ambiguous: new(bool)}
				if k == 3 && i == 0 {
					l.Label, l.ErrorTypes, l.Explanation = "unfaithful", []string{"extrinsic_information"}, "Not in the text."
				}
				if v, err = s.SaveSentenceLabel(ctx, a.ID, u.ID, v, l); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := s.SaveSummaryLabel(ctx, a.ID, u.ID, v, domain.SummaryLabel{Relevance: 4, TopicCategory: "main"}); err != nil {
				t.Fatal(err)
			}
			if err := s.Submit(ctx, a.ID, u.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := s.ResolveReady(ctx, w.p.ID); err != nil {
		t.Fatal(err)
	}
	w.summary = sums[0]
	q, _ := s.Queue(ctx, w.p.ID, w.users[0].ID)
	for _, a := range q {
		if a.Status != domain.StatusSubmitted {
			w.assign = a.ID
			break
		}
	}
	db, err := sql.Open("sqlite", s.Path())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	w.db = db
	return w
}

// hotPaths calls what the pages call.
func (w *planWorld) hotPaths(t *testing.T) {
	t.Helper()
	ctx, s, ann := w.ctx, w.s, w.users[0]
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	// The labelling page, a save and a submit.
	a, err := s.AssignmentByID(ctx, w.assign)
	must(err)
	_, err = s.ProjectByID(ctx, a.ProjectID)
	must(err)
	_, err = s.Role(ctx, w.p.ID, ann.ID)
	must(err)
	sum, err := s.Summary(ctx, a.SummaryID)
	must(err)
	doc, err := s.Document(ctx, sum.DocumentID)
	must(err)
	_, err = s.SentenceLabels(ctx, a.ID)
	must(err)
	_, err = s.SummaryLabelOf(ctx, a.ID)
	must(err)
	_, err = assiststore.New(s).AssistPanel(ctx, a.SummaryID)
	must(err)
	_, _, err = assiststore.New(s).AssistPanelSentence(ctx, sum.Sentences[0].ID)
	must(err)
	_, err = s.KeyFacts(ctx, doc.ID, sum.Topic)
	must(err)
	_, err = s.KeyFactLinks(ctx, a.ID)
	must(err)
	_, err = s.QueueNav(ctx, a)
	must(err)
	_, err = s.NextOpen(ctx, a)
	must(err)
	v := a.Version
	for _, x := range sum.Sentences {
		v, err = s.SaveSentenceLabel(ctx, a.ID, ann.ID, v, domain.SentenceLabel{SentenceID: x.ID, Label: "faithful", ErrorTypes: []string{}, Ambiguous: new(bool)})
		must(err)
	}
	v, err = s.SaveSummaryLabel(ctx, a.ID, ann.ID, v, domain.SummaryLabel{Relevance: 3, TopicCategory: "main"})
	must(err)
	facts, _ := s.KeyFacts(ctx, doc.ID, sum.Topic)
	_, err = s.SetKeyFactLink(ctx, a.ID, ann.ID, v, facts[0].ID, sum.Sentences[0].ID, true)
	must(err)
	must(s.Submit(ctx, a.ID, ann.ID))
	_, err = s.QueueCounts(ctx, w.p.ID, ann.ID)
	must(err)
	_, err = s.QueueEntriesPage(ctx, w.p.ID, ann.ID, 0, 100)
	must(err)
	// The adjudication queue's list (its round counts read every round's
	// sentences by design), the adjudication page and a decision.
	_, err = s.PendingSentences(ctx, w.p.ID)
	must(err)
	_, err = s.SummaryVotes(ctx, w.summary)
	must(err)
	gold, err := s.SummaryGold(ctx, w.summary)
	must(err)
	_, err = s.GoldHistory(ctx, w.p.ID, w.summary, 200)
	must(err)
	s.SummaryGoldOf(ctx, w.summary)
	first, _ := s.Summary(ctx, w.summary)
	last := first.Sentences[3].ID
	_, err = s.SetGold(ctx, w.p.ID, last, w.lead.ID, gold[last].Version, domain.GoldDecision{GoldValues: domain.GoldValues{Label: "faithful", ErrorTypes: []string{}, Ambiguous: new(bool)}})
	must(err)
	_, err = s.ResolveSummary(ctx, a.SummaryID)
	must(err)
}
