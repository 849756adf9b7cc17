package web_test

import (
	"context"
	"io"
	"log/slog"
	"net"
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

// hookServer starts a server that delivers webhooks every 10 ms, allowing
// the given internal hosts.
func hookServer(t *testing.T, allow ...string) *fixture {
	t.Helper()
	ctx := context.Background()
	store, err := tasks.Open(ctx, filepath.Join(t.TempDir(), "hooks.db"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := web.New(ctx, store, web.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		WebhookInterval: 10 * time.Millisecond, WebhookBackoff: time.Hour, WebhookAllowHosts: allow})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(func() { srv.Close(); s.Close(); store.Close() })
	return &fixture{t: t, store: store, srv: srv, ctx: ctx}
}

// hookProject makes a project with one summary sentence and returns it
// with the sentence's id.
func hookProject(t *testing.T, f *fixture, slug string, lead *domain.User) (*domain.Project, int64) {
	t.Helper()
	p := f.project(slug, map[*domain.User]string{lead: domain.RoleLead})
	docs := []domain.DocumentInput{{ExternalID: slug + "-d", Sentences: []string{"Source."},
		Summaries: []domain.SummaryInput{{ExternalID: slug + "-s", Sentences: []domain.SentenceInput{{Text: "Claim."}}}}}}
	if _, err := f.store.Import(f.ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	sums, err := f.store.SummaryIDs(f.ctx, p.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := f.store.Summary(f.ctx, sums[0])
	if err != nil {
		t.Fatal(err)
	}
	return p, sum.Sentences[0].ID
}

func decide(t *testing.T, f *fixture, p *domain.Project, sentence int64, by *domain.User) {
	t.Helper()
	if _, err := f.store.SetGold(f.ctx, p.ID, sentence, by.ID, -1, domain.GoldDecision{GoldValues: domain.GoldValues{Label: domain.LabelFaithful}}); err != nil {
		t.Fatal(err)
	}
}

// TestWebhookRegistrationRefusesInternalAddresses: a lead cannot register
// a webhook that points at the server's own network, written as a literal
// address or as localhost.
func TestWebhookRegistrationRefusesInternalAddresses(t *testing.T) {
	f := hookServer(t)
	lead := f.user("lea", false)
	f.project("alpha", map[*domain.User]string{lead: domain.RoleLead})
	api := &apiClient{t: t, base: f.srv.URL, token: newToken(t, f, lead, authn.TokenSpec{}), noCheck: true}
	for _, u := range []string{"http://127.0.0.1:9/hook", "http://[::1]/hook", "http://localhost:8080/", "http://0.0.0.0/",
		"http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/", "http://[::ffff:127.0.0.1]/", "http://2130706433/"} {
		res := api.postJSON("/api/v1/projects/alpha/webhooks", map[string]any{"url": u, "events": []string{"gold.decided"}})
		pr := res.problem(t)
		if res.status != http.StatusUnprocessableEntity || len(pr.Errors) != 1 || pr.Errors[0].Field != "url" || !strings.Contains(pr.Errors[0].Message, "webhooks may only reach") {
			t.Errorf("%s: %s", u, res)
		}
	}
	if res := api.postJSON("/api/v1/projects/alpha/webhooks", map[string]any{"url": "https://hooks.example.org/annotate", "events": []string{"gold.decided"}}); res.status != http.StatusCreated {
		t.Errorf("a public host: %s", res)
	}
}

// TestWebhookDeliveryRefusesInternalAddresses: a webhook that reaches an
// internal address at delivery (here stored directly, as a name that
// later resolves there would be) is never posted, and the error the lead
// reads names no address.
func TestWebhookDeliveryRefusesInternalAddresses(t *testing.T) {
	f := hookServer(t)
	called := make(chan struct{}, 1)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { called <- struct{}{} }))
	t.Cleanup(receiver.Close)
	lead := f.user("lea", false)
	p, sent := hookProject(t, f, "alpha", lead)
	hook, err := webhooks.New(f.store).CreateWebhook(f.ctx, p.ID, lead.ID, receiver.URL+"/hook", []string{webhooks.EventGoldDecided})
	if err != nil {
		t.Fatal(err)
	}
	decide(t, f, p, sent, lead)
	var ds []webhooks.WebhookDelivery
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		if ds, err = webhooks.New(f.store).WebhookDeliveries(f.ctx, p.ID, hook.ID); err != nil {
			t.Fatal(err)
		}
		if len(ds) > 0 && ds[0].Attempts > 0 {
			break
		}
		select {
		case <-called:
			t.Fatal("the server posted to a loopback address")
		case <-time.After(5 * time.Millisecond):
		}
	}
	if len(ds) != 1 || ds[0].Attempts != 1 || !strings.Contains(ds[0].LastError, "server's own network") || strings.Contains(ds[0].LastError, "127.0.0.1") {
		t.Fatalf("deliveries: %+v", ds)
	}
}

// TestSlowReceiversDelayOnlyTheirProject: twenty webhooks of one project
// point at a receiver that accepts and never answers; another project's
// gold.decided still arrives at once, not after their timeouts.
func TestSlowReceiversDelayOnlyTheirProject(t *testing.T) {
	f := hookServer(t, "127.0.0.1")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c) // read nothing, answer nothing
			mu.Unlock()
		}
	}()
	arrived := make(chan time.Time, 4)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { arrived <- time.Now() }))
	t.Cleanup(receiver.Close)

	lead := f.user("lea", false)
	slow, slowSentence := hookProject(t, f, "slow", lead)
	fast, fastSentence := hookProject(t, f, "fast", lead)
	for range webhooks.MaxWebhooksPerProject {
		if _, err := webhooks.New(f.store).CreateWebhook(f.ctx, slow.ID, lead.ID, "http://"+ln.Addr().String()+"/hook", []string{webhooks.EventGoldDecided}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := webhooks.New(f.store).CreateWebhook(f.ctx, fast.ID, lead.ID, receiver.URL+"/hook", []string{webhooks.EventGoldDecided}); err != nil {
		t.Fatal(err)
	}
	decide(t, f, slow, slowSentence, lead)
	start := time.Now()
	decide(t, f, fast, fastSentence, lead)
	select {
	case at := <-arrived:
		t.Logf("the other project's delivery arrived after %v", at.Sub(start))
	case <-time.After(5 * time.Second): // half of one slow receiver's timeout
		t.Fatal("the other project's delivery waited for the slow receivers")
	}
}
