package assist

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// ItemRef is one sentence to judge in a run.
type ItemRef struct {
	// Key identifies the sentence across runs (for example
	// "project/document/summary/sentence"); the sink and the seeds use it.
	Key  string
	Item Item
}

// Sink receives a run's results and makes runs resumable.
type Sink interface {
	// Done reports whether key already has a result the run may skip.
	// Implementations should answer true only for StatusOK results, so
	// that a rerun retries sentences that failed.
	Done(key string) bool
	// Save stores the result for key, replacing any earlier one.
	Save(key string, r SentenceResult) error
}

// Progress is the state of a run, reported after each sentence.
type Progress struct {
	Total int `json:"total"`
	// Done counts finished sentences: saved, failed and skipped.
	Done    int `json:"done"`
	Failed  int `json:"failed"`
	Skipped int `json:"skipped"`
}

// RunOptions configures a run.
type RunOptions struct {
	Settings Settings
	// Concurrency bounds the sentences in progress at once (default 4).
	// The client's own limit still bounds the requests in flight.
	Concurrency int
	// Sink receives the results; required.
	Sink Sink
	// Progress, if set, is called after each sentence, never concurrently.
	Progress func(Progress)
}

// RunStats summarises a run: the client counters for this run alone, the
// sentence counts and the wall time.
type RunStats struct {
	Stats
	Items     int `json:"items"`
	Succeeded int `json:"succeeded"`
	Failed    int `json:"failed"`
	Skipped   int `json:"skipped"`
	// Duration is the wall time (nanoseconds in JSON).
	Duration time.Duration `json:"duration"`
}

// Runner judges many sentences as one background job.
type Runner struct {
	client *Client
}

// NewRunner returns a runner that asks through client.
func NewRunner(client *Client) *Runner { return &Runner{client: client} }

// Run judges every item whose key the sink does not report done, several at
// a time, saving each result as it completes. A sentence that fails is saved
// with Status failed and the run goes on. Cancelling ctx stops the run
// promptly: sentences in progress are abandoned unsaved, and Run returns
// ctx's error with the stats so far. A failing Save is counted as a failed
// sentence and reported in the returned error once the run ends.
func (r *Runner) Run(ctx context.Context, items []ItemRef, opts RunOptions) (RunStats, error) {
	start := time.Now()
	stats := RunStats{Items: len(items)}
	if opts.Sink == nil {
		return stats, errors.New("assist: run has no sink")
	}
	if err := opts.Settings.Defaults().Validate(); err != nil {
		return stats, err
	}
	seen := make(map[string]bool, len(items))
	for i, it := range items {
		if it.Key == "" {
			return stats, fmt.Errorf("assist: item %d has no key", i)
		}
		if seen[it.Key] {
			return stats, fmt.Errorf("assist: key %q appears twice", it.Key)
		}
		seen[it.Key] = true
	}
	workers := opts.Concurrency
	if workers <= 0 {
		workers = 4
	}
	workers = min(workers, max(len(items), 1))

	m := newMeter(r.client.root)
	var (
		mu       sync.Mutex
		progress = Progress{Total: len(items)}
		saveErrs []error
	)
	finish := func(failed, skipped bool, saveErr error) {
		mu.Lock()
		defer mu.Unlock()
		progress.Done++
		switch {
		case skipped:
			progress.Skipped++
		case failed || saveErr != nil:
			progress.Failed++
		}
		if saveErr != nil {
			saveErrs = append(saveErrs, saveErr)
		}
		if opts.Progress != nil {
			opts.Progress(progress)
		}
	}

	work := make(chan ItemRef)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for ref := range work {
				if ctx.Err() != nil {
					continue
				}
				if opts.Sink.Done(ref.Key) {
					finish(false, true, nil)
					continue
				}
				res, err := r.client.assess(ctx, m, ref.Key, ref.Item, opts.Settings)
				if err != nil {
					continue // cancelled: leave it for the next run
				}
				var saveErr error
				if err := opts.Sink.Save(ref.Key, res); err != nil {
					saveErr = fmt.Errorf("saving %s: %w", ref.Key, err)
				}
				finish(res.Status != StatusOK, false, saveErr)
			}
		})
	}
feed:
	for _, it := range items {
		select {
		case work <- it:
		case <-ctx.Done():
			break feed
		}
	}
	close(work)
	wg.Wait()

	stats.Stats = m.snapshot()
	stats.Failed, stats.Skipped = progress.Failed, progress.Skipped
	stats.Succeeded = progress.Done - progress.Failed - progress.Skipped
	stats.Duration = time.Since(start)
	var err error
	if len(saveErrs) > 0 {
		err = fmt.Errorf("assist: %d results could not be saved, the first: %w", len(saveErrs), saveErrs[0])
	}
	return stats, errors.Join(ctx.Err(), err)
}

// MemorySink is a Sink held in memory, for tests and one-off runs.
type MemorySink struct {
	mu      sync.Mutex
	results map[string]SentenceResult
}

// NewMemorySink returns an empty MemorySink.
func NewMemorySink() *MemorySink { return &MemorySink{results: map[string]SentenceResult{}} }

// Done implements Sink: only successful results count as done.
func (s *MemorySink) Done(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.results[key]
	return ok && r.Status == StatusOK
}

// Save implements Sink.
func (s *MemorySink) Save(key string, r SentenceResult) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.results[key] = r
	return nil
}

// Result returns the result saved for key.
func (s *MemorySink) Result(key string) (SentenceResult, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.results[key]
	return r, ok
}

// Len returns the number of saved results.
func (s *MemorySink) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.results)
}
