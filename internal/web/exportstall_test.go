package web_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"annotate/internal/authn"
	"annotate/internal/domain"
	"annotate/internal/web"
)

// stallFixture is a server over a project whose raw export (about 1.6
// MB) is far larger than what the connection between server and client
// holds in flight: the server's sockets send through small buffers and
// the clients' receive through small ones, so a client that does not read
// leaves the export blocked on a write.
type stallFixture struct {
	*workFixture
	srv  *httptest.Server
	s    *web.Server
	logs *watchedLog
	// cookie is the lead's session, token the lead's API token.
	cookie, token string
}

// stallExportPath is the export page's download of the large project.
const stallExportPath = "/p/bulk/export/download?what=raw&format=csv"

func newStallFixture(t *testing.T, cfg web.Config) *stallFixture {
	t.Helper()
	w := newWorkFixture(t)
	lea := must(w.store.UserByName(w.ctx, "lea"))(t)
	ann := must(w.store.UserByName(w.ctx, "ann"))(t)
	bob := must(w.store.UserByName(w.ctx, "bob"))(t)
	p := w.fixture.project("bulk", map[*domain.User]string{lea: domain.RoleLead, ann: domain.RoleAnnotator, bob: domain.RoleAnnotator})
	doc := domain.DocumentInput{ExternalID: "big", Kind: domain.KindProse, Sentences: []string{"The budget passed."}}
	sentence := strings.Repeat("The council met again and talked at length about the budget. ", 80) // 5 KB
	for i := range 16 {
		s := domain.SummaryInput{ExternalID: fmt.Sprintf("s%d", i), Model: "m"}
		for range 10 {
			s.Sentences = append(s.Sentences, domain.SentenceInput{Text: sentence})
		}
		doc.Summaries = append(doc.Summaries, s)
	}
	if _, err := w.store.Import(w.ctx, p.ID, []domain.DocumentInput{doc}); err != nil {
		t.Fatal(err)
	}
	sums := must(w.store.SummaryIDs(w.ctx, p.ID, nil))(t)
	if _, err := w.store.CreateRound(w.ctx, p.ID, domain.RoundSpec{Name: "r1", Kind: domain.RoundProduction, PerItem: 2,
		Annotators: []int64{ann.ID, bob.ID}, Summaries: sums}); err != nil {
		t.Fatal(err)
	}
	logs := newWatchedLog()
	cfg.Logger = slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	s, err := web.New(w.ctx, w.store, cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(s.Handler())
	srv.Listener = smallSendBuffers{srv.Listener}
	srv.Start()
	t.Cleanup(srv.Close)
	w.srv = srv // the fixture's browsers talk to this server
	b := w.browser()
	if p := b.login("lea", testPassword); p.status != http.StatusSeeOther {
		t.Fatalf("login: %d", p.status)
	}
	u, _ := url.Parse(srv.URL)
	var cookies []string
	for _, c := range b.client.Jar.Cookies(u) {
		cookies = append(cookies, c.Name+"="+c.Value)
	}
	return &stallFixture{workFixture: w, srv: srv, s: s, logs: logs, cookie: strings.Join(cookies, "; "),
		token: newToken(t, w.fixture, lea, authn.TokenSpec{})}
}

// smallSendBuffers gives every accepted connection a small send buffer.
type smallSendBuffers struct{ net.Listener }

func (l smallSendBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetWriteBuffer(4096)
	}
	return c, err
}

// download is a raw client of an export download that reads the answer's
// status and headers and then as much as it is told to.
type download struct {
	conn net.Conn
	br   *bufio.Reader
	res  *http.Response
}

// startDownload sends the GET of path, authenticated as the lead (by
// session, or by token for an API path), through a connection that
// receives through a small buffer, and reads nothing.
func (f *stallFixture) startDownload(t *testing.T, path string) *download {
	t.Helper()
	conn, err := net.Dial("tcp", f.srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	conn.(*net.TCPConn).SetReadBuffer(4096)
	auth := "Cookie: " + f.cookie
	if strings.HasPrefix(path, "/api/") {
		auth = "Authorization: Bearer " + f.token
	}
	if _, err := fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\n%s\r\n\r\n", path, f.srv.Listener.Addr(), auth); err != nil {
		t.Fatal(err)
	}
	return &download{conn: conn, br: bufio.NewReaderSize(conn, 4096)}
}

// answer reads the status line and headers (and, through the reader's
// buffer, a few KB of the body at most).
func (d *download) answer() error {
	res, err := http.ReadResponse(d.br, nil)
	d.res = res
	return err
}

// rest reads what is left until the server closes the connection; it
// returns the tail of what came and how reading ended. The deadline is
// the test's bound only.
func (d *download) rest() (string, error) {
	d.conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	var tail []byte
	buf := make([]byte, 32<<10)
	for {
		n, err := d.br.Read(buf)
		tail = append(tail, buf[:n]...)
		if len(tail) > 64 {
			tail = tail[len(tail)-64:]
		}
		if err != nil {
			return string(tail), err
		}
	}
}

