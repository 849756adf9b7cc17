package authn_test

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"

	"annotate/internal/authn"
	"annotate/internal/domain"
	"annotate/internal/tasks"
	"annotate/internal/testkit"
)

func TestTokens(t *testing.T) {
	s := testkit.OpenStore(t)
	ctx := context.Background()
	ana, _ := s.CreateUser(ctx, "ana", "", "a long enough password", false)
	bo, _ := s.CreateUser(ctx, "bo", "", "a long enough password", false)
	root, _ := s.CreateUser(ctx, "root", "", "a long enough password", true)

	tok, secret, err := authn.New(s).CreateToken(ctx, ana.ID, authn.TokenSpec{Name: " notebook ", TTL: time.Hour, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if tok.Name != "notebook" || !tok.ReadOnly || len(secret) < 40 || secret[:4] != authn.TokenPrefix || tok.Hint != secret[:8] {
		t.Fatalf("token %+v, secret %q", tok, secret)
	}
	outer := t
	t.Run("only the hash is stored", func(t *testing.T) {
		s.Close()
		for _, f := range []string{s.Path(), s.Path() + "-wal"} {
			data, err := os.ReadFile(f)
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			if bytes.Contains(data, []byte(secret[8:])) {
				t.Fatalf("%s holds the token", f)
			}
		}
		var err error
		if s, err = tasks.Open(ctx, s.Path()); err != nil {
			t.Fatal(err)
		}
		outer.Cleanup(func() { s.Close() })
	})
	t.Run("authenticates its account", func(t *testing.T) {
		got, u, err := authn.New(s).AuthenticateToken(ctx, secret)
		if err != nil || u.ID != ana.ID || got.ID != tok.ID || got.LastUsedAt == "" {
			t.Fatalf("AuthenticateToken = %+v, %+v, %v", got, u, err)
		}
	})
	t.Run("unknown and malformed tokens are refused", func(t *testing.T) {
		for _, bad := range []string{"", "ann_", secret + "x", secret[4:], "Bearer " + secret} {
			if _, _, err := authn.New(s).AuthenticateToken(ctx, bad); err != authn.ErrBadToken {
				t.Errorf("%q: err = %v, want ErrBadToken", bad, err)
			}
		}
	})
	t.Run("invalid specs", func(t *testing.T) {
		for _, spec := range []authn.TokenSpec{{Name: "", TTL: time.Hour}, {Name: "x", TTL: 0}, {Name: "x", TTL: 400 * 24 * time.Hour}, {Name: "x", TTL: time.Hour, Projects: []int64{999}}} {
			if _, _, err := authn.New(s).CreateToken(ctx, ana.ID, spec); domain.ErrorCode(err) != domain.EInvalid {
				t.Errorf("%+v: err = %v, want invalid", spec, err)
			}
		}
	})
	t.Run("another account cannot revoke it; an administrator can", func(t *testing.T) {
		if err := authn.New(s).RevokeToken(ctx, tok.ID, bo); domain.ErrorCode(err) != domain.ENotFound {
			t.Fatalf("revoke by bo: %v, want not found", err)
		}
		if _, _, err := authn.New(s).AuthenticateToken(ctx, secret); err != nil {
			t.Fatalf("after bo's attempt: %v", err)
		}
		if err := authn.New(s).RevokeToken(ctx, tok.ID, root); err != nil {
			t.Fatal(err)
		}
		if _, _, err := authn.New(s).AuthenticateToken(ctx, secret); err != authn.ErrBadToken {
			t.Fatalf("revoked token: err = %v", err)
		}
		all, _ := authn.New(s).Tokens(ctx, 0)
		if len(all) != 1 || all[0].RevokedAt == "" || all[0].Username != "ana" {
			t.Fatalf("Tokens = %+v", all)
		}
	})
	t.Run("a disabled account's tokens stop", func(t *testing.T) {
		_, sec, err := authn.New(s).CreateToken(ctx, bo.ID, authn.TokenSpec{Name: "x", TTL: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		s.SetDisabled(ctx, "bo", true)
		if _, _, err := authn.New(s).AuthenticateToken(ctx, sec); err != authn.ErrBadToken {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestParseTokenTTL(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{{"", authn.DefaultTokenTTL, true}, {"30d", 30 * 24 * time.Hour, true}, {"12h", 12 * time.Hour, true}, {"d", 0, false}, {"-3d", 0, false}, {"soon", 0, false}} {
		got, err := authn.ParseTokenTTL(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseTokenTTL(%q) = %v, %v", tc.in, got, err)
		}
	}
}
