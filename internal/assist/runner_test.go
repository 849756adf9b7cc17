package assist_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"annotate/internal/assist"
)

// refs makes one item per summary sentence, over two copies of the test
// document.
func refs(n int) []assist.ItemRef {
	var out []assist.ItemRef
	for i := range n {
		it := testItem()
		it.Target = i % 2
		out = append(out, assist.ItemRef{Key: fmt.Sprintf("p/d%d/s/%d", i/2, i%2), Item: it})
	}
	return out
}

// TestRerunIsServedFromCache proves a second run of the same items makes no
// request at all, counts every answer as a cache hit, and reproduces the
// results — including an answer that needed a repair.
func TestRerunIsServedFromCache(t *testing.T) {
	normal := debateAnswers(stubborn, func(n int) string { return []string{"faithful", "unfaithful"}[n%2] })
	f := newFake(t, func(n int, r wireRequest) reply {
		if r.name() == "ambiguity" && len(r.Messages) == 2 {
			return ok("not json at all")
		}
		return normal(n, r)
	})
	cache := assist.NewMemoryCache()
	c := f.client(t, cache, nil)
	opts := func(sink assist.Sink) assist.RunOptions {
		return assist.RunOptions{
			Settings:    assist.Settings{Protocol: assist.ProtocolDebate, Rounds: 2, Ambiguity: true, KeyFacts: true, Seed: 5},
			Concurrency: 3,
			Sink:        sink,
		}
	}
	first := assist.NewMemorySink()
	s1, err := assist.NewRunner(c).Run(ctxT(t), refs(4), opts(first))
	if err != nil || s1.Succeeded != 4 {
		t.Fatalf("first run: %+v, %v", s1, err)
	}
	sent := f.count()
	if int64(sent) > s1.Calls || s1.CacheHits != 0 || s1.Repairs != 4 {
		t.Errorf("first run stats %+v with %d requests", s1, sent)
	}

	second := assist.NewMemorySink()
	s2, err := assist.NewRunner(c).Run(ctxT(t), refs(4), opts(second))
	if err != nil || s2.Succeeded != 4 {
		t.Fatalf("second run: %+v, %v", s2, err)
	}
	if f.count() != sent {
		t.Errorf("the rerun sent %d requests", f.count()-sent)
	}
	// Every question answered in the first run (one call each, plus any
	// retries) is one cache hit now.
	if answered := s1.Calls - s1.Retries; s2.Calls != 0 || s2.CacheHits != answered || s2.PromptTokens != 0 {
		t.Errorf("second run stats = %+v, want 0 calls and %d hits", s2.Stats, answered)
	}
	for _, ref := range refs(4) {
		a, _ := first.Result(ref.Key)
		b, _ := second.Result(ref.Key)
		a.Usage, b.Usage = assist.Stats{}, assist.Stats{}
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Errorf("%s differs on rerun:\n%s\n%s", ref.Key, ja, jb)
		}
	}
}

// TestTokenTotals proves the prompt and completion tokens the server
// reported are summed exactly, per run and per sentence.
func TestTokenTotals(t *testing.T) {
	f := newFake(t, nil)
	c := f.client(t, nil, nil)
	sink := assist.NewMemorySink()
	stats, err := assist.NewRunner(c).Run(ctxT(t), refs(6), assist.RunOptions{Sink: sink, Settings: assist.Settings{KeyFacts: true}})
	if err != nil {
		t.Fatal(err)
	}
	prompt, completion := f.tokens()
	if stats.PromptTokens != int64(prompt) || stats.CompletionTokens != int64(completion) || prompt == 0 {
		t.Errorf("run counted %d/%d tokens, server reported %d/%d", stats.PromptTokens, stats.CompletionTokens, prompt, completion)
	}
	var sumP, sumC, calls int64
	for _, ref := range refs(6) {
		r, _ := sink.Result(ref.Key)
		sumP += r.Usage.PromptTokens
		sumC += r.Usage.CompletionTokens
		calls += r.Usage.Calls
	}
	if sumP != int64(prompt) || sumC != int64(completion) || calls != int64(f.count()) || stats.Calls != calls {
		t.Errorf("per-sentence sums %d/%d over %d calls, server %d/%d over %d", sumP, sumC, calls, prompt, completion, f.count())
	}
	if got := c.Stats(); got.PromptTokens != stats.PromptTokens {
		t.Errorf("client total %d, run %d", got.PromptTokens, stats.PromptTokens)
	}
}

