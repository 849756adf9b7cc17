package assiststore

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"time"

	"annotate/internal/domain"
	"annotate/internal/redact"

	"annotate/internal/tasks"
)

// Statuses of an assistant run.
const (
	RunQueued    = "queued"
	RunRunning   = "running"
	RunDone      = "done"
	RunFailed    = "failed"
	RunCancelled = "cancelled"
	// RunImported marks a run read from a file rather than computed here.
	RunImported = "imported"
)

// AssistRun is one run of the assistant over a project's summary sentences:
// its configuration, its state and what it cost. Model must only reach
// leads' pages.
type AssistRun struct {
	ID        int64
	ProjectID int64
	// Name is a label for people; runs made here have none, imported runs
	// carry the name given in the file.
	Name     string
	Protocol string
	Model    string
	// Settings is the engine's settings as JSON; this package keeps it
	// opaque.
	Settings      string
	PromptVersion string
	Status        string
	// Sample marks shipped demonstration output that no model produced.
	Sample bool
	// Total is the number of sentences the run covers.
	Total      int
	Usage      AssistUsage
	Error      string
	CreatedAt  string
	FinishedAt string
	// Outputs and Failed count the sentence results saved so far, and of
	// them those that failed.
	Outputs int
	Failed  int
}

// Title names the run for people: its name, or "run N".
func (r *AssistRun) Title() string {
	if r.Name != "" {
		return r.Name
	}
	return "run " + strconv.FormatInt(r.ID, 10)
}

// Active reports whether the run is queued or running.
func (r *AssistRun) Active() bool { return r.Status == RunQueued || r.Status == RunRunning }

// Resumable reports whether the run can be continued: it was computed here
// and stopped before the end.
func (r *AssistRun) Resumable() bool { return r.Status == RunFailed || r.Status == RunCancelled }

// AssistUsage counts what a run spent at the model endpoint.
type AssistUsage struct {
	Calls            int64
	CacheHits        int64
	PromptTokens     int64
	CompletionTokens int64
	// Failures counts questions that got no usable answer.
	Failures int64
}

// Add sums two counts.
func (u *AssistUsage) Add(b AssistUsage) {
	u.Calls += b.Calls
	u.CacheHits += b.CacheHits
	u.PromptTokens += b.PromptTokens
	u.CompletionTokens += b.CompletionTokens
	u.Failures += b.Failures
}

func validRunStatus(s string) bool {
	switch s {
	case RunQueued, RunRunning, RunDone, RunFailed, RunCancelled, RunImported:
		return true
	}
	return false
}

// CreateAssistRun records a new run; an empty status means queued.
func (s *Store) CreateAssistRun(ctx context.Context, r AssistRun) (*AssistRun, error) {
	var id int64
	for _, f := range []struct{ name, v string }{{"run name", r.Name}, {"model", r.Model}, {"prompt version", r.PromptVersion}} {
		if err := domain.CheckText(f.name, f.v, domain.MaxNameLen*2, false); err != nil {
			return nil, domain.Op("Store.CreateAssistRun", err)
		}
	}
	err := s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		var err error
		id, err = insertAssistRun(ctx, tx, &r, s.tasks.Now())
		return err
	})
	if err != nil {
		return nil, domain.Op("Store.CreateAssistRun", err)
	}
	val, err := s.AssistRunByID(ctx, id)
	return val, domain.Op("Store.CreateAssistRun", err)
}

