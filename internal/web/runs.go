package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"annotate/internal/assist"
	"annotate/internal/assiststore"
	"annotate/internal/domain"
)

// AssistRunner creates and executes assistant runs against the configured
// model endpoint. cmd/annotate wires one in (it knows the endpoint's URL
// and key); without one, leads start runs from the command line.
type AssistRunner interface {
	// DefaultModel is the model the start form offers.
	DefaultModel() string
	// Create records a queued run over all summary sentences of a project.
	// An unknown protocol or an empty project is an EInvalid error.
	Create(ctx context.Context, projectID int64, protocol, model string) (*assiststore.AssistRun, error)
	// Execute runs or resumes a stored run until it ends or ctx is
	// cancelled, reporting progress after each sentence, and records the
	// run's final status in the store.
	Execute(ctx context.Context, runID int64, progress func(assist.Progress)) (assist.RunStats, error)
}

// runManager owns the runs this server executes: one goroutine each, with
// a cancel function and the latest progress.
type runManager struct {
	runner AssistRunner
	log    *slog.Logger
	base   context.Context
	stop   context.CancelCauseFunc
	wg     sync.WaitGroup

	mu     sync.Mutex
	active map[int64]*activeRun
}

type activeRun struct {
	cancel   context.CancelCauseFunc
	progress assist.Progress
}

// errServerStopped is the reason recorded for runs cut short by shutdown.
var errServerStopped = errors.New("the server stopped; resume the run from the assistant page")

// errCancelledByLead is the reason recorded for runs a lead cancelled.
var errCancelledByLead = errors.New("cancelled by a lead")

func newRunManager(runner AssistRunner, log *slog.Logger) *runManager {
	base, stop := context.WithCancelCause(context.Background())
	return &runManager{runner: runner, log: log, base: base, stop: stop, active: map[int64]*activeRun{}}
}

// start executes run id in the background. Starting a run this server is
// already executing is an EConflict error.
func (m *runManager) start(id int64) error {
	if m.runner == nil {
		return domain.Errorf(domain.EInvalid, "no model endpoint is configured for this server; start runs with annotate assist run")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.base.Err() != nil {
		return domain.Errorf(domain.EConflict, "the server is stopping")
	}
	if _, ok := m.active[id]; ok {
		return domain.Errorf(domain.EConflict, "run %d is already running", id)
	}
	ctx, cancel := context.WithCancelCause(m.base)
	a := &activeRun{cancel: cancel}
	m.active[id] = a
	m.wg.Go(func() {
		defer func() {
			cancel(nil)
			m.mu.Lock()
			delete(m.active, id)
			m.mu.Unlock()
		}()
		_, err := m.runner.Execute(ctx, id, func(p assist.Progress) {
			m.mu.Lock()
			a.progress = p
			m.mu.Unlock()
		})
		if err != nil && ctx.Err() == nil {
			m.log.Error("assistant run failed", "run", id, "err", err)
		}
	})
	return nil
}

// cancel stops run id if this server is executing it and reports whether
// it was.
func (m *runManager) cancel(id int64) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	a, ok := m.active[id]
	if ok {
		a.cancel(errCancelledByLead)
	}
	return ok
}

// progress returns the latest progress of run id if this server is
// executing it.
func (m *runManager) progress(id int64) (assist.Progress, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	a, ok := m.active[id]
	if !ok {
		return assist.Progress{}, false
	}
	return a.progress, true
}

// close cancels every run and waits until each has recorded its state.
func (m *runManager) close() {
	m.stop(errServerStopped)
	m.wg.Wait()
}

// Close stops the server's background work: it cancels the assistant runs
// in progress and waits until each has recorded how far it got, so that
// the store can be closed after it. Serving requests is the http.Server's
// business and stops with it.
func (s *Server) Close() error {
	s.stopWebhooks()
	s.runs.close()
	return nil
}

// interruptRuns marks runs that a previous process left running as failed:
// no run is in progress in a server that has just started.
func (s *Server) interruptRuns(ctx context.Context) error {
	n, err := s.assists.InterruptAssistRuns(ctx)
	if err != nil {
		return fmt.Errorf("marking interrupted assistant runs: %w", err)
	}
	if n > 0 {
		s.log.Warn("assistant runs were interrupted by the last shutdown; resume them from the assistant page", "runs", n)
	}
	return nil
}
