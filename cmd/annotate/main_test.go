package main

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"time"

	"github.com/PuerkitoBio/goquery"

	"annotate/internal/tasks"
)

// runCmd runs the program in-process and returns its output.
func runCmd(t *testing.T, stdin string, envs map[string]string, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), args, func(k string) string { return envs[k] }, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), err
}

func TestHelp(t *testing.T) {
	out, _, err := runCmd(t, "", nil, "help")
	if err != nil || !strings.Contains(out, "serve") || !strings.Contains(out, "import") {
		t.Fatalf("help: %v\n%s", err, out)
	}
	out, _, err = runCmd(t, "", nil, "import", "-h")
	if err != nil || !strings.Contains(out, "--project") && !strings.Contains(out, "-project") {
		t.Fatalf("import -h: %v\n%s", err, out)
	}
	if _, _, err := runCmd(t, "", nil, "frobnicate"); err == nil {
		t.Fatal("unknown command accepted")
	}
}

// TestMigrationNoticeOnStandardError: a command that opens a database an
// older build made says on standard error that it brings it up to date,
// once, and its own output stays as it is.
func TestMigrationNoticeOnStandardError(t *testing.T) {
	ddl, err := os.ReadFile("../../internal/tasks/schema_v1.sql")
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "old.db")
	raw, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{string(ddl), `PRAGMA user_version = 1`} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()
	out, errs, err := runCmd(t, "", nil, "user", "list", "--db", db)
	want := fmt.Sprintf("bringing %s from schema 1 to %d", db, tasks.CurrentSchemaVersion())
	if err != nil || !strings.Contains(errs, want) || strings.Contains(out, "schema") {
		t.Fatalf("user list on a version 1 database: %v\nstdout:\n%s\nstderr:\n%s", err, out, errs)
	}
	if _, errs, err = runCmd(t, "", nil, "user", "list", "--db", db); err != nil || strings.Contains(errs, "schema") {
		t.Fatalf("second user list: %v\n%s", err, errs)
	}
}

func TestDemoIsIdempotent(t *testing.T) {
	db := filepath.Join(t.TempDir(), "x.db")
	out1, _, err := runCmd(t, "", nil, "demo", "--db", db)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`lead\s+\(lead\)\s+password: \S{16}`).MatchString(out1) {
		t.Fatalf("first run printed no lead password:\n%s", out1)
	}
	out2, _, err := runCmd(t, "", map[string]string{"ANNOTATE_DB": db}, "demo")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out2, "password:") || strings.Contains(out2, "documents,") {
		t.Fatalf("second run created something again:\n%s", out2)
	}
	projects, _, err := runCmd(t, "", nil, "user", "list", "--db", db)
	if err != nil || strings.Count(projects, "\n") != 6 { // header + 5 accounts
		t.Fatalf("user list after two demo runs: %v\n%s", err, projects)
	}
}

func TestUserCommands(t *testing.T) {
	db := filepath.Join(t.TempDir(), "u.db")
	if _, _, err := runCmd(t, "a long enough password\n", nil, "user", "add", "maria", "--admin", "--db", db); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCmd(t, "short\n", nil, "user", "add", "bob", "--db", db); err == nil {
		t.Fatal("short password accepted")
	}
	if _, _, err := runCmd(t, "", nil, "user", "add", "carl", "--db", db); err == nil {
		t.Fatal("empty stdin accepted as a password")
	}
	if _, _, err := runCmd(t, "another long password\n", nil, "user", "set-password", "maria", "--db", db); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCmd(t, "", nil, "user", "disable", "ghost", "--db", db); err == nil || !strings.Contains(err.Error(), "ghost") {
		t.Fatalf("disable ghost: %v", err)
	}
	out, _, _ := runCmd(t, "", nil, "user", "list", "--db", db)
	if !strings.Contains(out, "maria") || !strings.Contains(out, "true") {
		t.Fatalf("list:\n%s", out)
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestServeDemo boots the real program on a loopback port, as the README's
// first command does, and logs in as the demo lead.
func TestServeDemo(t *testing.T) {
	db := filepath.Join(t.TempDir(), "serve.db")
	ctx, cancel := context.WithCancel(context.Background())
	var out syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--demo", "--db", db, "--addr", "127.0.0.1:0"}, func(string) string { return "" }, strings.NewReader(""), &out, io.Discard)
	}()
	addrRe := regexp.MustCompile(`^annotate: serving .* on (http://127\.0\.0\.1:\d+) \(open it in a browser`)
	var base string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := addrRe.FindStringSubmatch(out.String()); m != nil {
			base = m[1]
			break
		}
	}
	if base == "" {
		cancel()
		t.Fatalf("server did not start:\n%s", out.String())
	}
	pw := regexp.MustCompile(`lead\s+\(lead\)\s+password: (\S+)`).FindStringSubmatch(out.String())
	if pw == nil {
		cancel()
		t.Fatalf("no demo password printed:\n%s", out.String())
	}
	// The address and the logins are the first lines a newcomer reads.
	lines := strings.Split(out.String(), "\n")
	if len(lines) < 7 || !strings.HasPrefix(lines[1], "demo logins") || !strings.Contains(lines[2], "admin") || !strings.Contains(lines[3], "lead") || !strings.Contains(lines[6], "ann3") {
		t.Errorf("serve --demo does not start with the address and the logins:\n%s", out.String())
	}

	// The demo's administrator reaches the users page.
	apw := regexp.MustCompile(`admin\s+\(admin\)\s+password: (\S+)`).FindStringSubmatch(out.String())
	if apw == nil {
		t.Fatalf("no demo administrator printed:\n%s", out.String())
	}
	admin := newClient(t, base)
	admin.login("admin", apw[1])
	if body := admin.get("/admin/users"); !hasNode(t, body, `#main [data-testid="user-ann1"]`) {
		t.Errorf("the demo administrator does not see the users page:\n%.500s", body)
	}

	c := newClient(t, base)
	c.login("lead", pw[1])
	body := c.get("/p/demo")
	if !hasNode(t, body, `#main [data-testid="count-summaries"]`) {
		t.Fatalf("demo project page lacks counts:\n%.500s", body)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve returned %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop after cancel")
	}
	if !strings.Contains(out.String(), "stopped") {
		t.Fatalf("no clean stop:\n%s", out.String())
	}
}

