package tasks

import (
	"context"
	"database/sql"
	"errors"

	"annotate/internal/domain"

	"golang.org/x/crypto/bcrypt"
)

func hashPassword(password string) ([]byte, error) {
	if len(password) < domain.MinPasswordLength {
		return nil, domain.Errorf(domain.EInvalid, "password must be at least %d characters long", domain.MinPasswordLength)
	}
	if len(password) > 72 {
		return nil, domain.Errorf(domain.EInvalid, "password must be at most 72 bytes long")
	}
	return bcrypt.GenerateFromPassword([]byte(password), PasswordCost())
}

// CreateUser adds an account. A taken username is an EConflict error.
func (s *Store) CreateUser(ctx context.Context, username, displayName, password string, admin bool) (*domain.User, error) {
	if err := domain.ValidateUsername(username); err != nil {
		return nil, domain.Op("Store.CreateUser", err)
	}
	hash, err := hashPassword(password)
	if err != nil {
		return nil, domain.Op("Store.CreateUser", err)
	}
	if displayName == "" {
		displayName = username
	}
	if err := domain.CheckText("display name", displayName, domain.MaxNameLen, false); err != nil {
		return nil, domain.Op("Store.CreateUser", err)
	}
	var id int64
	err = s.tx(ctx, func(tx *sql.Tx) error {
		// An identity an import made for an unknown annotator name never
		// keeps the name from a real account: it moves aside to NAME~ID,
		// a form no account can have ('~' is not allowed in usernames),
		// keeping its labels and its display name.
		if _, err := tx.ExecContext(ctx, `UPDATE users SET username = username || '~' || id
			WHERE username = ? AND id IN (SELECT user_id FROM imported_users)`, username); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM users WHERE username = ?`, username).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return domain.Errorf(domain.EConflict, "user %q already exists", username)
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO users (username, display_name, password_hash, is_admin) VALUES (?, ?, ?, ?)`,
			username, displayName, hash, admin)
		if err != nil {
			return err
		}
		id, err = res.LastInsertId()
		return err
	})
	if err != nil {
		return nil, domain.Op("Store.CreateUser", err)
	}
	val, err := s.UserByID(ctx, id)
	return val, domain.Op("Store.CreateUser", err)
}

const userColumns = `id, username, display_name, is_admin, disabled, created_at`

func scanUser(row interface{ Scan(...any) error }) (*domain.User, error) {
	var u domain.User
	err := row.Scan(&u.ID, &u.Username, &u.DisplayName, &u.IsAdmin, &u.Disabled, &u.CreatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, domain.Errorf(domain.ENotFound, "user not found")
	}
	return &u, err
}

// UserByID returns the account with the given id.
func (s *Store) UserByID(ctx context.Context, id int64) (*domain.User, error) {
	val, err := scanUser(s.queryRow(ctx, `SELECT `+userColumns+` FROM users WHERE id = ?`, id))
	return val, domain.Op("Store.UserByID", err)
}

// UserByName returns the account with the given username.
func (s *Store) UserByName(ctx context.Context, username string) (*domain.User, error) {
	val, err := scanUser(s.queryRow(ctx, `SELECT `+userColumns+` FROM users WHERE username = ?`, username))
	return val, domain.Op("Store.UserByName", err)
}

// Users lists every account by username.
func (s *Store) Users(ctx context.Context) ([]domain.User, error) {
	rows, err := s.query(ctx, `SELECT `+userColumns+` FROM users ORDER BY username`)
	if err != nil {
		return nil, domain.Op("Store.Users", err)
	}
	defer rows.Close()
	var out []domain.User
	for rows.Next() {
		u, err := scanUser(rows)
		if err != nil {
			return nil, domain.Op("Store.Users", err)
		}
		out = append(out, *u)
	}
	return out, domain.Op("Store.Users", rows.Err())
}

// Authenticate checks a username and password and returns the account.
func (s *Store) Authenticate(ctx context.Context, username, password string) (*domain.User, error) {
	var id int64
	var hash []byte
	var disabled bool
	err := s.queryRow(ctx, `SELECT id, password_hash, disabled FROM users WHERE username = ?`, username).Scan(&id, &hash, &disabled)
	if errors.Is(err, sql.ErrNoRows) {
		bcrypt.CompareHashAndPassword(dummyHash(), []byte(password))
		return nil, domain.Op("Store.Authenticate", domain.ErrBadCredentials)
	}
	if err != nil {
		return nil, domain.Op("Store.Authenticate", err)
	}
	if bcrypt.CompareHashAndPassword(hash, []byte(password)) != nil || disabled {
		return nil, domain.Op("Store.Authenticate", domain.ErrBadCredentials)
	}
	val, err := s.UserByID(ctx, id)
	return val, domain.Op("Store.Authenticate", err)
}

// SetPassword replaces an account's password, ends all its sessions and
// revokes its API tokens: it is how an administrator (or the command line)
// takes an account back, and a recovered account must not stay reachable
// through a token its old holder kept.
func (s *Store) SetPassword(ctx context.Context, username, password string) error {
	return domain.Op("Store.SetPassword", s.setPassword(ctx, username, password, true))
}

// setPassword replaces a password and ends the account's sessions,
// revoking its tokens too when revoke is set.
func (s *Store) setPassword(ctx context.Context, username, password string, revoke bool) error {
	hash, err := hashPassword(password)
	if err != nil {
		return err
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		if err := mustAffect(tx.ExecContext(ctx, `UPDATE users SET password_hash = ? WHERE username = ?`, hash, username)); err != nil {
			return err
		}
		if err := endUserSessions(ctx, tx, username); err != nil || !revoke {
			return err
		}
		_, err := s.revokeUserTokens(ctx, tx, username)
		return err
	})
}

// SetDisabled disables or re-enables an account. Disabling ends its
// sessions and revokes its API tokens, so enabling it again brings back
// neither.
func (s *Store) SetDisabled(ctx context.Context, username string, disabled bool) error {
	return domain.Op("Store.SetDisabled", s.tx(ctx, func(tx *sql.Tx) error {
		if err := mustAffect(tx.ExecContext(ctx, `UPDATE users SET disabled = ? WHERE username = ?`, disabled, username)); err != nil {
			return err
		}
		if disabled {
			if err := endUserSessions(ctx, tx, username); err != nil {
				return err
			}
			_, err := s.revokeUserTokens(ctx, tx, username)
			return err
		}
		return nil
	}))
}

// mustAffect turns an UPDATE that matched no row into ENotFound.
func mustAffect(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return domain.Errorf(domain.ENotFound, "not found")
	}
	return nil
}

// MustAffect turns an UPDATE or DELETE that matched no row into
// ENotFound, for sibling stores.
func MustAffect(res sql.Result, err error) error {
	return domain.Op("MustAffect", mustAffect(res, err))
}
