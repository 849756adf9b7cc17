package tasks

import (
	"context"
	"database/sql"
	"time"

	"annotate/internal/domain"
)

// An account's sessions and API tokens (stored by internal/access) end
// with the account's own changes: a new password, a disabled account,
// "sign out everywhere". These statements run inside those transactions.

// EndUserSessions ends every session of a user except keep (0 for none)
// and returns how many ended.
func (s *Store) EndUserSessions(ctx context.Context, userID, keep int64) (int, error) {
	var n int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE user_id = ? AND id != ?`, userID, keep)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return int(n), domain.Op("Store.EndUserSessions", err)
}

// endUserSessions ends every session of the named user inside tx.
func endUserSessions(ctx context.Context, tx *sql.Tx, username string) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE user_id = (SELECT id FROM users WHERE username = ?)`, username)
	return err
}

// RotateSessionKeys replaces the server's secrets with new random ones and
// ends every session: every user logs in again.
func (s *Store) RotateSessionKeys(ctx context.Context) (int, error) {
	var n int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM secrets`); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM sessions`)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return int(n), domain.Op("Store.RotateSessionKeys", err)
}

// RevokeUserTokens ends every API token of an account at once and returns
// how many were still live: for "sign out everywhere" and a password
// change whose owner asks for it.
func (s *Store) RevokeUserTokens(ctx context.Context, userID int64) (int, error) {
	var n int
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var username string
		if err := tx.QueryRowContext(ctx, `SELECT username FROM users WHERE id = ?`, userID).Scan(&username); err == sql.ErrNoRows {
			return domain.Errorf(domain.ENotFound, "user not found")
		} else if err != nil {
			return err
		}
		var err error
		n, err = s.revokeUserTokens(ctx, tx, username)
		return err
	})
	return n, domain.Op("Store.RevokeUserTokens", err)
}

// revokeUserTokens revokes the live tokens of an account.
func (s *Store) revokeUserTokens(ctx context.Context, tx *sql.Tx, username string) (int, error) {
	res, err := tx.ExecContext(ctx, `UPDATE api_tokens SET revoked_at = ?
		WHERE user_id = (SELECT id FROM users WHERE username = ?) AND revoked_at IS NULL`, s.now().UTC().Format(time.RFC3339Nano), username)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}
