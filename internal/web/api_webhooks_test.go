package web_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"annotate/internal/authn"
	"annotate/internal/domain"
	"annotate/internal/tasks"
	"annotate/internal/web"
	"annotate/internal/webhooks"
)

// hookCall is one request a webhook receiver got.
type hookCall struct {
	event, signature, delivery string
	body                       []byte
	answered                   int
}

// TestAPIWebhooks registers a webhook over the API and follows a round to
// gold: the receiver, a real loopback server that fails its first request,
// gets round.complete and gold.decided, signed with the secret, the first
// after a retry; the deliveries list says so.
//
// gold.decided fires for unanimous gold resolved at submission as for any
// other decision, and reports each decision once: a delivery carries the
// decisions made since the previous one, so the four unanimous sentences
// may come in one delivery or in one per submission (the delivery loop's
// ticks decide), but their decisions add up to four, and resolving the
// round afterwards, which decides nothing new, sends nothing.
func TestAPIWebhooks(t *testing.T) {
	ctx := context.Background()
	store, err := tasks.Open(ctx, filepath.Join(t.TempDir(), "hooks.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	s, err := web.New(ctx, store, web.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		WebhookInterval: 10 * time.Millisecond, WebhookBackoff: 10 * time.Millisecond, WebhookAllowHosts: []string{"127.0.0.1"}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(func() { srv.Close(); s.Close() })
	f := &fixture{t: t, store: store, srv: srv, ctx: ctx}

	var mu sync.Mutex
	calls := make(chan hookCall, 20)
	n := 0
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		n++
		status := http.StatusOK
		if n == 1 {
			status = http.StatusInternalServerError
		}
		mu.Unlock()
		w.WriteHeader(status)
		calls <- hookCall{event: r.Header.Get("X-Annotate-Event"), signature: r.Header.Get(web.SignatureHeader),
			delivery: r.Header.Get("X-Annotate-Delivery"), body: body, answered: status}
	}))
	t.Cleanup(receiver.Close)

	lead, ann, bob := f.user("lea", false), f.user("ann", false), f.user("bob", false)
	p := f.project("alpha", map[*domain.User]string{lead: domain.RoleLead, ann: domain.RoleAnnotator, bob: domain.RoleAnnotator})
	api := &apiClient{t: t, base: srv.URL, token: newToken(t, f, lead, authn.TokenSpec{})}
	if res := api.upload("/api/v1/projects/alpha/import", map[string]string{"batch.jsonl": apiDocs}); res.status != http.StatusOK {
		t.Fatalf("import: %s", res)
	}
	if res := api.postJSON("/api/v1/projects/alpha/rounds", map[string]any{"name": "cal", "kind": "calibration", "annotators": []string{"ann", "bob"}}); res.status != http.StatusCreated {
		t.Fatalf("round: %s", res)
	}

	unchecked := *api
	unchecked.noCheck = true
	bad := unchecked.postJSON("/api/v1/projects/alpha/webhooks", map[string]any{"url": "file:///etc/passwd", "events": []string{"round.complete"}})
	if pr := bad.problem(t); bad.status != http.StatusUnprocessableEntity || pr.Type != "/api/v1/problems/invalid-webhook" || pr.Errors[0].Field != "url" {
		t.Fatalf("bad URL: %s", bad)
	}
	res := api.postJSON("/api/v1/projects/alpha/webhooks", map[string]any{"url": receiver.URL + "/hook", "events": []string{"round.complete", "gold.decided"}})
	var hook struct {
		ID     int64  `json:"id"`
		Secret string `json:"secret"`
	}
	res.decode(t, &hook)
	if res.status != http.StatusCreated || len(hook.Secret) != 64 {
		t.Fatalf("register: %s", res)
	}
	// The list holds the webhook, and its secret nowhere in the body.
	list := api.get("/api/v1/projects/alpha/webhooks")
	if list.status != http.StatusOK || !strings.Contains(string(list.body), receiver.URL+"/hook") {
		t.Fatalf("list: %s", list)
	}
	if strings.Contains(string(list.body), hook.Secret) {
		t.Fatal("the list shows the secret")
	}

	labelAll(t, f, p, ann)
	labelAll(t, f, p, bob)
	if res := api.postJSON("/api/v1/projects/alpha/gold/resolve", map[string]any{"round": "cal"}); res.status != http.StatusOK ||
		!strings.Contains(string(res.body), `"unanimous":0,"pending":0`) {
		t.Fatalf("resolve: %s", res)
	}

	var completes []hookCall
	decided, decisions, failed := 0, 0, 0
	timeout := time.After(10 * time.Second)
	for len(completes) < 1 || decisions < 4 {
		select {
		case c := <-calls:
			if c.signature != web.Sign(hook.Secret, c.body) {
				t.Fatalf("%s: signature %q does not sign the body", c.event, c.signature)
			}
			var payload struct {
				Event, Project string
				Decisions      int
			}
			if err := json.Unmarshal(c.body, &payload); err != nil || payload.Event != c.event || payload.Project != "alpha" {
				t.Fatalf("payload %s (%v)", c.body, err)
			}
			if c.answered != http.StatusOK {
				failed++
				continue
			}
			switch c.event {
			case webhooks.EventRoundComplete:
				completes = append(completes, c)
			case webhooks.EventGoldDecided:
				decided++
				decisions += payload.Decisions
			default:
				t.Fatalf("event %q", c.event)
			}
		case <-timeout:
			t.Fatalf("after 10s the receiver has %d round.complete, %d gold.decided with %d decisions and %d failures", len(completes), decided, decisions, failed)
		}
	}
	if failed != 1 || len(completes) != 1 || !strings.Contains(string(completes[0].body), `"name":"cal"`) || decisions != 4 {
		t.Fatalf("failures %d, round.complete %d, decisions %d", failed, len(completes), decisions)
	}

	var ds []struct {
		Event      string `json:"event"`
		Status     string `json:"status"`
		Attempts   int    `json:"attempts"`
		LastStatus int    `json:"last_status"`
	}
	// The receiver answers before the server records the answer: wait for
	// the record.
	deadline := time.Now().Add(10 * time.Second)
	for {
		api.get("/api/v1/projects/alpha/webhooks/"+itoa(hook.ID)+"/deliveries").decode(t, &ds)
		pending := false
		for _, d := range ds {
			pending = pending || d.Status == webhooks.DeliveryPending
		}
		if !pending || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	attempts := 0
	for _, d := range ds {
		if d.Status != webhooks.DeliveryDelivered || d.LastStatus != http.StatusOK {
			t.Fatalf("deliveries: %+v", ds)
		}
		attempts += d.Attempts
	}
	if len(ds) != 1+decided || attempts != len(ds)+1 {
		t.Fatalf("deliveries: %+v, want round.complete and %d gold.decided, one of them tried twice", ds, decided)
	}
	if res := api.do(http.MethodDelete, "/api/v1/projects/alpha/webhooks/"+itoa(hook.ID), "", nil); res.status != http.StatusNoContent {
		t.Fatalf("delete: %s", res)
	}
	if res := api.get("/api/v1/projects/alpha/webhooks/" + itoa(hook.ID) + "/deliveries"); res.status != http.StatusNotFound {
		t.Fatalf("deliveries of a deleted webhook: %s", res)
	}
}
