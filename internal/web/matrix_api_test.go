package web_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"testing"

	"annotate/internal/assiststore"
	"annotate/internal/authn"
	"annotate/internal/domain"
	"annotate/internal/web"
	"annotate/internal/webhooks"
)

// apiMatrixEntry is one API route of the authorization matrix: what each
// role's token gets, in matrixRoles order (anonymous sends no token).
type apiMatrixEntry struct {
	route string // "METHOD /path/:param" exactly as registered
	want  access
	body  string // a JSON body for POST and PUT routes; "" sends none
	// multipart sends an empty multipart form instead of a JSON body.
	multipart bool
}

const (
	created  = http.StatusCreated
	accepted = http.StatusAccepted
	noModel  = http.StatusServiceUnavailable
)

// apiLead is a lead-only API route: no token 401, annotators 403,
// outsiders 404.
var apiLead = access{anon, no, gone, no, ok, ok}

// apiMatrix lists every API route. A route under /api/v1 that is missing
// here fails TestAPIAuthorizationMatrix. Each allows what its page allows
// (see matrix_test.go); destructive routes come last.
var apiMatrix = []apiMatrixEntry{
	{route: "GET /api/v1/openapi.json", want: access{ok, ok, ok, ok, ok, ok}},
	{route: "GET /api/v1/projects", want: access{anon, ok, ok, ok, ok, ok}},
	{route: "GET /api/v1/projects/:slug", want: access{anon, ok, gone, ok, ok, ok}},
	{route: "PUT /api/v1/projects/:slug/taxonomy", want: access{anon, no, gone, no, ok, ok}, body: `{"preset":"frank"}`},
	{route: "POST /api/v1/projects/:slug/import", want: access{anon, no, gone, no, bad, bad}, multipart: true},
	{route: "GET /api/v1/projects/:slug/rounds", want: apiLead},
	{route: "POST /api/v1/projects/:slug/rounds", want: access{anon, no, gone, no, bad, bad}, body: `{"name":"x","kind":"production","annotators":["ann"]}`},
	{route: "GET /api/v1/projects/:slug/rounds/:rid", want: apiLead},
	{route: "GET /api/v1/projects/:slug/labels", want: apiLead},
	{route: "GET /api/v1/projects/:slug/gold", want: apiLead},
	{route: "POST /api/v1/projects/:slug/gold/resolve", want: access{anon, no, gone, no, ok, ok}, body: `{}`},
	{route: "GET /api/v1/projects/:slug/report", want: apiLead},
	{route: "GET /api/v1/projects/:slug/assist/runs", want: apiLead},
	// This server has no model endpoint.
	{route: "POST /api/v1/projects/:slug/assist/runs", want: access{anon, no, gone, no, noModel, noModel}, body: `{"protocol":"single"}`},
	{route: "GET /api/v1/projects/:slug/assist/runs/:rid", want: apiLead},
	{route: "POST /api/v1/projects/:slug/assist/runs/:rid/cancel", want: access{anon, no, gone, no, accepted, conf}},
	{route: "GET /api/v1/projects/:slug/studies", want: apiLead},
	// The lead makes the study; the admin's second one of the same name
	// conflicts.
	{route: "POST /api/v1/projects/:slug/studies", want: access{anon, no, gone, no, created, conf}, body: `{"name":"m","definition":{"round":"crowd-m","attention_rate":0}}`},
	// No study is named ":name".
	{route: "GET /api/v1/projects/:slug/studies/:name", want: access{anon, no, gone, no, gone, gone}},
	{route: "GET /api/v1/projects/:slug/studies/:name/report", want: access{anon, no, gone, no, gone, gone}},
	{route: "GET /api/v1/projects/:slug/webhooks", want: apiLead},
	{route: "POST /api/v1/projects/:slug/webhooks", want: access{anon, no, gone, no, created, created}, body: `{"url":"https://hooks.example.org/hook","events":["round.complete"]}`},
	{route: "GET /api/v1/projects/:slug/webhooks/:wid/deliveries", want: apiLead},
	{route: "DELETE /api/v1/projects/:slug/webhooks/:wid", want: access{anon, no, gone, no, none, gone}},
	{route: "POST /api/v1/projects/:slug/rounds/:rid/close", want: access{anon, no, gone, no, ok, conf}},
}

// A browser's session never reaches the API: in the cookie matrix every
// API route but the description answers 401 (the cookie matrix sends a
// form POST to a DELETE route, which is refused for want of a token
// before its method is).
func init() {
	for _, e := range apiMatrix {
		want := access{anon, anon, anon, anon, anon, anon}
		if strings.HasSuffix(e.route, "/openapi.json") {
			want = e.want
		}
		moreMatrix = append(moreMatrix, matrixEntry{route: e.route, want: want})
	}
}

