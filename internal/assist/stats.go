package assist

import "sync/atomic"

// Stats counts the work done by the client: for one sentence, one run or the
// client's lifetime.
type Stats struct {
	// Calls is the number of HTTP requests sent to the endpoint, retries
	// included. A rerun served from the cache makes none.
	Calls int64 `json:"calls"`
	// CacheHits is the number of answers served from the cache.
	CacheHits int64 `json:"cache_hits"`
	// PromptTokens and CompletionTokens sum the usage the endpoint
	// reported; cached answers add nothing.
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	// Retries counts requests sent again after a transient failure.
	Retries int64 `json:"retries"`
	// Repairs counts requests that asked the model to correct an answer
	// that broke its schema.
	Repairs int64 `json:"repairs"`
	// Failures counts questions that got no usable answer.
	Failures int64 `json:"failures"`
	// CacheErrors counts cache reads and writes that failed; the client
	// carries on without the cache when that happens.
	CacheErrors int64 `json:"cache_errors,omitempty"`
}

// meter accumulates Stats and forwards every addition to its parent, so
// that a call is counted for its sentence, its run and the client at once.
type meter struct {
	parent                                   *meter
	calls, hits, prompt, completion, retries atomic.Int64
	repairs, failures, cacheErrors           atomic.Int64
}

func newMeter(parent *meter) *meter { return &meter{parent: parent} }

func (m *meter) each(f func(*meter)) {
	for ; m != nil; m = m.parent {
		f(m)
	}
}

func (m *meter) call()       { m.each(func(m *meter) { m.calls.Add(1) }) }
func (m *meter) hit()        { m.each(func(m *meter) { m.hits.Add(1) }) }
func (m *meter) retry()      { m.each(func(m *meter) { m.retries.Add(1) }) }
func (m *meter) repair()     { m.each(func(m *meter) { m.repairs.Add(1) }) }
func (m *meter) failure()    { m.each(func(m *meter) { m.failures.Add(1) }) }
func (m *meter) cacheError() { m.each(func(m *meter) { m.cacheErrors.Add(1) }) }

func (m *meter) tokens(prompt, completion int64) {
	m.each(func(m *meter) {
		m.prompt.Add(prompt)
		m.completion.Add(completion)
	})
}

func (m *meter) snapshot() Stats {
	return Stats{
		Calls:            m.calls.Load(),
		CacheHits:        m.hits.Load(),
		PromptTokens:     m.prompt.Load(),
		CompletionTokens: m.completion.Load(),
		Retries:          m.retries.Load(),
		Repairs:          m.repairs.Load(),
		Failures:         m.failures.Load(),
		CacheErrors:      m.cacheErrors.Load(),
	}
}
