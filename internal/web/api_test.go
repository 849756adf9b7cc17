package web_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"annotate/internal/authn"
	"annotate/internal/domain"
)

// apiDocs is a native import file: two documents with one two-sentence
// summary each.
const apiDocs = `{"id":"d1","kind":"prose","text":"The council approved the harbour budget on Monday. Repairs start in May.","summaries":[{"id":"d1-s1","model":"m1","text":"The council approved the budget. Repairs start in June."}]}
{"id":"d2","kind":"prose","text":"The library opens at nine. It closes at five.","summaries":[{"id":"d2-s1","model":"m1","text":"The library opens at nine. It closes at five."}]}
`

// newToken makes a token for an account as the tokens page would.
func newToken(t *testing.T, f *fixture, u *domain.User, spec authn.TokenSpec) string {
	t.Helper()
	if spec.Name == "" {
		spec.Name = "test"
	}
	if spec.TTL == 0 {
		spec.TTL = time.Hour
	}
	_, secret, err := authn.New(f.store).CreateToken(f.ctx, u.ID, spec)
	if err != nil {
		t.Fatal(err)
	}
	return secret
}

// jsonLines splits a JSON Lines body into records.
func jsonLines(t *testing.T, body []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("not JSON Lines: %v: %s", err, sc.Text())
		}
		out = append(out, m)
	}
	return out
}

