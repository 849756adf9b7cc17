package authn

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"annotate/internal/domain"
	"annotate/internal/tasks"
)

// Session is a logged-in browser session. The cookie's token is never
// stored; TokenHash is its SHA-256.
type Session struct {
	ID         int64
	UserID     int64
	CSRF       string
	Data       string
	Address    string
	UserAgent  string
	CreatedAt  time.Time
	LastSeenAt time.Time
	ExpiresAt  time.Time
}

const sessionColumns = `id, user_id, csrf, data, address, user_agent, created_at, last_seen_at, expires_at`

func scanSession(row interface{ Scan(...any) error }) (*Session, error) {
	var ss Session
	var created, seen, expires string
	err := row.Scan(&ss.ID, &ss.UserID, &ss.CSRF, &ss.Data, &ss.Address, &ss.UserAgent, &created, &seen, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, domain.Errorf(domain.ENotFound, "session not found")
	}
	if err != nil {
		return nil, err
	}
	ss.CreatedAt, _ = time.Parse(time.RFC3339Nano, created)
	ss.LastSeenAt, _ = time.Parse(time.RFC3339Nano, seen)
	ss.ExpiresAt, _ = time.Parse(time.RFC3339Nano, expires)
	return &ss, nil
}

// CreateSession records a new session for a user and returns its id.
func (s *Store) CreateSession(ctx context.Context, tokenHash []byte, ss Session) (int64, error) {
	var id int64
	err := s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO sessions (token_hash, user_id, csrf, data, address, user_agent, created_at, last_seen_at, expires_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, tokenHash, ss.UserID, ss.CSRF, ss.Data, ss.Address, ss.UserAgent,
			tasks.Stamp(ss.CreatedAt), tasks.Stamp(ss.LastSeenAt), tasks.Stamp(ss.ExpiresAt))
		if err != nil {
			return err
		}
		id, err = res.LastInsertId()
		return err
	})
	return id, domain.Op("Store.CreateSession", err)
}

// SessionByTokenHash returns the session whose token hashes to h.
func (s *Store) SessionByTokenHash(ctx context.Context, h []byte) (*Session, error) {
	val, err := scanSession(s.tasks.Reader(ctx).QueryRowContext(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE token_hash = ?`, h))
	return val, domain.Op("Store.SessionByTokenHash", err)
}

// UpdateSession stores a session's data and when it was last seen.
func (s *Store) UpdateSession(ctx context.Context, id int64, data string, lastSeen time.Time) error {
	return domain.Op("Store.UpdateSession", s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE sessions SET data = ?, last_seen_at = ? WHERE id = ?`, data, tasks.Stamp(lastSeen), id)
		return err
	}))
}

// DeleteSession ends one session. With userID non-zero, only a session of
// that user is ended (a user ending their own sessions); tasks.ENotFound
// otherwise.
func (s *Store) DeleteSession(ctx context.Context, id, userID int64) error {
	return domain.Op("Store.DeleteSession", s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		if userID == 0 {
			_, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE id = ?`, id)
			return err
		}
		return tasks.MustAffect(tx.ExecContext(ctx, `DELETE FROM sessions WHERE id = ? AND user_id = ?`, id, userID))
	}))
}

// UserSessions lists a user's sessions, most recently seen first.
func (s *Store) UserSessions(ctx context.Context, userID int64) ([]Session, error) {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE user_id = ? ORDER BY last_seen_at DESC, id DESC`, userID)
	if err != nil {
		return nil, domain.Op("Store.UserSessions", err)
	}
	defer rows.Close()
	var out []Session
	for rows.Next() {
		ss, err := scanSession(rows)
		if err != nil {
			return nil, domain.Op("Store.UserSessions", err)
		}
		out = append(out, *ss)
	}
	return out, domain.Op("Store.UserSessions", rows.Err())
}

// DeleteExpiredSessions removes sessions past their expiry or idle for
// longer than idle.
func (s *Store) DeleteExpiredSessions(ctx context.Context, now time.Time, idle time.Duration) error {
	return domain.Op("Store.DeleteExpiredSessions", s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE expires_at < ? OR last_seen_at < ?`, tasks.Stamp(now), tasks.Stamp(now.Add(-idle)))
		return err
	}))
}
