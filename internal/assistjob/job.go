// Package assistjob creates and executes assistant runs over a project's
// stored sentences: the one job that the command line, the web pages and
// the JSON API all start, so a run behaves the same wherever it began. It
// joins the assist engine to the store; it knows nothing of HTTP.
package assistjob

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"annotate/internal/assist"
	"annotate/internal/assiststore"
	"annotate/internal/domain"
	"annotate/internal/tasks"
)

// Job creates and executes assistant runs over a project's sentences,
// keeping answers in the store's cache and results in assist_outputs.
type Job struct {
	store   *tasks.Store
	assists *assiststore.Store
	// llm is the endpoint; its Model is the default for new runs and is
	// replaced by each run's own model.
	llm assist.Config
	// concurrency bounds the sentences in progress at once.
	concurrency int
}

// New returns a job over store that asks the endpoint llm, with at most
// concurrency sentences in progress at once.
func New(store *tasks.Store, llm assist.Config, concurrency int) *Job {
	return &Job{store: store, assists: assiststore.New(store), llm: llm, concurrency: concurrency}
}

// DefaultModel is the model new runs ask unless they name another.
func (j *Job) DefaultModel() string { return j.llm.Model }

// Create records a queued run over every sentence of a project. An
// unknown protocol or an empty project is an EInvalid error.
func (j *Job) Create(ctx context.Context, projectID int64, protocol, model string) (*assiststore.AssistRun, error) {
	return j.CreateLimit(ctx, projectID, protocol, model, 0)
}

// CreateLimit records a queued run over the first limit sentences of a
// project (all of them when limit is 0).
func (j *Job) CreateLimit(ctx context.Context, projectID int64, protocol, model string, limit int) (*assiststore.AssistRun, error) {
	p, err := j.store.ProjectByID(ctx, projectID)
	if err != nil {
		return nil, err
	}
	settings := assist.Settings{
		Protocol:  assist.Protocol(protocol),
		Ambiguity: true,
		KeyFacts:  p.Settings.KeyFacts,
		// A fixed seed makes stances, shuffles and request seeds the same
		// on every rerun, which is what lets the cache answer them.
		Seed:        1,
		Temperature: j.llm.Temperature,
		MaxTokens:   j.llm.MaxTokens,
		SchemaMode:  j.schemaMode(),
	}.Defaults()
	if err := settings.Validate(); err != nil {
		return nil, domain.Errorf(domain.EInvalid, "%v (single or debate)", err)
	}
	if model == "" {
		return nil, domain.Errorf(domain.EInvalid, "no model named: pass --llm-model or set ANNOTATE_LLM_MODEL")
	}
	total, err := j.store.SentenceCount(ctx, projectID)
	if err != nil {
		return nil, err
	}
	if limit > 0 {
		total = min(total, limit)
	}
	if total == 0 {
		return nil, domain.Errorf(domain.EInvalid, "project %s has no summary sentences to judge", p.Slug)
	}
	raw, err := json.Marshal(settings)
	if err != nil {
		return nil, err
	}
	return j.assists.CreateAssistRun(ctx, assiststore.AssistRun{
		ProjectID: projectID, Protocol: protocol, Model: model, Settings: string(raw),
		PromptVersion: assist.PromptVersion, Total: total,
	})
}

// schemaMode is the endpoint's schema mode, strict unless configured.
func (j *Job) schemaMode() assist.SchemaMode {
	if j.llm.SchemaMode == "" {
		return assist.SchemaStrict
	}
	return j.llm.SchemaMode
}

// Execute runs or resumes a stored run,
// skipping sentences that already have a complete result, and records the
// run's final status and usage. Cancelling ctx stops it promptly; the
// finished sentences stay saved and the run is marked cancelled with the
// cancellation's cause.
func (j *Job) Execute(ctx context.Context, runID int64, progress func(assist.Progress)) (assist.RunStats, error) {
	run, err := j.assists.AssistRunByID(ctx, runID)
	if err != nil {
		return assist.RunStats{}, err
	}
	if run.Status == assiststore.RunImported {
		return assist.RunStats{}, domain.Errorf(domain.EInvalid, "run %d was imported from a file and cannot be run", runID)
	}
	var settings assist.Settings
	if err := json.Unmarshal([]byte(run.Settings), &settings); err != nil {
		return assist.RunStats{}, fmt.Errorf("run %d: settings: %w", runID, err)
	}
	work, err := j.assists.AssistWork(ctx, run.ProjectID)
	if err != nil {
		return assist.RunStats{}, err
	}
	items, ids := workItems(work)
	if run.Total > 0 && run.Total < len(items) {
		items = items[:run.Total]
	}
	done, err := j.assists.AssistDone(ctx, runID)
	if err != nil {
		return assist.RunStats{}, err
	}
	if err := j.assists.StartAssistRun(ctx, runID); err != nil {
		return assist.RunStats{}, err
	}
	// Hold the run's lease while it runs, so that a server starting
	// meanwhile leaves it alone; a lease lost (taken over after it ran out)
	// stops the run.
	ctx, stopLease := context.WithCancelCause(ctx)
	leaseDone := make(chan struct{})
	go func() {
		defer close(leaseDone)
		t := time.NewTicker(assiststore.RunLease / 3)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if err := j.assists.RenewAssistRunLease(context.WithoutCancel(ctx), runID); domain.ErrorCode(err) == domain.EConflict {
					stopLease(err)
					return
				}
			}
		}
	}()
	defer func() { stopLease(nil); <-leaseDone }()
	// From here on the run must end with a recorded status, even when ctx
	// is cancelled.
	record := context.WithoutCancel(ctx)
	cfg := j.llm
	cfg.Model = run.Model
	if settings.SchemaMode != "" {
		// A resumed run keeps the schema mode it was started with.
		cfg.SchemaMode = settings.SchemaMode
	}
	client, err := assist.NewClient(cfg, j.assists.LLMCache())
	if err != nil {
		return assist.RunStats{}, errors.Join(err, j.assists.FinishAssistRun(record, runID, assiststore.RunFailed, err.Error(), assiststore.AssistUsage{}))
	}
	sink := &storeSink{store: j.assists, ctx: record, runID: runID, ids: ids, done: done}
	stats, runErr := assist.NewRunner(client).Run(ctx, items, assist.RunOptions{
		Settings: settings, Concurrency: j.concurrency, Sink: sink, Progress: progress,
	})
	status, reason := runOutcome(ctx, runID, stats, runErr, sink.firstFailure())
	usage := assiststore.AssistUsage{Calls: stats.Calls, CacheHits: stats.CacheHits, PromptTokens: stats.PromptTokens,
		CompletionTokens: stats.CompletionTokens, Failures: stats.Failures}
	if err := j.assists.FinishAssistRun(record, runID, status, reason, usage); err != nil {
		return stats, errors.Join(runErr, err)
	}
	return stats, runErr
}