func insertAssistRun(ctx context.Context, tx *sql.Tx, r *AssistRun, now time.Time) (int64, error) {
	if r.Status == "" {
		r.Status = RunQueued
	}
	if !validRunStatus(r.Status) {
		return 0, domain.Errorf(domain.EInvalid, "unknown run status %q", r.Status)
	}
	if strings.TrimSpace(r.Protocol) == "" {
		return 0, domain.Errorf(domain.EInvalid, "a run needs a protocol")
	}
	if r.Settings == "" {
		r.Settings = "{}"
	}
	var finished any
	if r.Status == RunImported {
		finished = tasks.Stamp(now)
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO assist_runs (project_id, name, protocol, model, settings, prompt_version, status, sample, total,
			calls, cache_hits, prompt_tokens, completion_tokens, failures, error, finished_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.ProjectID, r.Name, r.Protocol, r.Model, r.Settings, r.PromptVersion, r.Status, r.Sample, r.Total,
		r.Usage.Calls, r.Usage.CacheHits, r.Usage.PromptTokens, r.Usage.CompletionTokens, r.Usage.Failures, r.Error, finished)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

// assistRunColumns are an assist_runs row r with its output counts: all
// of them as assist_run_counts keeps them (schema 38), and the failed
// ones counted from the index of failed outputs (schema 35), not by
// reading every output of the run (1.15 s for a run of 1.65M outputs).
const assistRunColumns = `r.id, r.project_id, r.name, r.protocol, r.model, r.settings, r.prompt_version, r.status, r.sample, r.total,
	r.calls, r.cache_hits, r.prompt_tokens, r.completion_tokens, r.failures, r.error, r.created_at, coalesce(r.finished_at, ''),
	coalesce((SELECT c.outputs FROM assist_run_counts c WHERE c.run_id = r.id), 0),
	(SELECT count(*) FROM assist_outputs o INDEXED BY assist_outputs_failed WHERE o.run_id = r.id AND o.status <> 'ok')`

func scanAssistRun(row interface{ Scan(...any) error }) (*AssistRun, error) {
	var r AssistRun
	err := row.Scan(&r.ID, &r.ProjectID, &r.Name, &r.Protocol, &r.Model, &r.Settings, &r.PromptVersion, &r.Status, &r.Sample, &r.Total,
		&r.Usage.Calls, &r.Usage.CacheHits, &r.Usage.PromptTokens, &r.Usage.CompletionTokens, &r.Usage.Failures, &r.Error,
		&r.CreatedAt, &r.FinishedAt, &r.Outputs, &r.Failed)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, domain.Errorf(domain.ENotFound, "assistant run not found")
	}
	return &r, err
}

// AssistRunByID returns a run with its output counts.
func (s *Store) AssistRunByID(ctx context.Context, id int64) (*AssistRun, error) {
	val, err := scanAssistRun(s.tasks.Reader(ctx).QueryRowContext(ctx, `SELECT `+assistRunColumns+` FROM assist_runs r WHERE r.id = ?`, id))
	return val, domain.Op("Store.AssistRunByID", err)
}

// AssistRuns lists a project's runs, newest first.
func (s *Store) AssistRuns(ctx context.Context, projectID int64) ([]AssistRun, error) {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, `SELECT `+assistRunColumns+` FROM assist_runs r WHERE r.project_id = ? ORDER BY r.id DESC`, projectID)
	if err != nil {
		return nil, domain.Op("Store.AssistRuns", err)
	}
	defer rows.Close()
	var out []AssistRun
	for rows.Next() {
		r, err := scanAssistRun(rows)
		if err != nil {
			return nil, domain.Op("Store.AssistRuns", err)
		}
		out = append(out, *r)
	}
	return out, domain.Op("Store.AssistRuns", rows.Err())
}

// HasSampleAssistRun reports whether a project already holds a sample run.
func (s *Store) HasSampleAssistRun(ctx context.Context, projectID int64) (bool, error) {
	var n int
	err := s.tasks.Reader(ctx).QueryRowContext(ctx, `SELECT count(*) FROM assist_runs WHERE project_id = ? AND sample`, projectID).Scan(&n)
	return n > 0, domain.Op("Store.HasSampleAssistRun", err)
}

// RunLease is how long a process holds an assistant run without renewing
// its lease; the process renews it every third of that (see
// RenewAssistRunLease).
const RunLease = 90 * time.Second

// StartAssistRun marks a run as running, clearing any earlier error, so it
// can be started or resumed, and gives the store's process its lease.
// Imported runs cannot run; a run another process holds an unexpired lease
// on is refused (tasks.EConflict).
func (s *Store) StartAssistRun(ctx context.Context, id int64) error {
	now := s.tasks.Now()
	return domain.Op("Store.StartAssistRun", s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		var status, owner string
		var until sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT status, lease_owner, lease_until FROM assist_runs WHERE id = ?`, id).Scan(&status, &owner, &until)
		if errors.Is(err, sql.ErrNoRows) {
			return domain.Errorf(domain.ENotFound, "assistant run not found")
		}
		if err != nil {
			return err
		}
		if status == RunImported {
			return domain.Errorf(domain.EInvalid, "run %d was imported from a file and cannot be run again", id)
		}
		if status == RunRunning && owner != "" && owner != s.tasks.Owner() && leaseLive(until, now) {
			return domain.Errorf(domain.EConflict, "run %d is being run by another process (its lease runs until %s)", id, until.String)
		}
		_, err = tx.ExecContext(ctx, `UPDATE assist_runs SET status = 'running', error = '', finished_at = NULL,
			lease_owner = ?, lease_until = ? WHERE id = ?`, s.tasks.Owner(), tasks.Stamp(now.Add(RunLease)), id)
		return err
	}))
}

// leaseLive reports whether a lease that runs until until is still held at now.
func leaseLive(until sql.NullString, now time.Time) bool {
	if !until.Valid {
		return false
	}
	t, err := time.Parse(time.RFC3339Nano, until.String)
	return err == nil && t.After(now)
}

// RenewAssistRunLease extends the store's process's lease on a run it is
// running; a run that is no longer its own (finished, or taken over after
// the lease ran out) is tasks.EConflict.
func (s *Store) RenewAssistRunLease(ctx context.Context, id int64) error {
	return domain.Op("Store.RenewAssistRunLease", s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE assist_runs SET lease_until = ? WHERE id = ? AND status = 'running' AND lease_owner = ?`,
			tasks.Stamp(s.tasks.Now().Add(RunLease)), id, s.tasks.Owner())
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return domain.Errorf(domain.EConflict, "run %d is no longer held by this process", id)
		}
		return nil
	}))
}

