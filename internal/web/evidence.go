package web

import (
	"sync"

	"annotate/internal/assist"
	"annotate/internal/domain"
)

// evidenceCacheSize bounds the cached summaries; past it the cache starts
// over, which is cheaper than tracking use.
const evidenceCacheSize = 4096

// evidenceCache keeps the lexical evidence of each summary's sentences:
// building the finder over a long document is the costliest step of the
// labelling page, and neither the document nor the sentences change once
// imported.
type evidenceCache struct {
	mu sync.Mutex
	m  map[int64]summaryEvidence // by summary id
}

type summaryEvidence struct {
	units int             // the document's units
	ev    map[int64][]int // sentence id -> units
}

// cached returns the cached evidence of sum's sentences and the number of
// units of its document, if the cache holds them for these sentences.
func (c *evidenceCache) cached(sum *domain.Summary) (map[int64][]int, int, bool) {
	c.mu.Lock()
	e, ok := c.m[sum.ID]
	c.mu.Unlock()
	if !ok || len(e.ev) != len(sum.Sentences) {
		return nil, 0, false
	}
	for _, x := range sum.Sentences {
		if _, ok := e.ev[x.ID]; !ok {
			return nil, 0, false
		}
	}
	return e.ev, e.units, true
}

// lookup returns a sentence's cached evidence, if its summary's is cached.
func (c *evidenceCache) lookup(summaryID, sentenceID int64) ([]int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ev, ok := c.m[summaryID].ev[sentenceID]
	return ev, ok
}

// get returns the evidence units of each sentence of sum, computing and
// keeping them on first use. A summary whose sentences differ from the
// cached ones (its split was edited) is computed again.
func (c *evidenceCache) get(doc *domain.Document, sum *domain.Summary) map[int64][]int {
	if ev, _, ok := c.cached(sum); ok {
		return ev
	}
	units := make([]assist.Unit, len(doc.Units))
	for i, u := range doc.Units {
		units[i] = assist.Unit{Speaker: u.Speaker, Text: u.Text}
	}
	finder := assist.NewFinder(units)
	ev := make(map[int64][]int, len(sum.Sentences))
	for _, x := range sum.Sentences {
		found := []int{}
		for _, e := range finder.Premise(x.Text, evidenceLimit) {
			found = append(found, e.Unit)
		}
		ev[x.ID] = found
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= evidenceCacheSize {
		c.m = map[int64]summaryEvidence{}
	}
	c.m[sum.ID] = summaryEvidence{units: len(doc.Units), ev: ev}
	c.mu.Unlock()
	return ev
}
