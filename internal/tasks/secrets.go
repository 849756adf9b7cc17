package tasks

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"

	"annotate/internal/domain"
)

// Secret returns the named server secret, creating it with size random
// bytes on first use. Session keys live here so that restarts keep users
// logged in and no key file has to be managed.
func (s *Store) Secret(ctx context.Context, name string, size int) ([]byte, error) {
	var v []byte
	// A secret made before is read without the write lock, so that the
	// server starts beside another process's long write.
	err := s.read.QueryRowContext(ctx, `SELECT value FROM secrets WHERE name = ?`, name).Scan(&v)
	if !errors.Is(err, sql.ErrNoRows) {
		return v, domain.Op("Store.Secret", err)
	}
	err = s.tx(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `SELECT value FROM secrets WHERE name = ?`, name).Scan(&v)
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		v = make([]byte, size)
		if _, err := rand.Read(v); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO secrets (name, value) VALUES (?, ?)`, name, v)
		return err
	})
	return v, domain.Op("Store.Secret", err)
}
