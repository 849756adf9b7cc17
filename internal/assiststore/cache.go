package assiststore

import (
	"context"
	"database/sql"
	"errors"

	"annotate/internal/domain"
)

// LLMCache keeps the assistant's model answers in the llm_cache table, keyed
// by the hash of the exact request. It has the method set of assist.Cache
// (this package does not import assist), so a run's client can use it
// directly and a rerun costs no model calls.
type LLMCache struct {
	s *Store
}

// LLMCache returns the store's answer cache.
func (s *Store) LLMCache() *LLMCache { return &LLMCache{s: s} }

// Get returns the answer stored under key and whether there was one.
func (c *LLMCache) Get(ctx context.Context, key string) ([]byte, bool, error) {
	var v []byte
	err := c.s.tasks.Reader(ctx).QueryRowContext(ctx, `SELECT value FROM llm_cache WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, domain.Op("LLMCache.Get", err)
	}
	return v, true, nil
}

// Put stores value under key, replacing any earlier answer.
func (c *LLMCache) Put(ctx context.Context, key string, value []byte) error {
	return domain.Op("LLMCache.Put", c.s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO llm_cache (key, value) VALUES (?, ?)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value)
		return err
	}))
}

// Len returns the number of stored answers.
func (c *LLMCache) Len(ctx context.Context) (int, error) {
	var n int
	err := c.s.tasks.Reader(ctx).QueryRowContext(ctx, `SELECT count(*) FROM llm_cache`).Scan(&n)
	return n, domain.Op("LLMCache.Len", err)
}
