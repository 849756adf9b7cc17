package tasks

import (
	"context"
	"database/sql"
	"fmt"

	"annotate/internal/domain"
)

// labelRow is one row of the labels query (cellQueries["labels"]).
type labelRow struct {
	assignment, sentence int64
	bits                 int    // see setLabel
	types                string // "" for none
	explanation          string
	ambiguityType        string
	ambiguityNote        string
	unsureNote           string
	firstLabel           string // when not one of the labels
	updatedAt            string
}

func scanLabel(rows *sql.Rows, l *labelRow) error {
	return rows.Scan(&l.assignment, &l.sentence, &l.bits, (*orEmpty)(&l.types), (*orEmpty)(&l.explanation),
		(*orEmpty)(&l.ambiguityType), (*orEmpty)(&l.ambiguityNote), (*orEmpty)(&l.unsureNote), (*orEmpty)(&l.firstLabel), &l.updatedAt)
}

// labelSource hands out the rows of the labels query in order: peek
// returns the next row (false at the end) without using it up, take uses
// it up.
type labelSource interface {
	peek() (*labelRow, bool, error)
	take()
	close()
}

// The labels are most of a raw export's reading. When it can, an export
// reads them on a second connection, on a goroutine of their own, while
// its first connection reads the rest: in a read transaction that sees
// the same version of the project's report data as the export's (see
// report_versions, which every write to the tables the labels query
// reads bumps), else on the export's own transaction. One reading at a
// time holds a second connection (Store.reportApart, shared with the
// agreement report), so that readings waiting for one cannot take up the
// pool.
const (
	labelChunk  = 1024 // label rows handed over at a time
	labelChunks = 4    // chunks in flight
)

// exportLabelsBetween, when set (by tests), runs after an export has read
// the version of its own transaction and before the second one starts.
var exportLabelsBetween func()

// openLabels opens the labels query, on a second connection when it can.
// Call it after the export's transaction has read something, which fixed
// what it sees.
func (r *ExportReader) openLabels(ctx context.Context) (labelSource, error) {
	if r.store != nil {
		select {
		case r.store.reportApart <- struct{}{}:
			src, err := r.labelsApart(ctx)
			if src != nil || err != nil {
				return src, err
			}
			<-r.store.reportApart
		default:
		}
	}
	rows, err := r.tx.QueryContext(ctx, r.scoped(cellQueries["labels"]), r.scope.ProjectID, r.scope.RoundID)
	if err != nil {
		return nil, fmt.Errorf("labels: %w", err)
	}
	return &rowLabels{rows: rows}, nil
}

// labelsApart starts reading the labels in a transaction of their own; nil
// (and no error) when that transaction sees another version of the
// project's report data than the export's. The caller holds
// reportApart, which the source releases when closed.
func (r *ExportReader) labelsApart(ctx context.Context) (labelSource, error) {
	version, err := reportVersion(ctx, r.tx, r.scope.ProjectID)
	if err != nil {
		<-r.store.reportApart
		return nil, fmt.Errorf("labels: %w", err)
	}
	if exportLabelsBetween != nil {
		exportLabelsBetween()
	}
	lctx, cancel := context.WithCancel(ctx)
	ltx, err := r.store.read.BeginTx(lctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		cancel()
		<-r.store.reportApart
		return nil, fmt.Errorf("labels: %w", err)
	}
	if v, err := reportVersion(lctx, ltx, r.scope.ProjectID); err != nil || v != version {
		ltx.Rollback()
		cancel()
		if err != nil {
			<-r.store.reportApart
			return nil, fmt.Errorf("labels: %w", err)
		}
		return nil, nil // changed in between: read them with the rest
	}
	s := &chunkLabels{chunks: make(chan []labelRow, labelChunks), spare: make(chan []labelRow, labelChunks), done: make(chan struct{})}
	for range labelChunks {
		s.spare <- make([]labelRow, 0, labelChunk)
	}
	s.stop = func() {
		cancel()
		for range s.chunks { // let the reader see the cancellation and finish
		}
		<-s.done
		ltx.Rollback()
		<-r.store.reportApart
	}
	go func() {
		defer close(s.done)
		defer close(s.chunks)
		s.err = s.read(lctx, ltx, r.scope, r.byRound)
	}()
	return s, nil
}

// rowLabels reads the labels on the export's own transaction.
type rowLabels struct {
	rows     *sql.Rows
	row      labelRow
	ok, done bool
	err      error
}

func (s *rowLabels) peek() (*labelRow, bool, error) {
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
	if err := scanLabel(s.rows, &s.row); err != nil {
		s.done, s.err = true, err
		return nil, false, err
	}
	s.ok = true
	return &s.row, true, nil
}

func (s *rowLabels) take()  { s.ok = false }
func (s *rowLabels) close() { s.rows.Close() }

// chunkLabels receives the labels that a goroutine reads on a second
// connection, in chunks.
type chunkLabels struct {
	chunks chan []labelRow // filled chunks, closed after the last
	spare  chan []labelRow // chunks to fill
	cur    []labelRow
	i      int
	err    error // the reader's, set before chunks is closed
	done   chan struct{}
	stop   func()
}

// read runs on its own goroutine.
func (s *chunkLabels) read(ctx context.Context, tx *sql.Tx, scope domain.ExportScope, byRound bool) error {
	rows, err := tx.QueryContext(ctx, scopedQuery(cellQueries["labels"], byRound), scope.ProjectID, scope.RoundID)
	if err != nil {
		return fmt.Errorf("labels: %w", err)
	}
	defer rows.Close()
	buf := <-s.spare
	for rows.Next() {
		buf = append(buf, labelRow{})
		if err := scanLabel(rows, &buf[len(buf)-1]); err != nil {
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

func (s *chunkLabels) peek() (*labelRow, bool, error) {
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

func (s *chunkLabels) take()  { s.i++ }
func (s *chunkLabels) close() { s.stop() }
