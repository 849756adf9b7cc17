package tasks

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"time"
)

// Checkpoints copy the WAL's pages into the database file and sync it.
// Left to SQLite, the commit that takes the WAL past wal_autocheckpoint
// pages (1,000 by default) does that work, fsync included, while every
// other save waits for the one write connection: with a hundred people
// saving, one save in a hundred or so took the checkpoint's time. The
// store checkpoints instead from a connection of its own every
// checkpointEvery, in PASSIVE mode, which never blocks the writer or the
// readers; the writer checkpoints itself only past writerCheckpointPages.
// That count is of the WAL's frames, copied or not, and under constant
// saves the WAL starts over only after the writer's own checkpoint (a
// write that begins with every frame copied starts it over; with saves
// queued, the next one has usually begun before the checkpointer is
// done): at 100 annotators on the 10x corpus the WAL reached the limit
// every ~2 s, and that commit took 9-25 ms, its checkpoint having little
// left to copy but the database file to sync. A limit ten times higher
// cut those commits from 17 to 3 a run, but the saves' p99 did not move
// beyond the machine's noise (five runs against four), so the limit
// stays.
const (
	checkpointEvery       = time.Second
	writerCheckpointPages = 10000 // 40 MB of WAL with 4 KiB pages
)

// openCheckpointer opens the one connection the checkpoints run on.
func openCheckpointer(path string) (*sql.DB, error) {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	db, err := sql.Open(driverName, "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	return db, nil
}

// checkpointWAL copies what it can of the WAL into the database file
// without waiting for readers or the writer.
func (s *Store) checkpointWAL(ctx context.Context) error {
	var busy, logPages, done int
	return s.checkpoint.QueryRowContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &logPages, &done)
}
