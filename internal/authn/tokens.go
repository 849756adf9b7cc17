package authn

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"time"

	"annotate/internal/domain"
)

// Token is a personal access token for the JSON API. The secret itself is
// never stored; only its SHA-256 is.
type Token struct {
	ID         int64
	UserID     int64
	Username   string
	Name       string
	Hint       string // the first characters of the secret
	ReadOnly   bool
	Projects   []int64 // empty: every project the account may read
	ExpiresAt  time.Time
	CreatedAt  string
	LastUsedAt string
	RevokedAt  string
}

// Active reports whether the token still opens the API at now.
func (t *Token) Active(now time.Time) bool { return t.RevokedAt == "" && now.Before(t.ExpiresAt) }

// AllowsProject reports whether the token may reach project id.
func (t *Token) AllowsProject(id int64) bool {
	if len(t.Projects) == 0 {
		return true
	}
	for _, p := range t.Projects {
		if p == id {
			return true
		}
	}
	return false
}

// TokenSpec describes a token to create.
type TokenSpec struct {
	Name     string
	TTL      time.Duration // how long from now it works
	ReadOnly bool
	Projects []int64
}

// TokenPrefix starts every token, so a leaked one is easy to recognise.
const TokenPrefix = "ann_"

// Token limits.
const (
	MaxTokenName = 100
	MaxTokenTTL  = 366 * 24 * time.Hour
	// DefaultTokenTTL is the expiry of a token created without one.
	DefaultTokenTTL = 90 * 24 * time.Hour
	// MaxTokensPerUser bounds the live tokens of one account.
	MaxTokensPerUser = 50
	tokenSecretBytes = 32
	// Write last_used_at at most this often, so that a busy script does
	// not turn every read into a write.
	tokenUseGranularity = time.Minute
)

// ErrBadToken is returned for an unknown, revoked or expired token and for
// a disabled account alike.
var ErrBadToken = domain.Errorf(domain.EForbidden, "the token is unknown, revoked or expired")

func hashToken(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}

// Validate checks a token spec.
func (t TokenSpec) Validate() error {
	if name := strings.TrimSpace(t.Name); name == "" || len(name) > MaxTokenName {
		return domain.Errorf(domain.EInvalid, "name: give the token a name of 1 to %d characters", MaxTokenName)
	}
	if t.TTL < time.Minute || t.TTL > MaxTokenTTL {
		return domain.Errorf(domain.EInvalid, "expires: a token lasts between a minute and %d days", int(MaxTokenTTL.Hours()/24))
	}
	return nil
}

// CreateToken makes a token for an account and returns it with its secret,
// which is not kept and cannot be shown again. Projects must be projects
// the account belongs to (any project for an administrator).
func (s *Store) CreateToken(ctx context.Context, userID int64, spec TokenSpec) (*Token, string, error) {
	spec.Name = strings.TrimSpace(spec.Name)
	if err := spec.Validate(); err != nil {
		return nil, "", domain.Op("Store.CreateToken", err)
	}
	raw := make([]byte, tokenSecretBytes)
	if _, err := rand.Read(raw); err != nil {
		return nil, "", domain.Op("Store.CreateToken", err)
	}
	secret := TokenPrefix + base64.RawURLEncoding.EncodeToString(raw)
	expires := s.tasks.Now().UTC().Add(spec.TTL)
	var id int64
	err := s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		var admin bool
		if err := tx.QueryRowContext(ctx, `SELECT is_admin FROM users WHERE id = ?`, userID).Scan(&admin); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return domain.Errorf(domain.ENotFound, "user not found")
			}
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM api_tokens WHERE user_id = ? AND revoked_at IS NULL AND expires_at > ?`,
			userID, s.tasks.Now().UTC().Format(time.RFC3339Nano)).Scan(&n); err != nil {
			return err
		}
		if n >= MaxTokensPerUser {
			return domain.Errorf(domain.EInvalid, "this account already has %d tokens; revoke some first", n)
		}
		for _, p := range spec.Projects {
			var ok bool
			if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM projects WHERE id = ?1 AND (?2 OR EXISTS (SELECT 1 FROM memberships WHERE project_id = ?1 AND user_id = ?3)))`,
				p, admin, userID).Scan(&ok); err != nil {
				return err
			}
			if !ok {
				return domain.Errorf(domain.EInvalid, "projects: the account is not a member of project %d", p)
			}
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO api_tokens (user_id, name, hash, hint, read_only, expires_at) VALUES (?, ?, ?, ?, ?, ?)`,
			userID, spec.Name, hashToken(secret), secret[:len(TokenPrefix)+4], spec.ReadOnly, expires.Format(time.RFC3339Nano))
		if err != nil {
			return err
		}
		if id, err = res.LastInsertId(); err != nil {
			return err
		}
		for _, p := range spec.Projects {
			if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO api_token_projects (token_id, project_id) VALUES (?, ?)`, id, p); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, "", domain.Op("Store.CreateToken", err)
	}
	t, err := s.TokenByID(ctx, id)
	return t, secret, domain.Op("Store.CreateToken", err)
}

const tokenColumns = `t.id, t.user_id, u.username, t.name, t.hint, t.read_only, t.expires_at, t.created_at,
	coalesce(t.last_used_at, ''), coalesce(t.revoked_at, ''),
	(SELECT coalesce(group_concat(project_id), '') FROM api_token_projects WHERE token_id = t.id)`

