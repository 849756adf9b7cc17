package web

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"annotate/internal/tasks"
)

// Webhook delivery: every WebhookInterval the server queues the events
// that happened (rounds complete, gold decided) and posts the deliveries
// that are due, each signed with its webhook's secret. A delivery that
// does not get a 2xx answer is tried again after WebhookBackoff, doubling
// each time, up to webhookAttempts attempts.
const (
	webhookAttempts = 6
	webhookBatch    = 20
	webhookTimeout  = 10 * time.Second
	// SignatureHeader carries "sha256=" and the hex HMAC-SHA256 of the
	// body under the webhook's secret.
	SignatureHeader = "X-Annotate-Signature"
)

// webhookSender runs the delivery loop until stopped.
type webhookSender struct {
	stop context.CancelFunc
	done chan struct{}
}

// startWebhooks starts the delivery loop when the configuration asks for
// one.
func (s *Server) startWebhooks() {
	if s.cfg.WebhookInterval <= 0 {
		return
	}
	ctx, stop := context.WithCancel(context.Background())
	s.hooks = &webhookSender{stop: stop, done: make(chan struct{})}
	client := &http.Client{Timeout: webhookTimeout, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	go func() {
		defer close(s.hooks.done)
		t := time.NewTicker(s.cfg.WebhookInterval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				s.deliverWebhooks(ctx, client)
			}
		}
	}()
}

// stopWebhooks ends the delivery loop and waits for it.
func (s *Server) stopWebhooks() {
	if s.hooks != nil {
		s.hooks.stop()
		<-s.hooks.done
	}
}

func (s *Server) deliverWebhooks(ctx context.Context, client *http.Client) {
	if _, err := s.store.QueueWebhookEvents(ctx); err != nil {
		if ctx.Err() == nil {
			s.log.Error("queue webhook events", "err", err)
		}
		return
	}
	due, err := s.store.DueWebhookDeliveries(ctx, webhookBatch)
	if err != nil {
		if ctx.Err() == nil {
			s.log.Error("webhook deliveries", "err", err)
		}
		return
	}
	for _, d := range due {
		status, err := postWebhook(ctx, client, d)
		if ctx.Err() != nil {
			return
		}
		retry := time.Duration(0)
		if err != nil && d.Attempts+1 < webhookAttempts {
			retry = s.cfg.WebhookBackoff << d.Attempts
		}
		if rerr := s.store.RecordWebhookAttempt(ctx, d.ID, status, err, retry); rerr != nil {
			s.log.Error("record webhook attempt", "delivery", d.ID, "err", rerr)
		}
	}
}

// Sign is the signature of a webhook body under secret, as sent in
// SignatureHeader.
func Sign(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// postWebhook sends one delivery and returns the receiver's status.
func postWebhook(ctx context.Context, client *http.Client, d tasks.WebhookDelivery) (int, error) {
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
		return 0, err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp.StatusCode, fmt.Errorf("the receiver answered %d", resp.StatusCode)
	}
	return resp.StatusCode, nil
}
