package web_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"annotate/internal/assiststore"
	"annotate/internal/authn"
)

// TestAPIAssistRuns starts an assistant run over the API, watches its
// progress while it is live, cancels it and lists it.
func TestAPIAssistRuns(t *testing.T) {
	f := newRunsFixture(t)
	lea := must(f.store.UserByName(f.ctx, "lea"))(t)
	api := &apiClient{t: t, base: f.srv.URL, token: newToken(t, f.fixture, lea, authn.TokenSpec{})}
	type run struct {
		ID     int64  `json:"id"`
		Status string `json:"status"`
		Model  string `json:"model"`
		Done   int    `json:"done"`
		Total  int    `json:"total"`
		Live   bool   `json:"live"`
	}

	unchecked := *api
	unchecked.noCheck = true
	if res := unchecked.postJSON("/api/v1/projects/alpha/assist/runs", map[string]any{"protocol": "chorus"}); res.status != http.StatusUnprocessableEntity || res.problem(t).Type != "/api/v1/problems/invalid-run" {
		t.Fatalf("unknown protocol: %s", res)
	}
	res := api.postJSON("/api/v1/projects/alpha/assist/runs", map[string]any{"protocol": "single"})
	var r run
	res.decode(t, &r)
	if res.status != http.StatusAccepted || r.Model != "runner-default-model" || r.Total != 2 {
		t.Fatalf("start: %s", res)
	}
	path := fmt.Sprintf("/api/v1/projects/alpha/assist/runs/%d", r.ID)
	if loc := res.header.Get("Location"); loc != path {
		t.Fatalf("Location %q, want %q", loc, path)
	}

	f.runner.release <- struct{}{} // one sentence judged
	deadline := time.Now().Add(5 * time.Second)
	for r.Done < 1 {
		if time.Now().After(deadline) {
			t.Fatalf("progress never reached 1: %+v", r)
		}
		api.get(path).decode(t, &r)
	}
	if !r.Live || r.Status != assiststore.RunRunning || r.Done != 1 {
		t.Fatalf("live run: %+v", r)
	}

	if res := api.do(http.MethodPost, path+"/cancel", "", nil); res.status != http.StatusAccepted {
		t.Fatalf("cancel: %s", res)
	}
	f.runner.waitEnd(t, r.ID)
	api.get(path).decode(t, &r)
	if r.Live || r.Status != assiststore.RunCancelled {
		t.Fatalf("after cancelling: %+v", r)
	}
	if res := api.do(http.MethodPost, path+"/cancel", "", nil); res.status != http.StatusConflict || res.problem(t).Type != "/api/v1/problems/run-not-running" {
		t.Fatalf("cancel again: %s", res)
	}
	var list []run
	api.get("/api/v1/projects/alpha/assist/runs").decode(t, &list)
	if len(list) != 1 || list[0].ID != r.ID {
		t.Fatalf("runs: %+v", list)
	}
}