func scanToken(row interface{ Scan(...any) error }) (*Token, error) {
	var t Token
	var expires, projects string
	err := row.Scan(&t.ID, &t.UserID, &t.Username, &t.Name, &t.Hint, &t.ReadOnly, &expires, &t.CreatedAt, &t.LastUsedAt, &t.RevokedAt, &projects)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, domain.Errorf(domain.ENotFound, "token not found")
	}
	if err != nil {
		return nil, err
	}
	if t.ExpiresAt, err = time.Parse(time.RFC3339Nano, expires); err != nil {
		return nil, err
	}
	for _, p := range strings.Split(projects, ",") {
		if p == "" {
			continue
		}
		id, err := strconv.ParseInt(p, 10, 64)
		if err != nil {
			return nil, err
		}
		t.Projects = append(t.Projects, id)
	}
	return &t, nil
}

// TokenByID returns a token, revoked or not.
func (s *Store) TokenByID(ctx context.Context, id int64) (*Token, error) {
	val, err := scanToken(s.tasks.Reader(ctx).QueryRowContext(ctx, `SELECT `+tokenColumns+` FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.id = ?`, id))
	return val, domain.Op("Store.TokenByID", err)
}

// Tokens lists the tokens of one account (userID > 0) or of every account
// (userID 0), newest first, revoked ones included.
func (s *Store) Tokens(ctx context.Context, userID int64) ([]Token, error) {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, `SELECT `+tokenColumns+` FROM api_tokens t JOIN users u ON u.id = t.user_id
		WHERE ?1 = 0 OR t.user_id = ?1 ORDER BY t.id DESC`, userID)
	if err != nil {
		return nil, domain.Op("Store.Tokens", err)
	}
	defer rows.Close()
	var out []Token
	for rows.Next() {
		t, err := scanToken(rows)
		if err != nil {
			return nil, domain.Op("Store.Tokens", err)
		}
		out = append(out, *t)
	}
	return out, domain.Op("Store.Tokens", rows.Err())
}

// AuthenticateToken returns the token and account a secret belongs to. An
// unknown, revoked or expired token, or one of a disabled account, is
// ErrBadToken.
func (s *Store) AuthenticateToken(ctx context.Context, secret string) (*Token, *domain.User, error) {
	if !strings.HasPrefix(secret, TokenPrefix) || len(secret) > 200 {
		return nil, nil, domain.Op("Store.AuthenticateToken", ErrBadToken)
	}
	t, err := scanToken(s.tasks.Reader(ctx).QueryRowContext(ctx, `SELECT `+tokenColumns+` FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.hash = ?`, hashToken(secret)))
	if domain.ErrorCode(err) == domain.ENotFound {
		return nil, nil, domain.Op("Store.AuthenticateToken", ErrBadToken)
	}
	if err != nil {
		return nil, nil, domain.Op("Store.AuthenticateToken", err)
	}
	now := s.tasks.Now().UTC()
	if !t.Active(now) {
		return nil, nil, domain.Op("Store.AuthenticateToken", ErrBadToken)
	}
	u, err := s.tasks.UserByID(ctx, t.UserID)
	if err != nil {
		return nil, nil, domain.Op("Store.AuthenticateToken", err)
	}
	if u.Disabled {
		return nil, nil, domain.Op("Store.AuthenticateToken", ErrBadToken)
	}
	if last, err := time.Parse(time.RFC3339Nano, t.LastUsedAt); err != nil || now.Sub(last) >= tokenUseGranularity {
		err := s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, `UPDATE api_tokens SET last_used_at = ? WHERE id = ?`, now.Format(time.RFC3339Nano), t.ID)
			return err
		})
		if err != nil {
			return nil, nil, domain.Op("Store.AuthenticateToken", err)
		}
		t.LastUsedAt = now.Format(time.RFC3339Nano)
	}
	return t, u, nil
}

// RevokeToken ends a token at once. Only its owner or an administrator may
// revoke it; for anyone else it does not exist. Revoking a revoked token
// changes nothing.
func (s *Store) RevokeToken(ctx context.Context, id int64, by *domain.User) error {
	t, err := s.TokenByID(ctx, id)
	if err != nil {
		return domain.Op("Store.RevokeToken", err)
	}
	if t.UserID != by.ID && !by.IsAdmin {
		return domain.Errorf(domain.ENotFound, "token not found")
	}
	return domain.Op("Store.RevokeToken", s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE api_tokens SET revoked_at = ?, revoked_by = ? WHERE id = ? AND revoked_at IS NULL`,
			s.tasks.Now().UTC().Format(time.RFC3339Nano), by.ID, id)
		return err
	}))
}

// ParseTokenTTL reads a token lifetime: a number of days ("30d") or a Go
// duration ("720h"); "" is DefaultTokenTTL.
func ParseTokenTTL(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return DefaultTokenTTL, nil
	}
	if d, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(d)
		if err != nil || n < 0 || n > 10000 {
			return 0, domain.Errorf(domain.EInvalid, "expires: %q is not a number of days such as 30d or a duration such as 12h", s)
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, domain.Errorf(domain.EInvalid, "expires: %q is not a number of days such as 30d or a duration such as 12h", s)
	}
	return d, nil
}
