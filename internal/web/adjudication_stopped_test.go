package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"annotate/internal/authn"
	"annotate/internal/domain"
	"annotate/internal/tasks"
)

// stoppingGold runs the lead's gold operations on the store, whole, and
// then reports them stopped by err, as a run cut off after its last
// batch would: the counts are real, and so is the work kept. With wait
// set, it first waits for the request to end. With acceptOnly set, only
// AcceptMajority stops.
type stoppingGold struct {
	store      *tasks.Store
	err        error
	wait       bool
	acceptOnly bool
	started    chan struct{}
}

func (g *stoppingGold) stop(ctx context.Context) error {
	if !g.wait {
		return g.err
	}
	close(g.started)
	<-ctx.Done()
	return fmt.Errorf("deciding a batch: %w", ctx.Err())
}

func (g *stoppingGold) ResolveReady(ctx context.Context, projectID int64) (domain.ResolveStats, error) {
	st, err := g.store.ResolveReady(context.WithoutCancel(ctx), projectID)
	if err != nil {
		return st, err
	}
	return st, g.stop(ctx)
}

func (g *stoppingGold) ResolveRound(ctx context.Context, projectID, roundID int64) (domain.ResolveStats, error) {
	st, err := g.store.ResolveRound(context.WithoutCancel(ctx), projectID, roundID)
	if err != nil || g.acceptOnly {
		return st, err
	}
	return st, g.stop(ctx)
}

func (g *stoppingGold) AcceptMajority(ctx context.Context, projectID, roundID, userID int64) (int, error) {
	n, err := g.store.AcceptMajority(context.WithoutCancel(ctx), projectID, roundID, userID)
	if err != nil {
		return n, err
	}
	return n, g.stop(ctx)
}

// splitRound adds carl and a round r2 of ann, bob and carl on ann's
// second summary, labelled 2:1 on both its sentences (not resolved).
func splitRound(t *testing.T, f *adjFixture) *domain.Round {
	t.Helper()
	carl := f.user("carl", false)
	if err := f.store.SetMember(f.ctx, f.project.ID, carl.ID, domain.RoleAnnotator); err != nil {
		t.Fatal(err)
	}
	other := f.assign["ann"][1].SummaryID
	r2, err := f.store.CreateRound(f.ctx, f.project.ID, domain.RoundSpec{Name: "r2", Kind: domain.RoundCalibration,
		Annotators: []int64{f.assign["ann"][0].UserID, f.assign["bob"][0].UserID, carl.ID}, Summaries: []int64{other}})
	if err != nil {
		t.Fatal(err)
	}
	unfaithful := domain.SentenceLabel{Label: domain.LabelUnfaithful, ErrorTypes: []string{"contradiction"}, Explanation: "No.", Ambiguous: ptrTo(false)}
	f.submit(t, "ann", other, faithfulLabel(), unfaithful)
	f.submit(t, "bob", other, faithfulLabel(), unfaithful)
	f.submit(t, "carl", other, unfaithful, faithfulLabel())
	return r2
}

// majorityRound is splitRound resolved, so both sentences wait in the
// queue with a majority to accept.
func majorityRound(t *testing.T, f *adjFixture) *domain.Round {
	t.Helper()
	r2 := splitRound(t, f)
	if _, err := f.store.ResolveRound(f.ctx, f.project.ID, r2.ID); err != nil {
		t.Fatal(err)
	}
	return r2
}

