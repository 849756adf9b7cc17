package loadgen_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"annotate/internal/tasks"
)

// emptyDatabase creates a database with the schema and nothing else.
func emptyDatabase(t *testing.T) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "serve.db")
	store, err := tasks.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	store.Close()
	return db
}

// loginForm fetches the login page and returns its CSRF token and the
// Cookie header that goes with it (the session token).
func loginForm(t *testing.T, base string) (token, cookie string) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	resp, err := c.Get(base + "/login")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := regexp.MustCompile(`name="_csrf" value="([^"]+)"`).FindSubmatch(body)
	if m == nil {
		t.Fatal("no CSRF token on the login page")
	}
	u, _ := url.Parse(base)
	var parts []string
	for _, ck := range jar.Cookies(u) {
		parts = append(parts, ck.Name+"="+ck.Value)
	}
	cookie = strings.Join(parts, "; ")
	return string(m[1]), cookie
}

// TestSIGTERMFinishesInFlightRequests starts a login whose body is still
// arriving, sends the server SIGTERM, then sends the rest of the body: the
// request must still get its answer, and the server must then exit cleanly.
// The request asks for "100 Continue", which the server sends only once its
// handler reads the body, so the test knows the request is in flight before
// it signals, and it waits for the server's "stopping" line before it sends
// the rest.
func TestSIGTERMFinishesInFlightRequests(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	t.Parallel()
	srv := startServer(t, buildAnnotate(t), emptyDatabase(t))
	token, cookie := loginForm(t, srv.base)
	body := url.Values{"_csrf": {token}, "username": {"nobody"}, "password": {"not the password"}}.Encode()

	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	head := "POST /login HTTP/1.1\r\nHost: annotate\r\nCookie: " + cookie +
		"\r\nContent-Type: application/x-www-form-urlencoded\r\nExpect: 100-continue\r\nContent-Length: " +
		strconv.Itoa(len(body)) + "\r\n\r\n"
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	cont, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("waiting for 100 Continue: %v", err)
	}
	if cont.StatusCode != http.StatusContinue {
		t.Fatalf("the server answered %d before reading the body, want 100", cont.StatusCode)
	}
	if _, err := io.WriteString(conn, body[:len(body)/2]); err != nil {
		t.Fatal(err)
	}

	exited := make(chan error, 1)
	go func() { exited <- srv.cmd.Wait() }()
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-srv.stopping:
	case err := <-exited:
		t.Fatalf("the server exited with a request in flight: %v", err)
	case <-time.After(25 * time.Second):
		t.Fatal("the server did not begin to stop after SIGTERM")
	}
	if _, err := io.WriteString(conn, body[len(body)/2:]); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("the in-flight request got no answer: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("in-flight login with a wrong password: status %d, want 401", resp.StatusCode)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("server exit after SIGTERM: %v", err)
		}
	case <-time.After(25 * time.Second):
		t.Fatal("the server did not stop after SIGTERM")
	}
}

// TestSlowClientIsCut opens a connection that sends half a request header
// and then nothing: the server must close it rather than hold it forever.
// The server is given a header timeout of 1 s (--header-timeout; 10 s by
// default), and the connection must close before the default would close
// it.
func TestSlowClientIsCut(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	t.Parallel()
	srv := startServer(t, buildAnnotate(t), emptyDatabase(t), "--header-timeout", "1s")
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "GET /login HTTP/1.1\r\nHost: annotate\r\n"); err != nil {
		t.Fatal(err)
	}
	conn.SetReadDeadline(time.Now().Add(8 * time.Second))
	_, err = io.ReadAll(conn)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatal("the server kept a connection with an unfinished header open for 8 s, with a header timeout of 1 s")
	}
	// The server is still serving others.
	resp, err := http.Get(srv.base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("healthz after a slow client: %d", resp.StatusCode)
	}
}