// TestStalledExportDownloadsLeaveTheDatabaseToOthers: as many clients as
// the database has read connections ask for a large export and never
// read it. Only some of them stream (fewer than the read connections);
// the others are told to come back later, and meanwhile /healthz and a
// page answer at once instead of waiting for a connection that never
// frees up.
func TestStalledExportDownloadsLeaveTheDatabaseToOthers(t *testing.T) {
	f := newStallFixture(t, web.Config{ExportWriteTimeout: time.Hour})
	n := f.store.ReadConns()
	answered := make(chan *download, n)
	for range n {
		d := f.startDownload(t, stallExportPath)
		go func() {
			if d.answer() == nil {
				answered <- d
			}
		}()
	}
	// The bound of the test: a download that is never answered waits for
	// a read connection the others hold.
	bound, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	streaming, refused := 0, 0
wait:
	for range n {
		select {
		case d := <-answered:
			switch d.res.StatusCode {
			case http.StatusOK:
				streaming++
			case http.StatusServiceUnavailable:
				refused++
				if d.res.Header.Get("Retry-After") == "" {
					t.Error("a refused download has no Retry-After")
				}
			default:
				t.Errorf("download answered %d", d.res.StatusCode)
			}
		case <-bound.Done():
			t.Errorf("%d of %d downloads were never answered: the read connections are all held", n-streaming-refused, n)
			break wait
		}
	}
	if streaming == 0 || streaming >= n {
		t.Errorf("%d of %d downloads streaming, want at least one and fewer than the %d read connections", streaming, n, n)
	}
	for _, path := range []string{"/healthz", "/projects"} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, f.srv.URL+path, nil)
		req.Header.Set("Cookie", f.cookie)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Errorf("%s while %d downloads stall: %v", path, streaming, err)
			cancel()
			continue
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		cancel()
		if res.StatusCode != http.StatusOK {
			t.Errorf("%s while %d downloads stall: status %d, want 200", path, streaming, res.StatusCode)
		}
	}
}

// TestStalledExportDownloadIsCutOff: a client that stops reading an export
// (the page's or the API's) is cut off once a write has waited the export
// write timeout: the export ends, its read connection is given back, the
// log says the client stopped reading, and the client's transfer ends
// broken rather than complete.
func TestStalledExportDownloadIsCutOff(t *testing.T) {
	f := newStallFixture(t, web.Config{ExportWriteTimeout: 200 * time.Millisecond})
	for _, path := range []string{stallExportPath, "/api/v1/projects/bulk/labels?format=csv"} {
		t.Run(strings.SplitN(path, "?", 2)[0], func(t *testing.T) {
			f.logs.reset()
			d := f.startDownload(t, path)
			if err := d.answer(); err != nil || d.res.StatusCode != http.StatusOK {
				t.Fatalf("answer: %v %v", err, d.res)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			line, err := f.logs.await(ctx, func(l map[string]any) bool {
				return l["msg"] == "export download ended by client" || l["msg"] == "export failed part-way"
			})
			if err != nil {
				t.Fatalf("the stalled download was never cut off: %v", err)
			}
			if line["reason"] != "stopped reading" || line["level"] != "WARN" {
				t.Errorf("log line %v, want a warning that the client stopped reading", line)
			}
			// The export's second connection, when it had one, is given
			// back as its reading stops, a moment after the log line.
			waitFor(t, "the export's read connections to be given back", func() bool { return f.store.ReadConnsInUse() == 0 })
			tail, err := d.rest()
			if errors.Is(err, os.ErrDeadlineExceeded) {
				t.Fatal("the server kept the connection open")
			}
			if strings.HasSuffix(tail, "\r\n0\r\n\r\n") || strings.Contains(tail, "X-Export-Complete") {
				t.Errorf("the cut download ended like a complete one: %q", tail)
			}
		})
	}
}

// TestExportLeftByItsClientIsNotAnError: a client that closes its
// connection part-way through an export (the page's or the API's) is
// logged as ending the download, not as a server error, and the log
// holds neither its address nor its port.
func TestExportLeftByItsClientIsNotAnError(t *testing.T) {
	f := newStallFixture(t, web.Config{ExportWriteTimeout: time.Hour})
	for _, path := range []string{stallExportPath, "/api/v1/projects/bulk/labels?format=csv"} {
		t.Run(strings.SplitN(path, "?", 2)[0], func(t *testing.T) {
			f.logs.reset()
			d := f.startDownload(t, path)
			if err := d.answer(); err != nil || d.res.StatusCode != http.StatusOK {
				t.Fatalf("answer: %v %v", err, d.res)
			}
			client := d.conn.LocalAddr().(*net.TCPAddr)
			d.conn.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if _, err := f.logs.await(ctx, func(l map[string]any) bool {
				return l["msg"] == "export download ended by client" || l["msg"] == "export failed part-way" || l["msg"] == "api export failed part-way"
			}); err != nil {
				t.Fatalf("the export's end was never logged: %v", err)
			}
			all := f.logs.text()
			for _, l := range f.logs.lines() {
				if l["level"] == "ERROR" {
					t.Errorf("error logged for a client that left: %v", l)
				}
			}
			if strings.Contains(all, client.IP.String()) || strings.Contains(all, fmt.Sprintf(":%d", client.Port)) {
				t.Errorf("the log names the client's address %s:\n%s", client, all)
			}
		})
	}
}

// watchedLog is a JSON log destination that tells waiters about each
// line written.
type watchedLog struct {
	lockedBuffer
	wrote chan struct{}
}

func newWatchedLog() *watchedLog { return &watchedLog{wrote: make(chan struct{}, 1)} }

func (l *watchedLog) Write(p []byte) (int, error) {
	n, err := l.lockedBuffer.Write(p)
	select {
	case l.wrote <- struct{}{}:
	default:
	}
	return n, err
}

func (l *watchedLog) text() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (l *watchedLog) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.Reset()
}

// await waits for a line that match accepts and returns it.
func (l *watchedLog) await(ctx context.Context, match func(map[string]any) bool) (map[string]any, error) {
	for {
		for _, line := range l.lines() {
			if match(line) {
				return line, nil
			}
		}
		select {
		case <-l.wrote:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}
