package web

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"annotate/internal/netguard"
	"annotate/internal/webhooks"
)

// webhookStore is what the server needs of the webhooks' store
// (internal/webhooks): the API's registrations and the deliveries it
// sends. Tests can put another behind a server.
type webhookStore interface {
	CreateWebhook(ctx context.Context, projectID, by int64, rawURL string, events []string) (*webhooks.Webhook, error)
	Webhooks(ctx context.Context, projectID int64) ([]webhooks.Webhook, error)
	DeleteWebhook(ctx context.Context, projectID, id int64) error
	WebhookDeliveries(ctx context.Context, projectID, webhookID int64) ([]webhooks.WebhookDelivery, error)
	QueueWebhookEvents(ctx context.Context) (int, error)
	DueWebhookDeliveries(ctx context.Context, limit, perProject int, skip ...int64) ([]webhooks.WebhookDelivery, error)
	RecordWebhookAttempt(ctx context.Context, id int64, status int, attemptErr error, retry time.Duration) error
}

// Webhook delivery: every WebhookInterval the server queues the events
// that happened (rounds complete, gold decided) and posts the deliveries
// that are due, each signed with its webhook's secret. A delivery that
// does not get a 2xx answer is tried again after WebhookBackoff, doubling
// each time, up to webhookAttempts attempts.
//
// Each project's deliveries are posted by a worker of its own, at most
// webhookPerProject at a time, and a tick starts workers only for projects
// whose previous worker has finished: a project whose receivers accept and
// never answer holds up only itself, never another project's deliveries.
// Deliveries go only to public addresses (see netguard), unless
// Config.WebhookAllowHosts names the host.
const (
	webhookAttempts   = 6
	webhookBatch      = 200
	webhookPerProject = 4
	webhookProjects   = 16 // projects delivering at once
	webhookTimeout    = 10 * time.Second
	// SignatureHeader carries "sha256=" and the hex HMAC-SHA256 of the
	// body under the webhook's secret.
	SignatureHeader = "X-Annotate-Signature"
)

// webhookSender runs the delivery loop until stopped.
type webhookSender struct {
	stop    context.CancelFunc
	done    chan struct{}
	client  *http.Client
	slots   chan struct{} // bounds the projects delivering at once
	mu      sync.Mutex
	busy    map[int64]bool // projects whose worker is still running
	workers sync.WaitGroup
}

// webhookClient posts deliveries: no redirects followed, no proxy from the
// environment, and connections only to addresses the policy allows.
func webhookClient(policy netguard.Policy) *http.Client {
	d := &netguard.Dialer{Policy: policy, Dialer: net.Dialer{Timeout: webhookTimeout}}
	return &http.Client{
		Timeout: webhookTimeout,
		Transport: &http.Transport{
			Proxy:               nil,
			DialContext:         d.DialContext,
			TLSHandshakeTimeout: webhookTimeout,
			MaxIdleConnsPerHost: webhookPerProject,
			IdleConnTimeout:     90 * time.Second,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// startWebhooks starts the delivery loop when the configuration asks for
// one.
func (s *Server) startWebhooks() {
	if s.cfg.WebhookInterval <= 0 {
		return
	}
	ctx, stop := context.WithCancel(context.Background())
	h := &webhookSender{stop: stop, done: make(chan struct{}), client: webhookClient(s.hookPolicy),
		slots: make(chan struct{}, webhookProjects), busy: map[int64]bool{}}
	s.hooks = h
	go func() {
		defer close(h.done)
		defer h.workers.Wait()
		t := time.NewTicker(s.cfg.WebhookInterval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				s.deliverWebhooks(ctx, h)
			}
		}
	}()
}

// stopWebhooks ends the delivery loop and waits for it and its workers.
func (s *Server) stopWebhooks() {
	if s.hooks != nil {
		s.hooks.stop()
		<-s.hooks.done
	}
}

// deliverWebhooks queues new events and starts a worker for each project
// that has deliveries due and no worker running.
func (s *Server) deliverWebhooks(ctx context.Context, h *webhookSender) {
	if _, err := s.webhooks.QueueWebhookEvents(ctx); err != nil {
		if ctx.Err() == nil {
			s.log.Error("queue webhook events", "err", err)
		}
		return
	}
	h.mu.Lock()
	var busy []int64
	for p := range h.busy {
		busy = append(busy, p)
	}
	h.mu.Unlock()
	due, err := s.webhooks.DueWebhookDeliveries(ctx, webhookBatch, webhookPerProject, busy...)
	if err != nil {
		if ctx.Err() == nil {
			s.log.Error("webhook deliveries", "err", err)
		}
		return
	}
	byProject := map[int64][]webhooks.WebhookDelivery{}
	var order []int64
	for _, d := range due {
		if _, ok := byProject[d.ProjectID]; !ok {
			order = append(order, d.ProjectID)
		}
		byProject[d.ProjectID] = append(byProject[d.ProjectID], d)
	}
	for _, p := range order {
		select {
		case h.slots <- struct{}{}:
		default:
			return // as many projects as allowed are delivering; the rest wait for the next tick
		}
		h.mu.Lock()
		h.busy[p] = true
		h.mu.Unlock()
		h.workers.Add(1)
		go func(p int64, ds []webhooks.WebhookDelivery) {
			defer func() {
				h.mu.Lock()
				delete(h.busy, p)
				h.mu.Unlock()
				<-h.slots
				h.workers.Done()
			}()
			s.deliverProject(ctx, h.client, ds)
		}(p, byProject[p])
	}
}

// deliverProject posts one project's due deliveries, webhookPerProject
// at a time, and records each attempt.
func (s *Server) deliverProject(ctx context.Context, client *http.Client, due []webhooks.WebhookDelivery) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, webhookPerProject)
	for _, d := range due {
		sem <- struct{}{}
		wg.Add(1)
		go func(d webhooks.WebhookDelivery) {
			defer func() { <-sem; wg.Done() }()
			status, err := postWebhook(ctx, client, d)
			if ctx.Err() != nil {
				return
			}
			retry := time.Duration(0)
			if err != nil && d.Attempts+1 < webhookAttempts {
				retry = s.cfg.WebhookBackoff << d.Attempts
			}
			if rerr := s.webhooks.RecordWebhookAttempt(ctx, d.ID, status, err, retry); rerr != nil {
				s.log.Error("record webhook attempt", "delivery", d.ID, "err", rerr)
			}
		}(d)
	}
	wg.Wait()
}

// Sign is the signature of a webhook body under secret, as sent in
// SignatureHeader.
func Sign(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// postWebhook sends one delivery and returns the receiver's status.
func postWebhook(ctx context.Context, client *http.Client, d webhooks.WebhookDelivery) (int, error) {
	body := []byte(d.Payload)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "annotate-webhook")
	req.Header.Set("X-Annotate-Event", d.Event)
	req.Header.Set("X-Annotate-Delivery", strconv.FormatInt(d.ID, 10))
	req.Header.Set(SignatureHeader, Sign(d.Secret, body))
	resp, err := client.Do(req)
	if err != nil {
		// Stored for the lead to read: what went wrong, never the
		// addresses, ports or resolver the raw error names.
		return 0, errors.New(netguard.Describe(err))
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp.StatusCode, fmt.Errorf("the receiver answered %d", resp.StatusCode)
	}
	return resp.StatusCode, nil
}
