package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"annotate/internal/assist"
	"annotate/internal/assiststore"
	"annotate/internal/domain"
	"annotate/internal/tasks"
	"annotate/internal/web"
)

// fakeRunner is an AssistRunner that judges sentences one at a time, each
// only when the test releases it, so that a run stays live while the test
// looks at it.
type fakeRunner struct {
	store   *tasks.Store
	release chan struct{}
	mu      sync.Mutex
	ended   map[int64]chan struct{}
}

func (f *fakeRunner) DefaultModel() string { return "runner-default-model" }

func (f *fakeRunner) Create(ctx context.Context, projectID int64, protocol, model string) (*assiststore.AssistRun, error) {
	return assiststore.New(f.store).CreateAssistRun(ctx, assiststore.AssistRun{ProjectID: projectID, Protocol: protocol, Model: model, Total: 2})
}

func (f *fakeRunner) Execute(ctx context.Context, runID int64, progress func(assist.Progress)) (assist.RunStats, error) {
	f.mu.Lock()
	end := make(chan struct{})
	f.ended[runID] = end
	f.mu.Unlock()
	defer close(end)
	if err := assiststore.New(f.store).StartAssistRun(ctx, runID); err != nil {
		return assist.RunStats{}, err
	}
	record := context.WithoutCancel(ctx)
	for i := range 2 {
		select {
		case <-f.release:
		case <-ctx.Done():
			return assist.RunStats{}, errorsJoin(ctx.Err(), assiststore.New(f.store).FinishAssistRun(record, runID, assiststore.RunCancelled, context.Cause(ctx).Error(), assiststore.AssistUsage{Calls: int64(i)}))
		}
		progress(assist.Progress{Total: 2, Done: i + 1})
	}
	return assist.RunStats{}, assiststore.New(f.store).FinishAssistRun(record, runID, assiststore.RunDone, "", assiststore.AssistUsage{Calls: 2})
}

