package tasks

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// The database holds password hashes and session secrets, so its files are
// for the server's own user only. SQLite gives the -wal and -shm files the
// mode of the database file, so creating that one 0600 covers all three.
const dbFileMode = 0o600

// createPrivate creates path empty with mode 0600 if it does not exist,
// and says whether it made it.
func createPrivate(path string) (bool, error) {
	if path == "" || path == ":memory:" || strings.HasPrefix(path, "file:") {
		return false, nil
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, dbFileMode)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("create database %s: %w", path, err)
	}
	return true, f.Close()
}

// ErrNoDatabase is returned by [Open] with [Existing] when the path
// names no file.
var ErrNoDatabase = errors.New("no such database file")

// mustExist fails with ErrNoDatabase when the database file at path does
// not exist. Paths that name no file (in memory, URIs) pass.
func mustExist(path string) error {
	if path == "" || path == ":memory:" || strings.HasPrefix(path, "file:") {
		return nil
	}
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: %w", path, ErrNoDatabase)
	case err != nil:
		return fmt.Errorf("database %s: %w", path, err)
	case st.IsDir():
		return fmt.Errorf("database %s is a directory", path)
	}
	return nil
}

// PermissionWarning names the database files that users other than the
// owner can read or write, or returns "" when there are none.
func (s *Store) PermissionWarning() string {
	var open []string
	for _, p := range []string{s.path, s.path + "-wal", s.path + "-shm"} {
		st, err := os.Stat(p)
		if err == nil && st.Mode().Perm()&0o077 != 0 {
			open = append(open, fmt.Sprintf("%s (%v)", p, st.Mode().Perm()))
		}
	}
	if len(open) == 0 {
		return ""
	}
	return fmt.Sprintf("other users on this host can read %s, which hold password hashes and session keys; run: chmod 600 %s*", strings.Join(open, ", "), s.path)
}
