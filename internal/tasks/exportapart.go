package tasks

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// The largest reading of an export (the labels of a raw export, the
// sentences of a gold export) runs, when it can, on a second connection,
// on a goroutine of its own, while the export's own connection reads the
// rest: in a read transaction that sees the same version of the project's
// report data as the export's (see report_versions, which every write to
// the tables those queries read bumps), else on the export's own
// transaction. One reading at a time holds a second connection
// (Store.reportApart, shared with the agreement report), so that readings
// waiting for one cannot take up the pool.
const (
	apartChunk  = 1024 // rows handed over at a time
	apartChunks = 4    // chunks in flight
)

// apartConnWait bounds how long an export waits for its second
// connection before it reads everything on its own.
var apartConnWait = 250 * time.Millisecond

// exportApartBetween, when set (by tests), runs after an export has read
// the version of its own transaction and before a second one starts.
var exportApartBetween func()

// rowSource hands out the rows of one query in order: peek returns the
// next row (false at the end) without using it up, take uses it up.
type rowSource[T any] interface {
	peek() (*T, bool, error)
	take()
	close()
}

// openApart runs query (with the scope's project and round as ?1 and ?2)
// on a second connection when it can (and the scope allows), else on the
// export's transaction,
// reading each row with scan. name says which reading an error comes
// from. Call it after the export's transaction has read something, which
// fixed what it sees.
func openApart[T any](ctx context.Context, r *ExportReader, name, query string, scan func(*sql.Rows, *T) error) (rowSource[T], error) {
	if r.store != nil && !r.scope.OneConnection {
		select {
		case r.store.reportApart <- struct{}{}:
			src, err := readApart(ctx, r, name, query, scan)
			if src != nil || err != nil {
				return src, err
			}
			<-r.store.reportApart
		default:
		}
	}
	rows, err := r.tx.QueryContext(ctx, query, r.scope.ProjectID, r.scope.RoundID)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &ownRows[T]{rows: rows, scan: scan}, nil
}

// readApart starts the reading in a transaction of its own; nil (and no
// error) when that transaction sees another version of the project's
// report data than the export's. The caller holds reportApart, which the
// source releases when closed.
func readApart[T any](ctx context.Context, r *ExportReader, name, query string, scan func(*sql.Rows, *T) error) (rowSource[T], error) {
	version, err := reportVersion(ctx, r.tx, r.scope.ProjectID)
	if err != nil {
		<-r.store.reportApart
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if exportApartBetween != nil {
		exportApartBetween()
	}
	actx, cancel := context.WithCancel(ctx)
	// A second connection only speeds the export up: when none frees up
	// at once the reading goes with the rest, rather than wait, holding
	// the export's own, for as long as its caller would.
	conn, err := r.store.readConnWithin(actx, apartConnWait)
	if err != nil {
		cancel()
		if errors.Is(err, errNoReadConn) {
			return nil, nil
		}
		<-r.store.reportApart
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	atx, err := conn.BeginTx(actx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		conn.Close()
		cancel()
		<-r.store.reportApart
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if v, err := reportVersion(actx, atx, r.scope.ProjectID); err != nil || v != version {
		atx.Rollback()
		conn.Close()
		cancel()
		if err != nil {
			<-r.store.reportApart
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return nil, nil // changed in between: read them with the rest
	}
	s := &chunkRows[T]{chunks: make(chan []T, apartChunks), spare: make(chan []T, apartChunks), done: make(chan struct{})}
	for range apartChunks {
		s.spare <- make([]T, 0, apartChunk)
	}
	s.stop = func() {
		cancel()
		for range s.chunks { // let the reader see the cancellation and finish
		}
		<-s.done
		atx.Rollback()
		conn.Close()
		<-r.store.reportApart
	}
	go func() {
		defer close(s.done)
		defer close(s.chunks)
		if err := s.read(actx, atx, query, r.scope.ProjectID, r.scope.RoundID, scan); err != nil {
			s.err = fmt.Errorf("%s: %w", name, err)
		}
	}()
	return s, nil
}

// ownRows reads a query on the export's own transaction.
type ownRows[T any] struct {
	rows     *sql.Rows
	scan     func(*sql.Rows, *T) error
	row      T
	ok, done bool
	err      error
}

func (s *ownRows[T]) peek() (*T, bool, error) {
	if s.ok {
		return &s.row, true, nil
	}
	if s.done {
		return nil, false, s.err
	}
	if !s.rows.Next() {
		s.done, s.err = true, s.rows.Err()
		return nil, false, s.err
	}
	if err := s.scan(s.rows, &s.row); err != nil {
		s.done, s.err = true, err
		return nil, false, err
	}
	s.ok = true
	return &s.row, true, nil
}

func (s *ownRows[T]) take()  { s.ok = false }
func (s *ownRows[T]) close() { s.rows.Close() }

// chunkRows receives the rows that a goroutine reads on a second
// connection, in chunks.
type chunkRows[T any] struct {
	chunks chan []T // filled chunks, closed after the last
	spare  chan []T // chunks to fill
	cur    []T
	i      int
	err    error // the reader's, set before chunks is closed
	done   chan struct{}
	stop   func()
}

// read runs on its own goroutine.
func (s *chunkRows[T]) read(ctx context.Context, tx *sql.Tx, query string, project, round int64, scan func(*sql.Rows, *T) error) error {
	rows, err := tx.QueryContext(ctx, query, project, round)
	if err != nil {
		return err
	}
	defer rows.Close()
	buf := <-s.spare
	var zero T
	for rows.Next() {
		buf = append(buf, zero)
		if err := scan(rows, &buf[len(buf)-1]); err != nil {
			return err
		}
		if len(buf) == cap(buf) {
			select {
			case s.chunks <- buf:
			case <-ctx.Done():
				return ctx.Err()
			}
			select {
			case buf = <-s.spare:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if len(buf) > 0 {
		s.chunks <- buf // there is room: every other chunk is spare, sent or being read
	}
	return nil
}

func (s *chunkRows[T]) peek() (*T, bool, error) {
	for s.i >= len(s.cur) {
		if s.cur != nil {
			s.spare <- s.cur[:0]
			s.cur = nil
		}
		c, ok := <-s.chunks
		if !ok {
			return nil, false, s.err
		}
		s.cur, s.i = c, 0
	}
	return &s.cur[s.i], true, nil
}

func (s *chunkRows[T]) take()  { s.i++ }
func (s *chunkRows[T]) close() { s.stop() }
