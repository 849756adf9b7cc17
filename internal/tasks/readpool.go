package tasks

import (
	"context"
	"database/sql"
	"errors"
	"runtime"
	"time"
)

// readConns is the size of the read pool: two connections per CPU, at
// least four.
func readConns() int { return max(4, runtime.NumCPU()*2) }

// ReadConns is how many read connections the store holds at most. Pages,
// reports and exports share them; a caller that holds one for long (an
// export download) keeps the number of such holders below it, so that
// the others always find one.
func (s *Store) ReadConns() int { return readConns() }

// ReadConnsInUse is how many read connections are taken now.
func (s *Store) ReadConnsInUse() int { return s.read.Stats().InUse }

// errNoReadConn says that no read connection freed up within the wait a
// caller allowed (see readConnWithin).
var errNoReadConn = errors.New("no read connection free")

// readConnWithin takes a read connection, waiting at most d for one to
// free up: errNoReadConn when none did while ctx is still live, ctx's
// error when ctx ended first.
func (s *Store) readConnWithin(ctx context.Context, d time.Duration) (*sql.Conn, error) {
	wait, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	conn, err := s.read.Conn(wait)
	if err != nil && ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
		return nil, errNoReadConn
	}
	return conn, err
}