// runOutcome decides a run's final status and the reason shown with it.
func runOutcome(ctx context.Context, runID int64, stats assist.RunStats, err error, firstFailure string) (string, string) {
	resume := "resume with annotate assist run --resume " + strconv.FormatInt(runID, 10)
	switch {
	case ctx.Err() != nil:
		cause := context.Cause(ctx)
		if errors.Is(cause, context.Canceled) || errors.Is(cause, context.DeadlineExceeded) {
			return assiststore.RunCancelled, "interrupted; " + resume
		}
		return assiststore.RunCancelled, cause.Error()
	case err != nil:
		return assiststore.RunFailed, err.Error() + "; " + resume
	case stats.Failed > 0 && stats.Succeeded == 0 && stats.Skipped == 0:
		return assiststore.RunFailed, fmt.Sprintf("all %d sentences failed; the first: %s", stats.Failed, firstFailure)
	}
	return assiststore.RunDone, ""
}

// workItems turns a project's work into run items keyed by external ids,
// and maps each key to its sentence id. Items of one document share one
// converted unit list.
func workItems(w *assiststore.AssistWork) ([]assist.ItemRef, map[string]int64) {
	items := make([]assist.ItemRef, 0, len(w.Sentences))
	ids := make(map[string]int64, len(w.Sentences))
	units := map[string][]assist.Unit{}
	for _, x := range w.Sentences {
		u, ok := units[x.DocumentID]
		if !ok {
			u = make([]assist.Unit, len(x.Units))
			for i, du := range x.Units {
				u[i] = assist.Unit{Speaker: du.Speaker, Text: du.Text}
			}
			units[x.DocumentID] = u
		}
		var facts []assist.KeyFact
		for i, k := range x.KeyFacts {
			facts = append(facts, assist.KeyFact{ID: "k" + strconv.Itoa(i+1), Text: k.Text, Category: k.Category})
		}
		key := x.Key()
		ids[key] = x.SentenceID
		items = append(items, assist.ItemRef{Key: key, Item: assist.Item{
			DocUnits: u, Summary: x.Summary, Target: x.Index - 1, Topic: x.Topic,
			ErrorTypes: w.ErrorTypes, Guidelines: w.Guidelines, KeyFacts: facts,
		}})
	}
	return items, ids
}

// storeSink is the run's assist.Sink over the store: a sentence is done
// when the run already holds a complete result for it, and every result is
// saved as soon as it comes back, so a crashed run loses only the
// sentences in flight.
type storeSink struct {
	store *assiststore.Store
	// ctx outlives the run's cancellation: a result that came back is
	// worth saving.
	ctx   context.Context
	runID int64
	ids   map[string]int64
	done  map[int64]bool // read only

	mu    sync.Mutex
	first string
}

// Done implements assist.Sink.
func (s *storeSink) Done(key string) bool { return s.done[s.ids[key]] }

// Save implements assist.Sink.
func (s *storeSink) Save(key string, r assist.SentenceResult) error {
	id, ok := s.ids[key]
	if !ok {
		return fmt.Errorf("no sentence for key %q", key)
	}
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	label := ""
	if r.Status == assist.StatusOK && r.Adjudicator != nil {
		label = string(r.Adjudicator.Label)
	}
	if r.Status != assist.StatusOK {
		s.mu.Lock()
		if s.first == "" {
			s.first = r.Error
		}
		s.mu.Unlock()
	}
	return s.store.SaveAssistOutput(s.ctx, s.runID, assiststore.AssistOutput{SentenceID: id, Label: label, Status: string(r.Status), Output: data})
}

func (s *storeSink) firstFailure() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.first
}
