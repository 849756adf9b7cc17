package assist

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"sync"
)

// Cache stores model answers by request key, so that asking the same
// question twice costs one call. Implementations must be safe for concurrent
// use. A key is the hex SHA-256 of the exact request body (model, messages,
// response schema, temperature, token limit, seed) together with
// PromptVersion, so any change to a prompt, a setting or the prompt version
// asks the model afresh.
type Cache interface {
	// Get returns the value stored under key and whether there was one.
	Get(ctx context.Context, key string) ([]byte, bool, error)
	// Put stores value under key, replacing any previous value.
	Put(ctx context.Context, key string, value []byte) error
}

// cacheKeyVersion is mixed into every key so that a change to what is
// stored under a key can invalidate old entries wholesale.
const cacheKeyVersion = "assist-cache-1\n"

// requestKey returns the cache key of a request body.
func requestKey(body []byte) string {
	h := sha256.New()
	h.Write([]byte(cacheKeyVersion))
	h.Write([]byte(PromptVersion + "\n"))
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}

// MemoryCache is a Cache held in memory, for tests and one-off runs.
type MemoryCache struct {
	mu sync.RWMutex
	m  map[string][]byte
}

// NewMemoryCache returns an empty MemoryCache.
func NewMemoryCache() *MemoryCache { return &MemoryCache{m: map[string][]byte{}} }

// Get implements Cache.
func (c *MemoryCache) Get(_ context.Context, key string) ([]byte, bool, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.m[key]
	if !ok {
		return nil, false, nil
	}
	return append([]byte(nil), v...), true, nil
}

// Put implements Cache.
func (c *MemoryCache) Put(_ context.Context, key string, value []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[key] = append([]byte(nil), value...)
	return nil
}

// Len returns the number of stored answers.
func (c *MemoryCache) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.m)
}
