package tasks

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"annotate/internal/domain"
)

// Backup writes a consistent copy of the live database to out with
// SQLite's VACUUM INTO, which reads one snapshot while the server keeps
// writing. out must not exist; it is created 0600 like the database.
func (s *Store) Backup(ctx context.Context, out string) error {
	f, err := os.OpenFile(out, os.O_RDWR|os.O_CREATE|os.O_EXCL, dbFileMode)
	if errors.Is(err, fs.ErrExist) {
		return domain.Errorf(domain.EConflict, "%s already exists; choose a new file", out)
	}
	if err != nil {
		return domain.Op("Store.Backup", err)
	}
	f.Close()
	// A connection of its own: the read pool is query-only and the write
	// pool's one connection must stay free for the server's saves.
	db, err := sql.Open("sqlite", "file:"+s.path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return domain.Op("Store.Backup", err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, out); err != nil {
		// A failed VACUUM INTO (a full disk, a cancelled context) can leave
		// its rollback journal beside the half-written copy: remove both.
		for _, f := range []string{out, out + "-journal", out + "-wal", out + "-shm"} {
			os.Remove(f)
		}
		return fmt.Errorf("backup to %s: %w", out, err)
	}
	f, err = os.Open(out)
	if err != nil {
		return domain.Op("Store.Backup", err)
	}
	defer f.Close()
	return domain.Op("Store.Backup", f.Sync())
}
