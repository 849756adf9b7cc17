package assiststore_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"annotate/internal/assiststore"
	"annotate/internal/domain"
	"annotate/internal/tasks"
)

// TestRunLeases: a run started by one process (here, one store) holds a
// lease; a server starting on the same database meanwhile leaves it
// running and cannot start it too. Once the lease runs out, the server
// marks the run failed, and the first process can no longer renew it.
func TestRunLeases(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lease.db")
	cli, err := tasks.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	p, err := cli.CreateProject(ctx, domain.Project{Slug: "p", Settings: domain.DefaultSettings()})
	if err != nil {
		t.Fatal(err)
	}
	run, err := assiststore.New(cli).CreateAssistRun(ctx, assiststore.AssistRun{ProjectID: p.ID, Protocol: "single", Model: "m", Total: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := assiststore.New(cli).StartAssistRun(ctx, run.ID); err != nil {
		t.Fatal(err)
	}
	server, err := tasks.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	if n, err := assiststore.New(server).InterruptAssistRuns(ctx); err != nil || n != 0 {
		t.Fatalf("a starting server marked %d runs (%v); the leased run must stay", n, err)
	}
	if got, _ := assiststore.New(server).AssistRunByID(ctx, run.ID); got.Status != assiststore.RunRunning {
		t.Fatalf("the leased run is %s", got.Status)
	}
	if err := assiststore.New(server).StartAssistRun(ctx, run.ID); domain.ErrorCode(err) != domain.EConflict {
		t.Fatalf("a second process started a leased run: %v", err)
	}
	if err := assiststore.New(cli).RenewAssistRunLease(ctx, run.ID); err != nil {
		t.Fatalf("renewing one's own lease: %v", err)
	}

	later := time.Now().Add(2 * assiststore.RunLease)
	server.SetClock(func() time.Time { return later })
	if n, err := assiststore.New(server).InterruptAssistRuns(ctx); err != nil || n != 1 {
		t.Fatalf("after the lease ran out the server marked %d runs (%v), want 1", n, err)
	}
	if got, _ := assiststore.New(server).AssistRunByID(ctx, run.ID); got.Status != assiststore.RunFailed {
		t.Fatalf("the abandoned run is %s", got.Status)
	}
	if err := assiststore.New(cli).RenewAssistRunLease(ctx, run.ID); domain.ErrorCode(err) != domain.EConflict {
		t.Fatalf("renewing a lost lease: %v", err)
	}
}

// TestInterruptNothingBesideAnotherProcessWrite: a server starting while
// another process holds the write lock for longer than the busy timeout
// (a long import) finds no run in flight without waiting for it.
func TestInterruptNothingBesideAnotherProcessWrite(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "held.db")
	s, err := tasks.Open(ctx, path, tasks.WithBusyTimeout(50*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	other, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, q := range []string{`BEGIN IMMEDIATE`, `INSERT INTO projects (slug, name, settings) VALUES ('q', 'Q', '{}')`} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if n, err := assiststore.New(s).InterruptAssistRuns(ctx); err != nil || n != 0 {
		t.Fatalf("no run in flight, beside another process's write: %d, %v", n, err)
	}
}
