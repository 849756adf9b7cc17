package web

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"time"

	"github.com/gorilla/sessions"

	"annotate/internal/authn"
	"annotate/internal/domain"
)

// dbStore is a gorilla/sessions Store that keeps logged-in sessions in the
// database, so they can be listed and ended. The cookie carries only a
// random token; the database keeps its SHA-256. A visitor who has not
// logged in gets a token too (no row), which their login form's CSRF token
// is derived from; logging in replaces it with a new one.
type dbStore struct {
	store      sessionRows
	cookieName string
	secure     bool
	now        func() time.Time
	maxAge     time.Duration // absolute lifetime of a logged-in session
	idle       time.Duration // a session unused this long ends
	csrfKey    []byte        // derives anonymous visitors' CSRF tokens
}

// sessionRows is what dbStore needs of the sessions' store
// (internal/authn).
type sessionRows interface {
	CreateSession(ctx context.Context, tokenHash []byte, ss authn.Session) (int64, error)
	SessionByTokenHash(ctx context.Context, h []byte) (*authn.Session, error)
	UpdateSession(ctx context.Context, id int64, data string, lastSeen time.Time) error
	DeleteSession(ctx context.Context, id, userID int64) error
	DeleteExpiredSessions(ctx context.Context, now time.Time, idle time.Duration) error
}

// Raw keys of session values; only this file and session.go use them.
const (
	keyRowID   = "_row"
	keyCSRF    = "_csrf"
	keyAddress = "_addr"
	keyAgent   = "_agent"
)

// touchEvery bounds how often a session's last-seen time is written.
const touchEvery = time.Minute

func newToken() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

func tokenHash(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// validToken reports whether a cookie value has the shape of a token, so
// that junk never reaches the database.
func validToken(v string) bool {
	b, err := base64.RawURLEncoding.DecodeString(v)
	return err == nil && len(b) == 32
}

// Get returns the request's session, loading it once per request.
func (d *dbStore) Get(r *http.Request, name string) (*sessions.Session, error) {
	return sessions.GetRegistry(r).Get(d, name)
}

// New loads the session named by the request's cookie, or starts an
// anonymous one. Expired, idle or ended sessions come back anonymous.
func (d *dbStore) New(r *http.Request, name string) (*sessions.Session, error) {
	sess := sessions.NewSession(d, name)
	sess.IsNew = true
	c, err := r.Cookie(d.cookieName)
	if err != nil || !validToken(c.Value) {
		return sess, nil
	}
	sess.ID = c.Value
	row, err := d.store.SessionByTokenHash(r.Context(), tokenHash(c.Value))
	if domain.ErrorCode(err) == domain.ENotFound {
		return sess, nil
	}
	if err != nil {
		return sess, err
	}
	now := d.now()
	if now.After(row.ExpiresAt) || now.Sub(row.LastSeenAt) > d.idle {
		// Ended by time: forget it and start over with a new token.
		sess.ID = ""
		return sess, d.store.DeleteSession(r.Context(), row.ID, 0)
	}
	var data map[string]string
	_ = json.Unmarshal([]byte(row.Data), &data)
	for k, v := range data {
		sess.Values[k] = v
	}
	sess.Values[keyUserID] = row.UserID
	sess.Values[keyRowID] = row.ID
	sess.Values[keyCSRF] = row.CSRF
	sess.IsNew = false
	if now.Sub(row.LastSeenAt) >= touchEvery {
		if err := d.store.UpdateSession(r.Context(), row.ID, row.Data, now); err != nil {
			return sess, err
		}
	}
	return sess, nil
}

// Save writes the session: a logged-in session without a row gets a new
// token and row (login), one with a row has its data updated, MaxAge < 0
// ends it, and an anonymous session only gets its token cookie.
func (d *dbStore) Save(r *http.Request, w http.ResponseWriter, sess *sessions.Session) error {
	ctx := r.Context()
	rowID, _ := sess.Values[keyRowID].(int64)
	if sess.Options != nil && sess.Options.MaxAge < 0 {
		if rowID != 0 {
			if err := d.store.DeleteSession(ctx, rowID, 0); err != nil {
				return err
			}
		}
		sess.Values = map[any]any{}
		sess.ID = ""
		http.SetCookie(w, d.cookie("", -1))
		return nil
	}
	uid, _ := sess.Values[keyUserID].(int64)
	data := map[string]string{}
	for k, v := range sess.Values {
		ks, _ := k.(string)
		vs, ok := v.(string)
		if ok && ks != "" && ks[0] != '_' {
			data[ks] = vs
		}
	}
	raw, _ := json.Marshal(data)
	switch {
	case uid != 0 && rowID == 0:
		now := d.now()
		token := newToken()
		addr, _ := sess.Values[keyAddress].(string)
		agent, _ := sess.Values[keyAgent].(string)
		row := authn.Session{UserID: uid, CSRF: newToken(), Data: string(raw), Address: addr, UserAgent: agent,
			CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(d.maxAge)}
		if err := d.store.DeleteExpiredSessions(ctx, now, d.idle); err != nil {
			return err
		}
		id, err := d.store.CreateSession(ctx, tokenHash(token), row)
		if err != nil {
			return err
		}
		delete(sess.Values, keyAddress)
		delete(sess.Values, keyAgent)
		sess.ID = token
		sess.Values[keyRowID] = id
		sess.Values[keyCSRF] = row.CSRF
		sess.IsNew = false
		http.SetCookie(w, d.cookie(token, int(d.maxAge.Seconds())))
	case rowID != 0:
		if err := d.store.UpdateSession(ctx, rowID, string(raw), d.now()); err != nil {
			return err
		}
	default:
		if sess.ID == "" {
			sess.ID = newToken()
			http.SetCookie(w, d.cookie(sess.ID, 0))
		}
	}
	return nil
}

// csrfToken is the session's CSRF token: random per logged-in session,
// derived from the token for anonymous visitors (so a planted cookie is of
// no use without the server's key).
func (d *dbStore) csrfToken(sess *sessions.Session) string {
	if t, ok := sess.Values[keyCSRF].(string); ok && t != "" {
		return t
	}
	if sess.ID == "" {
		return ""
	}
	m := hmac.New(sha256.New, d.csrfKey)
	m.Write([]byte("anonymous csrf\x00" + sess.ID))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

func (d *dbStore) cookie(value string, maxAge int) *http.Cookie {
	return &http.Cookie{
		Name:     d.cookieName,
		Value:    value,
		Path:     "/",
		MaxAge:   maxAge,
		HttpOnly: true,
		Secure:   d.secure,
		SameSite: http.SameSiteLaxMode,
	}
}