// A lead's resolve or accept that stops part-way (its request out of
// time) keeps what it did, and the queue says how much, why it stopped
// and that the button finishes the rest, instead of an error page. A run
// that stops before doing anything is still an error.
func TestGoldRunStoppedPartWaySaysWhatItDid(t *testing.T) {
	f := newAdjFixture(t)
	r2 := majorityRound(t, f)
	round := f.assign["ann"][0].RoundID
	r1 := must(f.store.RoundByID(f.ctx, round))(t)
	f.server.GoldRunsForTest(&stoppingGold{store: f.store, err: fmt.Errorf("deciding a batch: %w", context.DeadlineExceeded)})
	lea := f.as("lea")
	tok := lea.csrf("/p/alpha/adjudication")

	p := lea.post("/p/alpha/adjudication/resolve", url.Values{"_csrf": {tok}, "round": {fmt.Sprint(round)}})
	if p.status != http.StatusSeeOther || p.header.Get("Location") != "/p/alpha/adjudication" {
		t.Fatalf("resolve stopped part-way: %d to %q", p.status, p.header.Get("Location"))
	}
	lea.get("/p/alpha/adjudication").textIn(t, tid("flash"), "Stopped part-way, as the request ran out of time. Done before it stopped, and kept: "+
		"resolving round "+r1.Name+": 2 summaries looked at, 0 sentences became unanimous, 0 went to the queue. Press the button again to finish the rest.")

	majority := url.Values{"_csrf": {tok}, "round": {fmt.Sprint(r2.ID)}}
	if p := lea.post("/p/alpha/adjudication/majority", majority); p.status != http.StatusSeeOther {
		t.Fatalf("accept stopped part-way: %d", p.status)
	}
	q := lea.get("/p/alpha/adjudication")
	q.textIn(t, tid("flash"), "Stopped part-way, as the request ran out of time. Done before it stopped, and kept: "+
		"the majority was accepted for 2 sentences of round r2. Press the button again to finish the rest.")
	if role := q.mustFind(t, tid("flash")).AttrOr("role", ""); role != "alert" {
		t.Errorf("the stopped run's flash has role %q, want alert: screen readers should say it at once", role)
	}
	other := f.assign["ann"][1].SummaryID
	if g := must(f.store.SummaryGold(f.ctx, other))(t); g[f.sentences[other][0]].Provenance != domain.ProvMajority {
		t.Fatalf("the accepted majorities were not kept: %+v", g)
	}
	// Nothing left to accept: stopped with nothing done is an error.
	if p := lea.post("/p/alpha/adjudication/majority", majority); p.status == http.StatusSeeOther || strings.Contains(p.body, "Stopped part-way") {
		t.Fatalf("an accept stopped before deciding anything: %d", p.status)
	}
}

// A lead who leaves the page while the accept runs finds, on coming
// back, what it did before it stopped: the flash is saved although the
// request's context has ended.
func TestGoldRunStoppedByLeavingSavesItsFlash(t *testing.T) {
	f := newAdjFixture(t)
	r2 := majorityRound(t, f)
	g := &stoppingGold{store: f.store, wait: true, started: make(chan struct{})}
	f.server.GoldRunsForTest(g)
	answered := make(chan struct{})
	f.server.AfterEachRequestForTest(func(path string) {
		if path == "/p/alpha/adjudication/majority" {
			close(answered)
		}
	})
	lea := f.as("lea")
	tok := lea.csrf("/p/alpha/adjudication")
	ctx, cancel := context.WithCancel(f.ctx)
	form := url.Values{"_csrf": {tok}, "round": {fmt.Sprint(r2.ID)}}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, f.srv.URL+"/p/alpha/adjudication/majority", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	go func() {
		<-g.started
		cancel()
	}()
	if resp, err := lea.client.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("the request was answered (%d) before the lead left", resp.StatusCode)
	}
	<-answered
	lea.get("/p/alpha/adjudication").textIn(t, tid("flash"), "Stopped part-way, as the request was cancelled. Done before it stopped, and kept: "+
		"the majority was accepted for 2 sentences of round r2. Press the button again to finish the rest.")
}

// Through the API, a resolve with majorities that stops part-way answers
// with a problem of type stopped, in the description's shape, whose done
// member counts what was kept.
func TestGoldResolveAPIStoppedPartWay(t *testing.T) {
	f := newAdjFixture(t)
	splitRound(t, f)
	f.server.GoldRunsForTest(&stoppingGold{store: f.store, acceptOnly: true, err: fmt.Errorf("deciding a batch: %w", context.DeadlineExceeded)})
	lea := must(f.store.UserByName(f.ctx, "lea"))(t)
	api := &apiClient{t: t, base: f.srv.URL, token: newToken(t, f.fixture, lea, authn.TokenSpec{})}
	res := api.postJSON("/api/v1/projects/alpha/gold/resolve", map[string]any{"round": "r2", "accept_majority": true})
	if res.status != http.StatusServiceUnavailable {
		t.Fatalf("a resolve stopped part-way: %s", res)
	}
	p := res.problem(t)
	if p.Type != "/api/v1/problems/stopped" || p.Done == nil || p.Done.Majority != 2 ||
		!strings.Contains(p.Detail, "Stopped part-way, as the request ran out of time. Done before it stopped, and kept: ") ||
		!strings.Contains(p.Detail, "; the majority accepted for 2 sentences. Call again to finish the rest.") {
		t.Fatalf("problem: %+v", p)
	}
	other := f.assign["ann"][1].SummaryID
	if g := must(f.store.SummaryGold(f.ctx, other))(t); g[f.sentences[other][0]].Provenance != domain.ProvMajority {
		t.Fatalf("the accepted majorities were not kept: %+v", g)
	}
}
