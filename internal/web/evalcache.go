package web

import (
	"sync"

	"annotate/internal/assiststore"
)

// maxCachedEvals bounds the runs whose evaluation is kept; past it the
// cache starts again empty.
const maxCachedEvals = 256

// evalCache keeps each run's evaluation against the gold labels with the
// project's eval version it was computed at: every write of gold or of a
// run's results bumps that version (tasks.Store.EvalVersion), and the
// annotators' labels do not, so an evaluation kept for the current
// version is exact and lasts while they label. The assistant page
// shows every run's evaluation on each view, and computing one reads each
// gold sentence with a seek into the run's labels: 0.3 s a run on the
// 1.5M-label project. The zero value is ready to use.
type evalCache struct {
	mu sync.Mutex
	m  map[int64]keptEval // by run
}

type keptEval struct {
	version int64
	eval    assiststore.AssistEval
}

// get returns the evaluation of run kept for version, or computes it with
// eval and keeps it.
func (c *evalCache) get(run, version int64, eval func() (assiststore.AssistEval, error)) (assiststore.AssistEval, error) {
	c.mu.Lock()
	k, ok := c.m[run]
	c.mu.Unlock()
	if ok && k.version == version {
		return k.eval, nil
	}
	e, err := eval()
	if err != nil {
		return e, err
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxCachedEvals {
		c.m = map[int64]keptEval{}
	}
	c.m[run] = keptEval{version: version, eval: e}
	c.mu.Unlock()
	return e, nil
}
