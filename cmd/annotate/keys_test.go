package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"annotate/internal/authn"
	"annotate/internal/tasks"
)

func TestKeysRotate(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "k.db")
	s, err := tasks.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	u, err := s.CreateUser(ctx, "ana", "", "a long enough password", false)
	if err != nil {
		t.Fatal(err)
	}
	key1 := must(s.Secret(ctx, "csrf-key", 32))(t)
	now := time.Now()
	if _, err := authn.New(s).CreateSession(ctx, []byte("h"), authn.Session{UserID: u.ID, CSRF: "c", Data: "{}", CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	out, _, err := runCmd(t, "", nil, "keys", "--db", db, "rotate")
	if err != nil || !strings.Contains(out, "1 sessions ended") {
		t.Fatalf("keys rotate: %v\n%s", err, out)
	}
	s = must(tasks.Open(ctx, db))(t)
	defer s.Close()
	if ss := must(authn.New(s).UserSessions(ctx, u.ID))(t); len(ss) != 0 {
		t.Fatalf("%d sessions left", len(ss))
	}
	if key2 := must(s.Secret(ctx, "csrf-key", 32))(t); string(key2) == string(key1) {
		t.Fatal("key not rotated")
	}
}
