package loadgen_test

import (
	"bufio"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"annotate/internal/loadgen"
	"annotate/internal/tasks"
)

// server is the annotate binary serving a database on a loopback port.
type server struct {
	cmd  *exec.Cmd
	base string
	// stopping is closed when the server prints that it has begun to
	// stop (after SIGTERM), so a test can wait for that event.
	stopping chan struct{}
}

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
	buildDir  string
)

// buildAnnotate builds the annotate binary once for all the tests of the
// package (TestMain removes it).
func buildAnnotate(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		if buildDir, buildErr = os.MkdirTemp("", "loadgen-test-"); buildErr != nil {
			return
		}
		builtBin = filepath.Join(buildDir, "annotate")
		out, err := exec.Command("go", "build", "-o", builtBin, "annotate/cmd/annotate").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtBin
}

func startServer(t *testing.T, bin, db string, flags ...string) *server {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--db", db, "--addr", "127.0.0.1:0"}, flags...)...)
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr := make(chan string, 1)
	stopping := make(chan struct{})
	go func() {
		re := regexp.MustCompile(`on (http://127\.0\.0\.1:\d+)`)
		sc := bufio.NewScanner(stdout)
		closed := false
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
			if !closed && strings.HasPrefix(sc.Text(), "annotate: stopping") {
				close(stopping)
				closed = true
			}
		}
	}()
	select {
	case base := <-addr:
		return &server{cmd: cmd, base: base, stopping: stopping}
	case <-time.After(30 * time.Second):
		t.Fatal("server did not start")
	}
	return nil
}

// killAfter is how many acknowledged saves the crash test waits for
// before it kills the server: enough that the kill lands among many
// committed transactions and in the middle of others.
const killAfter = 300

// TestKillDuringLoad kills the server with SIGKILL in the middle of a load
// run, once it has acknowledged killAfter saves, restarts it on the same
// database, and checks that every save it acknowledged before dying is
// there and the database is sound.
func TestKillDuringLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	t.Parallel() // beside TestSlowClientIsCut, which mostly waits
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "crash.db")
	store, err := tasks.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	const annotators = 8
	if err := loadgen.Seed(ctx, store, loadgen.SeedOptions{Documents: 20, MinWords: 100, MaxWords: 300, Annotators: annotators, Password: "crash-test-password"}); err != nil {
		t.Fatal(err)
	}
	store.Close()

	bin := buildAnnotate(t)
	srv := startServer(t, bin, db)
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan *loadgen.Result, 1)
	enough := make(chan struct{})
	var once sync.Once
	go func() {
		res, err := loadgen.Run(runCtx, loadgen.Options{BaseURL: srv.base, Annotators: annotators, Password: "crash-test-password",
			Duration: 2 * time.Minute, MaxRequests: 20000, Think: time.Millisecond,
			OnAck: func(n int) {
				if n >= killAfter {
					once.Do(func() { close(enough) })
				}
			}})
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	select {
	case <-enough:
	case res := <-done:
		t.Fatalf("the run ended after %d acknowledged saves, before the %d the test kills after", len(res.Acks), killAfter)
	}
	if err := srv.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	srv.cmd.Wait()
	// The annotators' requests now fail; stop them and take what was
	// acknowledged.
	cancel()
	res := <-done
	if len(res.Acks) < killAfter {
		t.Fatalf("%d saves acknowledged, want at least %d", len(res.Acks), killAfter)
	}
	checkTimeline(t, res)

	// The restarted server opens the database (recovering the WAL) and
	// serves; then the database is checked against what was acknowledged.
	again := startServer(t, bin, db)
	if again.base == "" {
		t.Fatal("no restart")
	}
	v, err := loadgen.Verify(ctx, db, res.Acks, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d saves acknowledged before SIGKILL on %d sentences; integrity_check %s", v.Acks, v.Pairs, v.Integrity)
	if !v.OK() {
		t.Fatalf("after the kill: integrity %q, problems: %v", v.Integrity, v.Problems)
	}
}

// checkTimeline checks a run's timeline against its per-route figures:
// one event per request, in the order they ended, none starting before
// the run, and its CSV one row per event.
func checkTimeline(t *testing.T, res *loadgen.Result) {
	t.Helper()
	n := 0
	for _, st := range res.Routes {
		n += len(st.Latencies)
	}
	if len(res.Timeline) != n || n == 0 {
		t.Fatalf("timeline of %d events for %d requests", len(res.Timeline), n)
	}
	var end time.Duration
	for i, e := range res.Timeline {
		if e.Start < 0 || e.Latency < 0 || e.Route == "" || e.Start+e.Latency < end {
			t.Fatalf("event %d %+v: ends before the event before it (%v) or has no route", i, e, end)
		}
		end = e.Start + e.Latency
	}
	var b strings.Builder
	if err := res.WriteTimeline(&b); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != n+1 || strings.Join(rows[0], ",") != "start_ms,latency_ms,route,failed" || rows[1][2] != res.Timeline[0].Route {
		t.Fatalf("timeline CSV: %d rows for %d events, header %v", len(rows), n, rows[0])
	}
}
