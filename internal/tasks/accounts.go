package tasks

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"annotate/internal/domain"

	"golang.org/x/crypto/bcrypt"
)

// ChangeOwnPassword replaces a user's password after checking the current
// one, and ends all of the user's sessions (the caller starts a new one).
// A wrong current password is ErrBadCredentials.
func (s *Store) ChangeOwnPassword(ctx context.Context, userID int64, current, next string) error {
	var hash []byte
	var username string
	err := s.queryRow(ctx, `SELECT username, password_hash FROM users WHERE id = ?`, userID).Scan(&username, &hash)
	if errors.Is(err, sql.ErrNoRows) {
		return domain.Errorf(domain.ENotFound, "user not found")
	}
	if err != nil {
		return domain.Op("Store.ChangeOwnPassword", err)
	}
	if bcrypt.CompareHashAndPassword(hash, []byte(current)) != nil {
		return domain.Errorf(domain.EForbidden, "the current password is wrong")
	}
	if current == next {
		return domain.Errorf(domain.EInvalid, "new password: choose one different from the current password")
	}
	// The owner decides separately whether to revoke their tokens.
	return domain.Op("Store.ChangeOwnPassword", s.setPassword(ctx, username, next, false))
}

// SetAdmin makes an account an administrator or takes that away. The last
// enabled administrator cannot be demoted.
func (s *Store) SetAdmin(ctx context.Context, username string, admin bool) error {
	return domain.Op("Store.SetAdmin", s.tx(ctx, func(tx *sql.Tx) error {
		if !admin {
			var others int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM users WHERE is_admin AND NOT disabled AND username != ?`, username).Scan(&others); err != nil {
				return err
			}
			if others == 0 {
				return domain.Errorf(domain.EConflict, "%s is the last administrator", username)
			}
		}
		return mustAffect(tx.ExecContext(ctx, `UPDATE users SET is_admin = ? WHERE username = ?`, admin, username))
	}))
}

// RemoveMember takes a user out of a project. Their assignments and labels
// stay.
func (s *Store) RemoveMember(ctx context.Context, projectID, userID int64) error {
	return domain.Op("Store.RemoveMember", s.tx(ctx, func(tx *sql.Tx) error {
		return mustAffect(tx.ExecContext(ctx, `DELETE FROM memberships WHERE project_id = ? AND user_id = ?`, projectID, userID))
	}))
}

// CreatePasswordReset records a one-time link for a user, valid until
// expires, made by createdBy (0 for none); the caller keeps the token and
// gives the store its hash. It replaces the user's earlier links.
func (s *Store) CreatePasswordReset(ctx context.Context, userID, createdBy int64, tokenHash []byte, expires time.Time) error {
	return domain.Op("Store.CreatePasswordReset", s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM password_resets WHERE user_id = ? OR expires_at < ?`, userID, stamp(s.now())); err != nil {
			return err
		}
		var by any
		if createdBy != 0 {
			by = createdBy
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO password_resets (token_hash, user_id, created_by, expires_at) VALUES (?, ?, ?, ?)`,
			tokenHash, userID, by, stamp(expires))
		return err
	}))
}

// PasswordResetUser returns the account a valid one-time link is for.
func (s *Store) PasswordResetUser(ctx context.Context, tokenHash []byte) (*domain.User, error) {
	var id int64
	err := s.queryRow(ctx, `SELECT r.user_id FROM password_resets r JOIN users u ON u.id = r.user_id
		WHERE r.token_hash = ? AND r.expires_at >= ? AND NOT u.disabled`, tokenHash, stamp(s.now())).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, domain.Errorf(domain.ENotFound, "this link is not valid: it was used, replaced or has expired")
	}
	if err != nil {
		return nil, domain.Op("Store.PasswordResetUser", err)
	}
	val, err := s.UserByID(ctx, id)
	return val, domain.Op("Store.PasswordResetUser", err)
}

// UsePasswordReset sets the password of a valid one-time link's account,
// uses the link up and ends the account's sessions.
func (s *Store) UsePasswordReset(ctx context.Context, tokenHash []byte, password string) (*domain.User, error) {
	u, err := s.PasswordResetUser(ctx, tokenHash)
	if err != nil {
		return nil, domain.Op("Store.UsePasswordReset", err)
	}
	hash, err := hashPassword(password)
	if err != nil {
		return nil, domain.Op("Store.UsePasswordReset", err)
	}
	err = s.tx(ctx, func(tx *sql.Tx) error {
		if err := mustAffect(tx.ExecContext(ctx, `DELETE FROM password_resets WHERE token_hash = ? AND expires_at >= ?`, tokenHash, stamp(s.now()))); err != nil {
			return domain.Errorf(domain.ENotFound, "this link is not valid: it was used, replaced or has expired")
		}
		if _, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = ? WHERE id = ?`, hash, u.ID); err != nil {
			return err
		}
		return endUserSessions(ctx, tx, u.Username)
	})
	if err != nil {
		return nil, domain.Op("Store.UsePasswordReset", err)
	}
	return u, nil
}
