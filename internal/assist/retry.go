package assist

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// send posts body until it gets a completion, retrying transient failures
// (429, 5xx, 408, timeouts, broken connections, garbled bodies) up to
// MaxAttempts with exponential backoff and jitter, or with the wait the
// server asked for in Retry-After. Cancelling ctx stops it at once.
func (c *Client) send(ctx context.Context, m *meter, body []byte) (completion, error) {
	var last error
	for attempt := 1; ; attempt++ {
		out, err := c.attempt(ctx, m, body)
		if err == nil {
			return out, nil
		}
		if ctx.Err() != nil {
			return completion{}, ctx.Err()
		}
		if !retryable(err) {
			return completion{}, err
		}
		last = err
		if attempt >= c.cfg.MaxAttempts {
			break
		}
		wait := c.backoff(attempt)
		var he *HTTPError
		if errors.As(err, &he) && he.hasRetryAfter {
			wait = min(he.RetryAfter, c.cfg.MaxRetryAfter)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return completion{}, ctx.Err()
		case <-t.C:
		}
		m.retry()
	}
	return completion{}, fmt.Errorf("gave up after %d attempts: %w", c.cfg.MaxAttempts, last)
}

// retryable reports whether a failed attempt may succeed if repeated. Any
// error that is not an HTTP status (refused or reset connections, timeouts,
// truncated or garbled bodies) counts as transient.
func retryable(err error) bool {
	var he *HTTPError
	if errors.As(err, &he) {
		switch {
		case he.StatusCode == http.StatusTooManyRequests,
			he.StatusCode == http.StatusRequestTimeout,
			he.StatusCode >= 500:
			return true
		}
		return false
	}
	return true
}

// backoff returns the wait before retry number n (1-based): BackoffBase
// doubled n-1 times, capped at BackoffMax, of which the upper half is
// random so that clients that failed together do not retry together.
func (c *Client) backoff(n int) time.Duration {
	d := c.cfg.BackoffBase
	for i := 1; i < n && d < c.cfg.BackoffMax; i++ {
		d *= 2
	}
	d = min(d, c.cfg.BackoffMax)
	half := d / 2
	return half + rand.N(d-half+1)
}

// parseRetryAfter reads a Retry-After header in either of its forms,
// delay-seconds or an HTTP date, relative to now.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		return time.Duration(min(secs, 24*3600)) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}