// client is a tiny cookie-keeping HTTP client for the serve test.
type client struct {
	t    *testing.T
	base string
	hc   *http.Client
}

func newClient(t *testing.T, base string) *client {
	jar := newJar()
	return &client{t: t, base: base, hc: &http.Client{Jar: jar, Timeout: 10 * time.Second}}
}

func (c *client) get(path string) string {
	c.t.Helper()
	resp, err := c.hc.Get(c.base + path)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		c.t.Fatalf("GET %s: %d", path, resp.StatusCode)
	}
	return string(b)
}

func (c *client) login(user, pw string) {
	c.t.Helper()
	tok := regexp.MustCompile(`name="_csrf" value="([^"]+)"`).FindStringSubmatch(c.get("/login"))
	if tok == nil {
		c.t.Fatal("no csrf token on login page")
	}
	resp, err := c.hc.PostForm(c.base+"/login", map[string][]string{"_csrf": {tok[1]}, "username": {user}, "password": {pw}})
	if err != nil {
		c.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.Request.URL.Path != "/projects" {
		c.t.Fatalf("login ended at %s (status %d)", resp.Request.URL.Path, resp.StatusCode)
	}
}

// hasNode reports whether the HTML page has a node matched by the CSS
// selector.
func hasNode(t *testing.T, page, sel string) bool {
	t.Helper()
	d, err := goquery.NewDocumentFromReader(strings.NewReader(page))
	if err != nil {
		t.Fatalf("parse page: %v", err)
	}
	return d.Find(sel).Length() > 0
}

// TestServeTimeoutFlags: serve refuses a header timeout outside 1 s to
// 5 min and a busy timeout outside 100 ms to 5 min before it opens
// anything, and its help gives both defaults (10 s).
func TestServeTimeoutFlags(t *testing.T) {
	for _, c := range []struct {
		flag, between string
		bad           []string
	}{
		{"--header-timeout", "not between 1s and 5m", []string{"100ms", "6m", "0s"}},
		{"--busy-timeout", "not between 100ms and 5m", []string{"50ms", "6m", "0s"}},
	} {
		db := filepath.Join(t.TempDir(), "t.db")
		for _, v := range c.bad {
			_, errOut, err := runCmd(t, "", nil, "serve", "--db", db, "--addr", "127.0.0.1:0", c.flag, v)
			if err == nil || !strings.Contains(errOut, c.flag+": ") || !strings.Contains(errOut, c.between) {
				t.Fatalf("%s %s: %v\n%s", c.flag, v, err, errOut)
			}
		}
		if _, err := os.Stat(db); !os.IsNotExist(err) {
			t.Fatalf("a refused %s made the database (%v)", c.flag, err)
		}
	}
	out, _, err := runCmd(t, "", nil, "serve", "-h")
	for _, want := range []string{"-header-timeout duration", "-busy-timeout duration", "busy, retry"} {
		if err != nil || !strings.Contains(out, want) {
			t.Fatalf("serve -h lacks %q: %v\n%s", want, err, out)
		}
	}
	if n := strings.Count(out, "(default 10s)"); n < 2 {
		t.Fatalf("serve -h gives the 10 s default %d times, want both timeouts:\n%s", n, out)
	}
}