// labelAll labels and submits every assignment of an annotator through the
// labelling pages, as the annotator's browser does: every sentence
// faithful and unambiguous, the summary relevant.
func labelAll(t *testing.T, f *fixture, p *domain.Project, u *domain.User) {
	t.Helper()
	b := f.browser()
	if pg := b.login(u.Username, testPassword); pg.status != http.StatusSeeOther {
		t.Fatalf("login %s: %d", u.Username, pg.status)
	}
	queue, err := f.store.Queue(f.ctx, p.ID, u.ID)
	if err != nil || len(queue) == 0 {
		t.Fatalf("queue of %s: %v, %v", u.Username, queue, err)
	}
	for _, a := range queue {
		sum, err := f.store.Summary(f.ctx, a.SummaryID)
		if err != nil {
			t.Fatal(err)
		}
		version := "0"
		for _, s := range sum.Sentences {
			pg := b.save(a, s.ID, version, url.Values{"label": {"faithful"}, "ambiguous": {"no"}})
			m := versionField.FindStringSubmatch(pg.body)
			if pg.status != http.StatusOK || m == nil {
				t.Fatalf("save: %d %s", pg.status, pg.body)
			}
			version = m[1]
		}
		tok := b.csrf(fmt.Sprintf("/a/%d", a.ID))
		req, _ := http.NewRequest(http.MethodPost, fmt.Sprintf("%s/a/%d/summary", f.srv.URL, a.ID),
			strings.NewReader(url.Values{"version": {version}, "relevance": {"4"}, "topic_category": {"main"}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-CSRF-Token", tok)
		if pg := b.do(req); pg.status != http.StatusOK {
			t.Fatalf("summary label: %d %s", pg.status, pg.body)
		}
		if pg := b.post(fmt.Sprintf("/a/%d/submit", a.ID), url.Values{"_csrf": {tok}}); pg.status != http.StatusSeeOther {
			t.Fatalf("submit: %d %s", pg.status, pg.body)
		}
	}
}

// TestAPIScriptedSession is a lead's script from start to gold, over the
// API of a real server: import, a round, the annotators label in their
// browsers, progress, gold, the gold set and the report; every answer is
// checked against the OpenAPI description.
func TestAPIScriptedSession(t *testing.T) {
	f := newFixture(t)
	lead := f.user("lea", false)
	ann := f.user("ann", false)
	bob := f.user("bob", false)
	p := f.project("alpha", map[*domain.User]string{lead: domain.RoleLead, ann: domain.RoleAnnotator, bob: domain.RoleAnnotator})
	api := &apiClient{t: t, base: f.srv.URL, token: newToken(t, f, lead, authn.TokenSpec{})}

	t.Run("projects list", func(t *testing.T) {
		res := api.get("/api/v1/projects")
		var ps []struct{ Slug, Role string }
		res.decode(t, &ps)
		if res.status != http.StatusOK || len(ps) != 1 || ps[0].Slug != "alpha" || ps[0].Role != "lead" {
			t.Fatalf("projects: %s", res)
		}
		res = api.get("/api/v1/projects/alpha")
		if res.status != http.StatusOK || !bytes.Contains(res.body, []byte(`"error_types":[{`)) {
			t.Fatalf("project: %s", res)
		}
	})
	t.Run("a bad file is refused whole, naming file, line and field", func(t *testing.T) {
		bad := apiDocs + `{"id":"d3","kind":"prose","text":"x.","summaries":[{"id":"d3-s1","model":"m1","text":"x.","gold":{"label":"maybe"}}]}` + "\n"
		res := api.upload("/api/v1/projects/alpha/import", map[string]string{"batch.jsonl": bad})
		if res.status != http.StatusUnprocessableEntity {
			t.Fatalf("import: %s", res)
		}
		pr := res.problem(t)
		if pr.Type != "/api/v1/problems/invalid-import" || len(pr.Errors) != 1 {
			t.Fatalf("problem: %+v", pr)
		}
		if e := pr.Errors[0]; e.File != "batch.jsonl" || e.Line != 3 || !strings.Contains(e.Field, "gold.label") || e.Message == "" {
			t.Fatalf("error: %+v", e)
		}
		if o := must(f.store.ProjectOverview(f.ctx, p.ID))(t); o.Documents != 0 {
			t.Fatalf("%d documents written by a refused import", o.Documents)
		}
	})
	t.Run("dry run checks and writes nothing", func(t *testing.T) {
		res := api.upload("/api/v1/projects/alpha/import", map[string]string{"batch.jsonl": apiDocs}, "dry_run", "true")
		var st struct {
			DryRun    bool `json:"dry_run"`
			Documents int  `json:"documents"`
		}
		res.decode(t, &st)
		if res.status != http.StatusOK || !st.DryRun || st.Documents != 2 {
			t.Fatalf("dry run: %s", res)
		}
		if o := must(f.store.ProjectOverview(f.ctx, p.ID))(t); o.Documents != 0 {
			t.Fatalf("%d documents written by a dry run", o.Documents)
		}
	})
	t.Run("import", func(t *testing.T) {
		res := api.upload("/api/v1/projects/alpha/import", map[string]string{"batch.jsonl": apiDocs}, "format", "native")
		if res.status != http.StatusOK || !bytes.Contains(res.body, []byte(`"summaries":2`)) {
			t.Fatalf("import: %s", res)
		}
	})

	var round struct {
		ID       int64 `json:"id"`
		Total    int   `json:"total"`
		Complete bool  `json:"complete"`
		Progress []struct {
			Username  string `json:"username"`
			Total     int    `json:"total"`
			Submitted int    `json:"submitted"`
		} `json:"progress"`
	}
	t.Run("create a calibration round", func(t *testing.T) {
		res := api.postJSON("/api/v1/projects/alpha/rounds", map[string]any{"name": "cal-1", "kind": "calibration", "annotators": []string{"ann", "bob"}})
		res.decode(t, &round)
		if res.status != http.StatusCreated || round.Total != 4 || len(round.Progress) != 2 || round.Complete {
			t.Fatalf("round: %s", res)
		}
		if loc := res.header.Get("Location"); loc != fmt.Sprintf("/api/v1/projects/alpha/rounds/%d", round.ID) {
			t.Fatalf("Location %q", loc)
		}
		bad := api.postJSON("/api/v1/projects/alpha/rounds", map[string]any{"name": "x", "kind": "production", "per_item": 3, "annotators": []string{"ann", "lea"}})
		if pr := bad.problem(t); bad.status != http.StatusUnprocessableEntity || pr.Type != "/api/v1/problems/invalid-round" || len(pr.Errors) != 2 {
			t.Fatalf("bad round: %s", bad)
		}
		dup := api.postJSON("/api/v1/projects/alpha/rounds", map[string]any{"name": "cal-1", "kind": "calibration", "annotators": []string{"ann"}})
		if dup.problem(t); dup.status != http.StatusConflict {
			t.Fatalf("duplicate round: %s", dup)
		}
	})
	roundPath := fmt.Sprintf("/api/v1/projects/alpha/rounds/%d", round.ID)

	labelAll(t, f, p, ann)
	t.Run("progress after one annotator", func(t *testing.T) {
		res := api.get(roundPath)
		res.decode(t, &round)
		if res.status != http.StatusOK || round.Complete || round.Progress[0].Username != "ann" || round.Progress[0].Submitted != 2 || round.Progress[1].Submitted != 0 {
			t.Fatalf("progress: %s", res)
		}
	})
	labelAll(t, f, p, bob)
	t.Run("progress when complete", func(t *testing.T) {
		res := api.get(roundPath)
		res.decode(t, &round)
		if !round.Complete {
			t.Fatalf("progress: %s", res)
		}
		list := api.get("/api/v1/projects/alpha/rounds")
		if list.status != http.StatusOK || !bytes.Contains(list.body, []byte(`"complete":true`)) {
			t.Fatalf("rounds: %s", list)
		}
	})

	var goldTag string
	t.Run("unanimous gold from submission, resolving adds nothing, fetch it", func(t *testing.T) {
		// Every sentence is unanimous, so its gold was resolved when the
		// last assignment of its summary was submitted; resolving the round
		// again finds nothing new (it is there for labels changed after
		// submission and, with accept_majority, for majorities).
		res := api.postJSON("/api/v1/projects/alpha/gold/resolve", map[string]any{"round": "cal-1"})
		if res.status != http.StatusOK || !bytes.Contains(res.body, []byte(`"summaries":2,"unanimous":0,"pending":0`)) {
			t.Fatalf("resolve: %s", res)
		}
		gold := api.get("/api/v1/projects/alpha/gold")
		if ct := gold.header.Get("Content-Type"); gold.status != http.StatusOK || !strings.HasPrefix(ct, "application/jsonl") {
			t.Fatalf("gold: %d %s", gold.status, ct)
		}
		recs := jsonLines(t, gold.body)
		if len(recs) != 4 || recs[0]["kind"] != "export" || recs[0]["what"] != "gold" || recs[3]["kind"] != "end" || recs[3]["records"] != 2.0 {
			t.Fatalf("gold records: %s", gold.body)
		}
		if n := bytes.Count(gold.body, []byte(`"provenance":"unanimous"`)); n != 4+2 {
			t.Fatalf("%d unanimous gold values, want 4 sentences and 2 summaries, in %s", n, gold.body)
		}
		goldTag = gold.header.Get("ETag")
		if !strings.HasPrefix(goldTag, `W/"`) {
			t.Fatalf("ETag %q", goldTag)
		}
	})
	t.Run("an unchanged export is not sent again", func(t *testing.T) {
		if goldTag == "" {
			t.Fatal("no ETag from fetching gold")
		}
		res := api.get("/api/v1/projects/alpha/gold", "If-None-Match", goldTag)
		if res.status != http.StatusNotModified || len(res.body) != 0 {
			t.Fatalf("If-None-Match: %s", res)
		}
		other := api.get("/api/v1/projects/alpha/gold?provenance=adjudicated", "If-None-Match", goldTag)
		if other.status != http.StatusOK {
			t.Fatalf("another filter with the same ETag: %d", other.status)
		}
	})
	t.Run("labels with filters", func(t *testing.T) {
		res := api.get("/api/v1/projects/alpha/labels?round=cal-1")
		if n := len(jsonLines(t, res.body)); res.status != http.StatusOK || n != 1+8+1 { // header, labels, end
			t.Fatalf("labels: %d records\n%s", n, res)
		}
		later := api.get("/api/v1/projects/alpha/labels?since=" + url.QueryEscape(time.Now().Add(time.Hour).UTC().Format(time.RFC3339)))
		if n := len(jsonLines(t, later.body)); later.status != http.StatusOK || n != 1+1 {
			t.Fatalf("labels since an hour from now: %d records", n)
		}
		csv := api.get("/api/v1/projects/alpha/labels?format=csv&anonymise=true")
		if !strings.HasPrefix(csv.header.Get("Content-Type"), "text/csv") || csv.header.Get("X-Export-What") != "raw" ||
			csv.header.Get("X-Export-Anonymised") != "true" || bytes.Contains(csv.body, []byte("ann,")) {
			t.Fatalf("CSV labels: %v\n%s", csv.header, csv.body)
		}
		bad := api.get("/api/v1/projects/alpha/labels?since=yesterday")
		if pr := bad.problem(t); bad.status != http.StatusUnprocessableEntity || pr.Errors[0].Field != "since" {
			t.Fatalf("bad since: %s", bad)
		}
	})
	t.Run("report, then not modified", func(t *testing.T) {
		res := api.get("/api/v1/projects/alpha/report")
		var rep struct {
			Project    string   `json:"project"`
			Annotators []string `json:"annotators"`
		}
		res.decode(t, &rep)
		if res.status != http.StatusOK || rep.Project != "alpha" || len(rep.Annotators) != 2 {
			t.Fatalf("report: %s", res)
		}
		again := api.get("/api/v1/projects/alpha/report", "If-None-Match", res.header.Get("ETag"))
		if again.status != http.StatusNotModified {
			t.Fatalf("report If-None-Match: %d", again.status)
		}
	})
	t.Run("close the round", func(t *testing.T) {
		res := api.do(http.MethodPost, roundPath+"/close", "", nil)
		if res.status != http.StatusOK || !bytes.Contains(res.body, []byte(`"status":"closed"`)) {
			t.Fatalf("close: %s", res)
		}
		if again := api.do(http.MethodPost, roundPath+"/close", "", nil); again.status != http.StatusConflict {
			t.Fatalf("close twice: %s", again)
		}
		if res := api.get("/api/v1/projects/alpha/gold", "If-None-Match", goldTag); res.status != http.StatusOK {
			t.Fatalf("after closing a round the old ETag still matches: %d", res.status)
		}
	})
}