// FinishAssistRun records how a run (or one stretch of a resumed run)
// ended: its final status (done, failed or cancelled), the reason for a
// failure or cancellation, and the usage to add to its counters.
func (s *Store) FinishAssistRun(ctx context.Context, id int64, status, reason string, add AssistUsage) error {
	switch status {
	case RunDone, RunFailed, RunCancelled:
	default:
		return domain.Errorf(domain.EInvalid, "a run cannot finish with status %q", status)
	}
	return domain.Op("Store.FinishAssistRun", s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE assist_runs SET status = ?, error = ?, finished_at = ?, lease_owner = '', lease_until = NULL,
				calls = calls + ?, cache_hits = cache_hits + ?, prompt_tokens = prompt_tokens + ?,
				completion_tokens = completion_tokens + ?, failures = failures + ?
			WHERE id = ?`,
			status, redact.Text(reason), tasks.Stamp(s.tasks.Now()), add.Calls, add.CacheHits, add.PromptTokens, add.CompletionTokens, add.Failures, id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return domain.Errorf(domain.ENotFound, "assistant run not found")
		}
		return nil
	}))
}

// CancelAssistRun marks a queued or running run as cancelled; it is for
// runs no process is working on (a run in progress is cancelled through
// its context and finishes itself). Other runs are left alone.
func (s *Store) CancelAssistRun(ctx context.Context, id int64) error {
	return domain.Op("Store.CancelAssistRun", s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE assist_runs SET status = 'cancelled', error = 'cancelled by a lead', finished_at = ?
			WHERE id = ? AND status IN ('queued', 'running')`, tasks.Stamp(s.tasks.Now()), id)
		return err
	}))
}

// InterruptAssistRuns marks queued and running runs that no live process
// holds as failed, saying how to resume them, and returns how many it
// marked. The server calls it on start. A run is held when its lease has
// not run out and its owner is another process that still runs: a run a
// command-line process is working on is left alone, while one leased by a
// process of this machine that has ended (a server that crashed and is
// starting again) or by this very process is taken back at once.
func (s *Store) InterruptAssistRuns(ctx context.Context) (int, error) {
	// Most starts find no run in flight: looking first, without the write
	// lock, lets the server start beside another process's long write.
	var any bool
	if err := s.tasks.Reader(ctx).QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM assist_runs WHERE status IN ('queued', 'running'))`).Scan(&any); err != nil || !any {
		return 0, domain.Op("Store.InterruptAssistRuns", err)
	}
	var n int
	now := s.tasks.Now()
	err := s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT id, lease_owner, lease_until FROM assist_runs WHERE status IN ('queued', 'running')`)
		if err != nil {
			return err
		}
		var ids []int64
		for rows.Next() {
			var id int64
			var owner string
			var until sql.NullString
			if err := rows.Scan(&id, &owner, &until); err != nil {
				rows.Close()
				return err
			}
			if !leaseLive(until, now) || owner == s.tasks.Owner() || !ownerRuns(owner) {
				ids = append(ids, id)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, id := range ids {
			if _, err := tx.ExecContext(ctx, `UPDATE assist_runs SET status = 'failed', finished_at = ?, lease_owner = '', lease_until = NULL,
				error = 'interrupted; resume with annotate assist run --resume ' || id WHERE id = ?`, tasks.Stamp(now), id); err != nil {
				return err
			}
		}
		n = len(ids)
		return nil
	})
	return n, domain.Op("Store.InterruptAssistRuns", err)
}