// waitEnd waits until run id's Execute has returned.
func (f *fakeRunner) waitEnd(t *testing.T, id int64) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		f.mu.Lock()
		end := f.ended[id]
		f.mu.Unlock()
		if end != nil {
			select {
			case <-end:
				return
			case <-time.After(5 * time.Second):
				t.Fatalf("run %d did not end", id)
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("run %d never started", id)
}

func errorsJoin(a, b error) error {
	if b != nil {
		return b
	}
	return a
}

// runsFixture is a server with an assistant runner, a project "alpha" with
// one document and summary, lead lea, annotator ann and outsider eve.
type runsFixture struct {
	*fixture
	server  *web.Server
	runner  *fakeRunner
	project *domain.Project
}

func newRunsFixture(t *testing.T) *runsFixture {
	t.Helper()
	ctx := context.Background()
	store, err := tasks.Open(ctx, filepath.Join(t.TempDir(), "runs.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	runner := &fakeRunner{store: store, release: make(chan struct{}), ended: map[int64]chan struct{}{}}
	s, err := web.New(ctx, store, web.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Assist: runner})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(func() { srv.Close(); s.Close() })
	f := &runsFixture{fixture: &fixture{t: t, store: store, srv: srv, ctx: ctx}, server: s, runner: runner}
	lea, ann := f.user("lea", false), f.user("ann", false)
	f.user("eve", false)
	f.project = f.fixture.project("alpha", map[*domain.User]string{lea: domain.RoleLead, ann: domain.RoleAnnotator})
	doc := domain.DocumentInput{ExternalID: "doc-1", Sentences: []string{"The council approved the park budget.", "The vote was five to two."},
		Summaries: []domain.SummaryInput{{ExternalID: "s1", Sentences: []domain.SentenceInput{
			{Text: "The council approved the budget.", Gold: &domain.GoldInput{Label: "faithful"}},
			{Text: "The vote was unanimous.", Gold: &domain.GoldInput{Label: "unfaithful"}},
		}}}}
	if _, err := store.Import(ctx, f.project.ID, []domain.DocumentInput{doc}); err != nil {
		t.Fatal(err)
	}
	return f
}

// waitIdle waits until the server no longer counts run id as live: its
// row stops polling.
func (f *runsFixture) waitIdle(t *testing.T, b *browser, id int64) {
	t.Helper()
	for range 200 {
		// Only the run's own row without a poll counts: an error page
		// has no row and keeps the wait going.
		row := b.get(fmt.Sprintf("/p/alpha/assist/runs/%d", id))
		tr := page{status: row.status, body: "<table>" + row.body + "</table>"}.find(t, "tr"+tid(fmt.Sprintf("run-%d", id)))
		if _, polls := tr.Attr("hx-trigger"); row.status == http.StatusOK && tr.Length() == 1 && !polls {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("run %d is still live", id)
}

func (f *runsFixture) as(name string) *browser {
	b := f.browser()
	b.login(name, testPassword)
	return b
}

func TestAssistPageAccess(t *testing.T) {
	f := newRunsFixture(t)
	cases := []struct {
		user   string
		status int
	}{{"lea", http.StatusOK}, {"ann", http.StatusForbidden}, {"eve", http.StatusNotFound}}
	for _, c := range cases {
		t.Run(c.user, func(t *testing.T) {
			b := f.as(c.user)
			p := b.get("/p/alpha/assist")
			if p.status != c.status {
				t.Fatalf("GET status %d, want %d", p.status, c.status)
			}
			if c.status == http.StatusOK {
				p.mustFind(t, tid("run-form")+` [value="runner-default-model"]`)
				return
			}
			if strings.Contains(p.body, "runner-default-model") {
				t.Fatal("a model name reached a non-lead")
			}
			tok := b.csrf("/projects")
			if p := b.post("/p/alpha/assist/runs", url.Values{"_csrf": {tok}, "protocol": {"single"}, "model": {"m"}}); p.status != c.status {
				t.Fatalf("POST status %d, want %d", p.status, c.status)
			}
		})
	}
	t.Run("anonymous", func(t *testing.T) {
		if p := f.browser().get("/p/alpha/assist"); p.status != http.StatusSeeOther {
			t.Fatalf("status %d, want a redirect to the login", p.status)
		}
	})
	if runs := must(assiststore.New(f.store).AssistRuns(f.ctx, f.project.ID))(t); len(runs) != 0 {
		t.Fatalf("refused requests created %d runs", len(runs))
	}
}

func TestAssistRunFromThePage(t *testing.T) {
	f := newRunsFixture(t)
	lea := f.as("lea")
	tok := lea.csrf("/p/alpha/assist")

	t.Run("invalid form", func(t *testing.T) {
		p := lea.post("/p/alpha/assist/runs", url.Values{"_csrf": {tok}, "protocol": {"trilogue"}, "model": {""}})
		if p.status != http.StatusUnprocessableEntity || !strings.Contains(p.body, "Choose the single-round or the debate protocol.") || !strings.Contains(p.body, "Name the model to ask.") {
			t.Fatalf("status %d", p.status)
		}
	})

	p := lea.post("/p/alpha/assist/runs", url.Values{"_csrf": {tok}, "protocol": {"debate"}, "model": {"page-model"}})
	if p.status != http.StatusSeeOther || p.header.Get("Location") != "/p/alpha/assist" {
		t.Fatalf("start: %d %s", p.status, p.header.Get("Location"))
	}
	f.runner.release <- struct{}{} // the first sentence
	// The runner records the sentence after it is released: wait for the
	// row to show it.
	row := lea.get("/p/alpha/assist/runs/1")
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(row.body, "1 / 2") && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
		row = lea.get("/p/alpha/assist/runs/1")
	}
	live := page{status: row.status, body: "<table>" + row.body + "</table>"}.mustFind(t, "tr"+tid("run-1"))
	if got := textOf(live); row.status != http.StatusOK || live.AttrOr("hx-trigger", "") != "every 2s" || !strings.Contains(got, "1 / 2") || !strings.Contains(got, "page-model") {
		t.Fatalf("live row: %d\n%s", row.status, row.body)
	}
	if ann := f.as("ann"); ann.get("/p/alpha/assist/runs/1").status != http.StatusForbidden {
		t.Fatal("an annotator can watch a run")
	}

	t.Run("annotators cannot cancel", func(t *testing.T) {
		ann := f.as("ann")
		if p := ann.post("/p/alpha/assist/runs/1/cancel", url.Values{"_csrf": {ann.csrf("/projects")}}); p.status != http.StatusForbidden {
			t.Fatalf("status %d", p.status)
		}
	})

	p = lea.post("/p/alpha/assist/runs/1/cancel", url.Values{"_csrf": {tok}})
	if p.status != http.StatusSeeOther {
		t.Fatalf("cancel: %d", p.status)
	}
	f.runner.waitEnd(t, 1)
	f.waitIdle(t, lea, 1)
	r := must(assiststore.New(f.store).AssistRunByID(f.ctx, 1))(t)
	if r.Status != assiststore.RunCancelled || r.Error != "cancelled by a lead" {
		t.Fatalf("after cancel: %+v", r)
	}
	row = lea.get("/p/alpha/assist/runs/1")
	// The fragment is a table row: parse it inside a table.
	tr := page{status: row.status, body: "<table>" + row.body + "</table>"}.mustFind(t, "tr"+tid("run-1"))
	if _, polls := tr.Attr("hx-trigger"); polls || tr.Find(tid("resume-1")).Length() != 1 {
		t.Fatalf("the ended row still polls or offers no resume:\n%s", row.body)
	}

	t.Run("resume and finish", func(t *testing.T) {
		p := lea.post("/p/alpha/assist/runs/1/resume", url.Values{"_csrf": {tok}})
		if p.status != http.StatusSeeOther {
			t.Fatalf("resume: %d", p.status)
		}
		f.runner.release <- struct{}{}
		f.runner.release <- struct{}{}
		f.runner.waitEnd(t, 1)
		f.waitIdle(t, lea, 1)
		page := lea.get("/p/alpha/assist")
		if got := textOf(page.mustFind(t, tid("run-1")+" "+tid("run-status-1"))); got != "done" {
			t.Fatalf("run shown as %q, not done", got)
		}
		if p := lea.post("/p/alpha/assist/runs/1/resume", url.Values{"_csrf": {tok}}); p.status != http.StatusConflict {
			t.Fatalf("resuming a finished run: %d", p.status)
		}
	})
	t.Run("a run of another project is not found", func(t *testing.T) {
		other := f.fixture.project("beta", map[*domain.User]string{})
		r := must(assiststore.New(f.store).CreateAssistRun(f.ctx, assiststore.AssistRun{ProjectID: other.ID, Protocol: "single"}))(t)
		if p := lea.get(fmt.Sprintf("/p/alpha/assist/runs/%d", r.ID)); p.status != http.StatusNotFound {
			t.Fatalf("status %d", p.status)
		}
	})
}

func TestServerStartInterruptsRuns(t *testing.T) {
	ctx := context.Background()
	store, err := tasks.Open(ctx, filepath.Join(t.TempDir(), "i.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	p := must(store.CreateProject(ctx, domain.Project{Slug: "p", Settings: domain.DefaultSettings()}))(t)
	r := must(assiststore.New(store).CreateAssistRun(ctx, assiststore.AssistRun{ProjectID: p.ID, Protocol: "single"}))(t)
	if err := assiststore.New(store).StartAssistRun(ctx, r.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := web.New(ctx, store, web.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}); err != nil {
		t.Fatal(err)
	}
	got := must(assiststore.New(store).AssistRunByID(ctx, r.ID))(t)
	if got.Status != assiststore.RunFailed || !strings.Contains(got.Error, "--resume 1") {
		t.Fatalf("after start: %+v", got)
	}
}

// panelResult is a complete result as a run stores it, naming its model.
func panelResult(model string) assist.SentenceResult {
	no := false
	return assist.SentenceResult{
		Protocol: assist.ProtocolSingle, Target: 1, Model: model, PromptVersion: assist.PromptVersion, Status: assist.StatusOK,
		Settings: assist.Settings{Protocol: assist.ProtocolSingle, EvidenceCap: 5},
		Advocate: &assist.Side{Label: assist.Faithful, Citations: []int{1}, Reason: "Advocate-reason: turn [1] supports it."},
		Skeptic:  &assist.Side{Label: assist.Unfaithful, ErrorType: "extrinsic_information", Citations: []int{2, 9}, Reason: "Skeptic-reason: nothing says unanimous."},
		Adjudicator: &assist.Verdict{Label: assist.Unfaithful, ErrorType: "extrinsic_information", Report: "Adjudicator-report: the Skeptic holds.",
			Citations: []int{2}, AdvocateHolds: &no},
		Ambiguity: &assist.Ambiguity{Judged: true, Ambiguous: true, Type: "vagueness", Reason: "unanimous is vague"},
		Evidence:  []int{2},
	}
}

// TestPanelNeverNamesTheModel shows a run's output on the labelling page
// and checks that annotators and leads see the arguments but the model
// name only on the lead's assistant page.
func TestPanelNeverNamesTheModel(t *testing.T) {
	w := newWorkFixture(t)
	set := w.project.Settings
	set.AssistantVisibility = domain.AssistAlways
	if err := w.store.UpdateSettings(w.ctx, w.project.ID, set, ""); err != nil {
		t.Fatal(err)
	}
	a := w.assign["ann"][0]
	const model = "hidden-llm-9000"
	r, err := assiststore.New(w.store).CreateAssistRun(w.ctx, assiststore.AssistRun{ProjectID: w.project.ID, Protocol: "single", Model: model, Total: 1})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(panelResult(model))
	if err := assiststore.New(w.store).SaveAssistOutput(w.ctx, r.ID, assiststore.AssistOutput{SentenceID: w.sentences[a.SummaryID][1], Label: "unfaithful", Output: data}); err != nil {
		t.Fatal(err)
	}
	for _, user := range []string{"ann", "lea"} {
		t.Run(user, func(t *testing.T) {
			p := w.as(user).get(fmt.Sprintf("/a/%d", a.ID))
			if p.status != http.StatusOK {
				t.Fatalf("status %d", p.status)
			}
			for _, want := range []string{"Advocate-reason", "Skeptic-reason", "Adjudicator-report", "Extrinsic Information", "ambiguous (Vagueness): unanimous is vague"} {
				if !strings.Contains(p.body, want) {
					t.Errorf("the panel lacks %q", want)
				}
			}
			p.mustFind(t, ".assist "+tid("chip-2"))
			p.noneIn(t, ".assist", tid("chip-9")+`, [data-unit="9"]`)
			if strings.Contains(p.body, model) || strings.Contains(p.body, "secret-model-name") {
				t.Fatal("the labelling page names a model")
			}
		})
	}
	if p := w.as("lea").get("/p/alpha/assist"); !strings.Contains(p.body, model) {
		t.Fatal("the lead's assistant page does not name the run's model")
	}
}

func TestPanelMarksSampleOutput(t *testing.T) {
	w := newWorkFixture(t)
	set := w.project.Settings
	set.AssistantVisibility = domain.AssistAlways
	if err := w.store.UpdateSettings(w.ctx, w.project.ID, set, ""); err != nil {
		t.Fatal(err)
	}
	a := w.assign["ann"][0]
	r := must(assiststore.New(w.store).CreateAssistRun(w.ctx, assiststore.AssistRun{ProjectID: w.project.ID, Protocol: "single", Model: "sample", Sample: true, Status: assiststore.RunImported}))(t)
	data, _ := json.Marshal(panelResult("sample"))
	if err := assiststore.New(w.store).SaveAssistOutput(w.ctx, r.ID, assiststore.AssistOutput{SentenceID: w.sentences[a.SummaryID][1], Label: "unfaithful", Output: data}); err != nil {
		t.Fatal(err)
	}
	p := w.as("ann").get(fmt.Sprintf("/a/%d", a.ID))
	if !strings.Contains(p.body, "sample output") {
		t.Fatal("sample output is not marked as such")
	}
}

func (w *workFixture) as(name string) *browser {
	b := w.browser()
	b.login(name, testPassword)
	return b
}

// assistRunPath is the path of a queued run of project alpha, created on
// first use, followed by suffix; the authorization matrix uses it.
func (m *matrixFixture) assistRunPath(suffix string) string {
	runs := must(assiststore.New(m.store).AssistRuns(m.ctx, m.project.ID))(m.t)
	if len(runs) == 0 {
		r, err := assiststore.New(m.store).CreateAssistRun(m.ctx, assiststore.AssistRun{ProjectID: m.project.ID, Protocol: "single", Model: "m"})
		if err != nil {
			m.t.Fatal(err)
		}
		runs = append(runs, *r)
	}
	return fmt.Sprintf("/p/alpha/assist/runs/%d%s", runs[0].ID, suffix)
}