func TestAPIAuthorizationMatrix(t *testing.T) {
	w := newWorkFixture(t)
	m := &matrixFixture{workFixture: w}
	oscar := w.user("oscar", false)
	w.fixture.project("beta", map[*domain.User]string{oscar: domain.RoleLead})
	root := w.user("root", true)
	rounds := must(w.store.Rounds(w.ctx, w.project.ID))(t)
	m.round = rounds[0].ID
	srv, err := web.New(w.ctx, w.store, web.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	// Created after the server starts, which marks earlier runs as
	// interrupted.
	run, err := assiststore.New(w.store).CreateAssistRun(w.ctx, assiststore.AssistRun{ProjectID: w.project.ID, Protocol: "single", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}

	t.Run("every API route has an entry", func(t *testing.T) {
		have := map[string]bool{}
		for _, e := range apiMatrix {
			have[e.route] = true
		}
		var missing []string
		for _, r := range srv.Routes() {
			if strings.Contains(r, " /api/") && !have[r] && !strings.HasPrefix(r, "echo_route_not_found") {
				missing = append(missing, r)
			}
			delete(have, r)
		}
		if len(missing) > 0 || len(have) > 0 {
			t.Fatalf("API routes without a matrix entry: %v\nentries for no route: %v", missing, have)
		}
	})

	users := map[string]*domain.User{"oscar": oscar, "root": root}
	for _, name := range []string{"bob", "ann", "lea"} {
		u, err := w.store.UserByName(w.ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		users[name] = u
	}
	clients := make([]*apiClient, len(matrixRoles))
	for i, name := range []string{"", "bob", "oscar", "ann", "lea", "root"} {
		clients[i] = &apiClient{t: t, base: w.srv.URL, noCheck: true}
		if name != "" {
			clients[i].token = newToken(t, w.fixture, users[name], authn.TokenSpec{})
		}
	}
	hook, err := webhooks.New(w.store).CreateWebhook(w.ctx, w.project.ID, users["lea"].ID, "http://127.0.0.1:9/hook", []string{webhooks.EventGoldDecided})
	if err != nil {
		t.Fatal(err)
	}
	fill := strings.NewReplacer(":slug", "alpha", "/rounds/:rid", "/rounds/"+strconv.FormatInt(m.round, 10),
		"/runs/:rid", "/runs/"+strconv.FormatInt(run.ID, 10), "/webhooks/:wid", "/webhooks/"+strconv.FormatInt(hook.ID, 10))
	for _, e := range apiMatrix {
		method, route, _ := strings.Cut(e.route, " ")
		path := fill.Replace(route)
		for i, role := range matrixRoles {
			var res apiAnswer
			switch {
			case e.multipart:
				res = clients[i].upload(path, nil)
			case method == http.MethodPost || method == http.MethodPut:
				res = clients[i].do(method, path, "application/json", []byte(e.body))
			default:
				res = clients[i].do(method, path, "", nil)
			}
			if res.status != e.want[i] {
				t.Errorf("%s as %s: status %d, want %d (%s)", e.route, role, res.status, e.want[i], res.body)
			}
		}
	}
}

// TestAPIDescribesEveryRoute holds the OpenAPI description and the router
// to the same routes, both ways.
func TestAPIDescribesEveryRoute(t *testing.T) {
	apiValidator(t)
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(web.OpenAPI, &doc); err != nil {
		t.Fatal(err)
	}
	described := map[string]bool{}
	for path, ops := range doc.Paths {
		for method := range ops {
			if method == "parameters" {
				continue
			}
			described[strings.ToUpper(method)+" "+path] = true
		}
	}
	f := newFixture(t)
	srv, err := web.New(f.ctx, f.store, web.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	var missing []string
	for _, r := range srv.Routes() {
		method, path, _ := strings.Cut(r, " ")
		if !strings.HasPrefix(path, "/api/") || strings.HasPrefix(r, "echo_route_not_found") {
			continue
		}
		var parts []string
		for _, seg := range strings.Split(path, "/") {
			if strings.HasPrefix(seg, ":") {
				seg = "{" + seg[1:] + "}"
			}
			parts = append(parts, seg)
		}
		key := method + " " + strings.Join(parts, "/")
		if !described[key] {
			missing = append(missing, key)
		}
		delete(described, key)
	}
	var extra []string
	for k := range described {
		extra = append(extra, k)
	}
	sort.Strings(extra)
	if len(missing) > 0 || len(extra) > 0 {
		t.Fatalf("routes missing from openapi.json: %v\noperations in openapi.json that no route serves: %v", missing, extra)
	}
}
