package tasks_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"sync"
)

// traceDriver wraps the SQLite driver and records the text of every query
// while recording is on, so a test can look at the plans of the queries a
// code path really runs.
type traceDriver struct {
	inner driver.Driver
	mu    sync.Mutex
	on    bool
	seen  map[string]bool
	order []string
}

func (d *traceDriver) Open(name string) (driver.Conn, error) {
	c, err := d.inner.Open(name)
	if err != nil {
		return nil, err
	}
	return &traceConn{Conn: c, d: d}, nil
}

func (d *traceDriver) note(q string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.on && !d.seen[q] {
		d.seen[q] = true
		d.order = append(d.order, q)
	}
}

// record turns recording on or off and returns what was recorded since the
// last call.
func (d *traceDriver) record(on bool) []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := d.order
	d.on, d.order, d.seen = on, nil, map[string]bool{}
	return out
}

type traceConn struct {
	driver.Conn
	d *traceDriver
}

func (c *traceConn) Prepare(q string) (driver.Stmt, error) {
	c.d.note(q)
	return c.Conn.Prepare(q)
}

func (c *traceConn) PrepareContext(ctx context.Context, q string) (driver.Stmt, error) {
	c.d.note(q)
	return c.Conn.(driver.ConnPrepareContext).PrepareContext(ctx, q)
}

func (c *traceConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	return c.Conn.(driver.ConnBeginTx).BeginTx(ctx, opts)
}

func (c *traceConn) ExecContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Result, error) {
	c.d.note(q)
	return c.Conn.(driver.ExecerContext).ExecContext(ctx, q, args)
}

func (c *traceConn) QueryContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Rows, error) {
	c.d.note(q)
	return c.Conn.(driver.QueryerContext).QueryContext(ctx, q, args)
}

func (c *traceConn) ResetSession(ctx context.Context) error {
	if r, ok := c.Conn.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

var (
	traceOnce sync.Once
	tracer    *traceDriver
)

// queryTracer registers the tracing driver once and returns it.
func queryTracer() *traceDriver {
	traceOnce.Do(func() {
		db, _ := sql.Open("sqlite", "")
		tracer = &traceDriver{inner: db.Driver()}
		db.Close()
		sql.Register("sqlite-trace", tracer)
	})
	return tracer
}
