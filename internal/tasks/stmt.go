package tasks

import (
	"context"
	"database/sql"
	"sync"
)

// stmtCache keeps prepared statements of the hot queries, so SQLite parses
// each once per connection instead of on every request (under load the
// parser was the largest single cost of a page view).
type stmtCache struct {
	mu    sync.Mutex
	db    *sql.DB
	stmts map[string]*sql.Stmt
	// wanted holds queries a transaction ran unprepared (see cachedTx).
	wanted map[string]bool
}

func (c *stmtCache) get(ctx context.Context, query string) (*sql.Stmt, error) {
	c.mu.Lock()
	st, ok := c.stmts[query]
	c.mu.Unlock()
	if ok {
		return st, nil
	}
	// Prepare without the lock: preparing waits for a connection, and a
	// transaction holding the write connection may need the lock (lookup).
	st, err := c.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if prev, ok := c.stmts[query]; ok {
		st.Close()
		return prev, nil
	}
	if c.stmts == nil {
		c.stmts = map[string]*sql.Stmt{}
	}
	c.stmts[query] = st
	return st, nil
}

func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, st := range c.stmts {
		st.Close()
	}
	c.stmts = nil
}

// queryRow runs a one-row read through a cached prepared statement.
// Inside a Snapshot it runs in the snapshot's transaction.
func (s *Store) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	if tx := s.snapshotTx(ctx); tx != nil {
		if st := s.readStmts.lookup(query); st != nil {
			return tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
		}
		return tx.QueryRowContext(ctx, query, args...)
	}
	st, err := s.readStmts.get(ctx, query)
	if err != nil {
		return s.read.QueryRowContext(ctx, query, args...)
	}
	return st.QueryRowContext(ctx, args...)
}

// query runs a read through a cached prepared statement, inside a
// Snapshot in the snapshot's transaction. A snapshot holds a connection
// of the read pool, so it never waits for another to prepare a statement:
// a miss runs the text and is prepared when the snapshot ends.
func (s *Store) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if tx := s.snapshotTx(ctx); tx != nil {
		if st := s.readStmts.lookup(query); st != nil {
			return tx.StmtContext(ctx, st).QueryContext(ctx, args...)
		}
		return tx.QueryContext(ctx, query, args...)
	}
	st, err := s.readStmts.get(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

// execQuerier is what the write helpers need of a transaction: *sql.Tx
// has it, and so does cachedTx.
type execQuerier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// txQuerier is what the statements of a write transaction run on:
// *sql.Tx, cachedTx, or preparedTx in an import, which prepares each once.
type txQuerier interface {
	execQuerier
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// cachedTx runs a write transaction's statements through the store's
// prepared statements. The write pool has one connection and the
// transaction holds it, so a statement cannot be prepared mid-transaction:
// a miss runs the text directly and is noted, and Store.tx prepares the
// noted statements once the connection is free again.
type cachedTx struct {
	*sql.Tx
	cache *stmtCache
}

// QueryRowContext runs a one-row query with a prepared statement.
func (t cachedTx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := t.cache.lookup(query); st != nil {
		return t.Tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
	}
	return t.Tx.QueryRowContext(ctx, query, args...)
}

// QueryContext runs a query with a prepared statement.
func (t cachedTx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := t.cache.lookup(query); st != nil {
		return t.Tx.StmtContext(ctx, st).QueryContext(ctx, args...)
	}
	return t.Tx.QueryContext(ctx, query, args...)
}

// ExecContext runs a statement with a prepared statement.
func (t cachedTx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if st := t.cache.lookup(query); st != nil {
		return t.Tx.StmtContext(ctx, st).ExecContext(ctx, args...)
	}
	return t.Tx.ExecContext(ctx, query, args...)
}

// lookup returns the prepared statement for query, or nil after noting
// the query for prepareWanted.
func (c *stmtCache) lookup(query string) *sql.Stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	if st, ok := c.stmts[query]; ok {
		return st
	}
	if c.wanted == nil {
		c.wanted = map[string]bool{}
	}
	c.wanted[query] = true
	return nil
}

// prepareWanted prepares the statements lookup missed. It must run when
// no transaction holds the pool's connection.
func (c *stmtCache) prepareWanted(ctx context.Context) {
	c.mu.Lock()
	wanted := c.wanted
	c.wanted = nil
	c.mu.Unlock()
	for q := range wanted {
		c.get(ctx, q) // a failure only means the text runs unprepared
	}
}

// preparedTx prepares each statement of a long transaction once, on the
// transaction itself, and reuses it: an import runs the same few
// statements hundreds of thousands of times.
type preparedTx struct {
	tx    *sql.Tx
	stmts map[string]*sql.Stmt
}

func (p *preparedTx) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if st, ok := p.stmts[query]; ok {
		return st, nil
	}
	st, err := p.tx.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if p.stmts == nil {
		p.stmts = map[string]*sql.Stmt{}
	}
	p.stmts[query] = st
	return st, nil
}

// QueryRowContext runs a one-row query.
func (p *preparedTx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	st, err := p.stmt(ctx, query)
	if err != nil {
		return p.tx.QueryRowContext(ctx, query, args...)
	}
	return st.QueryRowContext(ctx, args...)
}

// QueryContext runs a query.
func (p *preparedTx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	st, err := p.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

// ExecContext runs a statement.
func (p *preparedTx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	st, err := p.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(ctx, args...)
}

// close releases the statements.
func (p *preparedTx) close() {
	for _, st := range p.stmts {
		st.Close()
	}
	p.stmts = nil
}