// TestRunKeepsGoingAndResumes proves a failed sentence does not stop the
// run, progress is reported for every sentence, and a rerun skips the
// sentences already done and retries the failed one.
func TestRunKeepsGoingAndResumes(t *testing.T) {
	var failing atomic.Bool
	failing.Store(true)
	f := newFake(t, func(_ int, r wireRequest) reply {
		if failing.Load() && r.name() == "single_adjudicator" && strings.Contains(r.user(), ">>> (1)") {
			return reply{status: 422}
		}
		return ok(validAnswer(r, nil))
	})
	c := f.client(t, nil, nil)
	sink := assist.NewMemorySink()
	var mu sync.Mutex
	var seen []assist.Progress
	opts := assist.RunOptions{Sink: sink, Concurrency: 2, Progress: func(p assist.Progress) {
		mu.Lock()
		seen = append(seen, p)
		mu.Unlock()
	}}
	items := refs(6) // three sentences 1 (failing) and three sentences 2
	stats, err := assist.NewRunner(c).Run(ctxT(t), items, opts)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Succeeded != 3 || stats.Failed != 3 || stats.Items != 6 {
		t.Errorf("stats = %+v", stats)
	}
	last := seen[len(seen)-1]
	if len(seen) != 6 || last != (assist.Progress{Total: 6, Done: 6, Failed: 3}) {
		t.Errorf("progress = %+v", seen)
	}
	r, _ := sink.Result("p/d0/s/0")
	if r.Status != assist.StatusFailed || !strings.Contains(r.Error, "422") {
		t.Errorf("failed result = %s %q", r.Status, r.Error)
	}

	failing.Store(false)
	before := f.count()
	seen = nil
	stats, err = assist.NewRunner(c).Run(ctxT(t), items, opts)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Skipped != 3 || stats.Succeeded != 3 || stats.Failed != 0 || f.count()-before != 9 {
		t.Errorf("resume stats = %+v after %d requests, want 3 skipped and 3 × 3 requests", stats, f.count()-before)
	}
	if r, _ := sink.Result("p/d0/s/0"); r.Status != assist.StatusOK {
		t.Errorf("retried sentence is %s", r.Status)
	}
}

// TestRunCancellation proves cancelling the context stops a run promptly,
// leaves unfinished sentences unsaved and returns the context's error.
func TestRunCancellation(t *testing.T) {
	f := newFake(t, func(_ int, r wireRequest) reply {
		return reply{delay: 30 * time.Millisecond, content: validAnswer(r, nil)}
	})
	c := f.client(t, nil, nil)
	sink := assist.NewMemorySink()
	ctx, cancel := context.WithCancel(ctxT(t))
	defer cancel()
	opts := assist.RunOptions{Sink: sink, Concurrency: 2, Progress: func(p assist.Progress) {
		if p.Done == 2 {
			cancel()
		}
	}}
	start := time.Now()
	stats, err := assist.NewRunner(c).Run(ctx, refs(40), opts)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("cancelled run took %s", took)
	}
	if sink.Len() < 2 || sink.Len() > 4 || stats.Succeeded != sink.Len() {
		t.Errorf("%d saved, stats %+v; want the 2 finished (and at most the 2 in flight)", sink.Len(), stats)
	}
	for i := range 40 {
		if r, ok := sink.Result(refs(40)[i].Key); ok && r.Status != assist.StatusOK {
			t.Errorf("a cancelled sentence was saved as %s: %s", r.Status, r.Error)
		}
	}
}

// TestClientConcurrencyLimit proves the client never has more requests in
// flight than its limit, however many sentences run at once.
func TestClientConcurrencyLimit(t *testing.T) {
	var inFlight, peak atomic.Int64
	f := newFake(t, func(_ int, r wireRequest) reply {
		n := inFlight.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(5 * time.Millisecond)
		inFlight.Add(-1)
		return ok(validAnswer(r, nil))
	})
	c := f.client(t, nil, func(c *assist.Config) { c.Concurrency = 3 })
	_, err := assist.NewRunner(c).Run(ctxT(t), refs(8), assist.RunOptions{
		Sink: assist.NewMemorySink(), Concurrency: 8,
		Settings: assist.Settings{Protocol: assist.ProtocolDebate, Rounds: 1, Adjudicators: 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	if p := peak.Load(); p > 3 || p < 2 {
		t.Errorf("peak in-flight requests = %d, want at most 3 (and some overlap)", p)
	}
}

// TestRunRejectsBadInput proves duplicate keys, a missing sink and invalid
// settings are refused before any work.
func TestRunRejectsBadInput(t *testing.T) {
	f := newFake(t, nil)
	c := f.client(t, nil, nil)
	dup := append(refs(2), refs(1)...)
	for name, tc := range map[string]struct {
		items []assist.ItemRef
		opts  assist.RunOptions
	}{
		"duplicate key": {dup, assist.RunOptions{Sink: assist.NewMemorySink()}},
		"no sink":       {refs(1), assist.RunOptions{}},
		"bad settings":  {refs(1), assist.RunOptions{Sink: assist.NewMemorySink(), Settings: assist.Settings{Protocol: "triathlon"}}},
		"one agent":     {refs(1), assist.RunOptions{Sink: assist.NewMemorySink(), Settings: assist.Settings{Protocol: assist.ProtocolDebate, Agents: 1}}},
	} {
		if _, err := assist.NewRunner(c).Run(ctxT(t), tc.items, tc.opts); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if f.count() != 0 {
		t.Errorf("%d requests sent", f.count())
	}
}
