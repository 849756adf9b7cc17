package assist

import (
	"context"
	"errors"
)

// Assess runs the configured protocol (and, if asked, the ambiguity judge
// and key-fact suggestions) on one item and returns its result. key
// identifies the sentence; together with s.Seed it fixes every random choice,
// so the same key, item and settings always produce the same requests.
//
// A sentence that cannot be judged (invalid item, endpoint failure, answers
// that stay invalid after repair) comes back with Status failed and the
// reason in Error, along with whatever parts succeeded. The error return is
// reserved for cancellation: it is ctx's error, and the result should then
// be discarded.
func (c *Client) Assess(ctx context.Context, key string, it Item, s Settings) (SentenceResult, error) {
	return c.assess(ctx, c.root, key, it, s)
}

func (c *Client) assess(ctx context.Context, parent *meter, key string, it Item, s Settings) (SentenceResult, error) {
	s = s.Defaults()
	s.Temperature, s.MaxTokens, s.SchemaMode = c.cfg.Temperature, c.cfg.MaxTokens, c.cfg.SchemaMode
	res := SentenceResult{
		Protocol:      s.Protocol,
		Target:        it.Target,
		Evidence:      []int{},
		PromptVersion: PromptVersion,
		Model:         c.cfg.Model,
		Settings:      s,
		Status:        StatusOK,
	}
	m := newMeter(parent)
	fail := func(err error) (SentenceResult, error) {
		res.Usage = m.snapshot()
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		res.Status, res.Error = StatusFailed, err.Error()
		return res, nil
	}
	if err := s.Validate(); err != nil {
		return fail(err)
	}
	if err := it.Validate(); err != nil {
		return fail(err)
	}
	for _, e := range NewFinder(it.DocUnits).Premise(it.Summary[it.Target], s.EvidenceCap) {
		res.Evidence = append(res.Evidence, e.Unit)
	}

	sd := seeder{run: s.Seed, key: key}
	var err error
	if s.Protocol == ProtocolDebate {
		err = c.runDebate(ctx, m, it, s, sd, &res)
	} else {
		err = c.runSingle(ctx, m, it, sd, &res)
	}
	// The ambiguity judge needs the arguments; key facts do not, so they
	// are still suggested when the protocol failed.
	if err == nil && s.Ambiguity {
		err = c.judgeAmbiguity(ctx, m, it, sd, &res)
	}
	if s.KeyFacts && ctx.Err() == nil {
		if kerr := c.suggestKeyFacts(ctx, m, it, sd, &res); kerr != nil {
			err = errors.Join(err, kerr)
		}
	}
	if err != nil {
		return fail(err)
	}
	res.Usage = m.snapshot()
	return res, nil
}
