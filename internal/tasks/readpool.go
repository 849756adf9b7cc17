package tasks

import "runtime"

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
