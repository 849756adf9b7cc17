package tasks

import (
	"context"
	"strings"
)

// batchRows is how many rows a rowBatch writes per statement.
const batchRows = 64

// rowBatch gathers the rows of one INSERT to write many per statement: an
// import writes hundreds of thousands of labels, and one statement of 64
// rows costs SQLite and database/sql much less than 64 statements.
// Rows wait in memory until flush, so a caller that reads the table must
// flush first.
type rowBatch struct {
	head, tail string // the statement before and after its VALUES rows
	row        string // one row of VALUES, with cols parameters
	cols       int
	args       []any
	queries    map[int]string // by number of rows
}

func newRowBatch(head, tail string, cols int) *rowBatch {
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", cols), ", ") + ")"
	return newRowBatchOf(head, row, tail, cols)
}

// newRowBatchOf is newRowBatch with rows written as row, which holds cols
// parameters and may hold expressions besides.
func newRowBatchOf(head, row, tail string, cols int) *rowBatch {
	return &rowBatch{head: head, row: row, tail: tail, cols: cols, args: make([]any, 0, batchRows*cols), queries: map[int]string{}}
}

// push queues one row, reporting whether the batch is full and must be
// written now (by flush, once what its rows refer to is written).
func (b *rowBatch) push(row ...any) bool {
	b.args = append(b.args, row...)
	return len(b.args) >= batchRows*b.cols
}

// add queues one row, writing the batch once it is full.
func (b *rowBatch) add(ctx context.Context, q execQuerier, row ...any) error {
	b.args = append(b.args, row...)
	if len(b.args) >= batchRows*b.cols {
		return b.flush(ctx, q)
	}
	return nil
}

// flush writes the queued rows.
func (b *rowBatch) flush(ctx context.Context, q execQuerier) error {
	n := len(b.args) / b.cols
	if n == 0 {
		return nil
	}
	query, ok := b.queries[n]
	if !ok {
		query = b.head + strings.TrimSuffix(strings.Repeat(b.row+", ", n), ", ") + b.tail
		b.queries[n] = query
	}
	_, err := q.ExecContext(ctx, query, b.args...)
	clear(b.args)
	b.args = b.args[:0]
	return err
}
