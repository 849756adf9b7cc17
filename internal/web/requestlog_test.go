package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"annotate/internal/tasks"
	"annotate/internal/web"
)

// lockedBuffer is a log destination safe for the server's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) lines() []map[string]any {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(l.b.String()), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

// TestRequestsAreLoggedWithTheirID: each request is logged once it ends
// with its id (also sent as X-Request-Id), route, status, latency and the
// account's id, never a password or a username.
func TestRequestsAreLoggedWithTheirID(t *testing.T) {
	ctx := context.Background()
	store, err := tasks.Open(ctx, filepath.Join(t.TempDir(), "log.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	var logs lockedBuffer
	s, err := web.New(ctx, store, web.Config{Logger: slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	f := &fixture{t: t, store: store, srv: srv, ctx: ctx}
	u := f.user("ana", false)
	b := f.browser()
	b.login("ana", testPassword)
	res, err := b.client.Get(srv.URL + "/p/nowhere")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	id := res.Header.Get("X-Request-Id")
	if res.StatusCode != http.StatusNotFound || len(id) != 16 {
		t.Fatalf("status %d, request id %q", res.StatusCode, id)
	}
	var found map[string]any
	for _, l := range logs.lines() {
		if l["request_id"] == id {
			found = l
		}
	}
	if found == nil || found["msg"] != "request" || found["route"] != "/p/:slug" || found["status"] != float64(404) ||
		found["user_id"] != float64(u.ID) || found["level"] != "INFO" || found["latency_ms"] == nil {
		t.Fatalf("log line of the request: %v", found)
	}
	logs.mu.Lock()
	all := logs.b.String()
	logs.mu.Unlock()
	if strings.Contains(all, testPassword) || strings.Contains(all, `"ana"`) {
		t.Error("the log holds a password or a username")
	}
}
