package web_test

import (
	"crypto/sha256"
	"net/url"
	"strconv"
	"time"

	"annotate/internal/domain"
)

func init() {
	moreMatrix = append(moreMatrix,
		matrixEntry{route: "GET /account", want: access{see, ok, ok, ok, ok, ok}},
		matrixEntry{route: "GET /account/sessions", want: access{see, ok, ok, ok, ok, ok}},
		matrixEntry{route: "GET /admin/users", want: access{see, no, no, no, no, ok}},
		// A one-time link works for whoever holds it.
		matrixEntry{route: "GET /account/reset/:token", want: access{ok, ok, ok, ok, ok, ok}, path: resetPath},
		matrixEntry{route: "POST /account/reset/:token", want: access{ok, ok, ok, ok, ok, ok}, path: resetPath,
			form: func(*matrixFixture) url.Values {
				return url.Values{"new": {"a brand new password"}, "confirm": {"a brand new password"}}
			}},
		// A wrong current password: the form comes back, nobody's password changes.
		matrixEntry{route: "POST /account/password", want: access{anon, bad, bad, bad, bad, bad}, form: func(*matrixFixture) url.Values {
			return url.Values{"current": {"not my password"}, "new": {"another long password"}, "confirm": {"another long password"}}
		}},
		// Nobody can end a session that is not theirs.
		matrixEntry{route: "POST /account/sessions/:sid/end", want: access{anon, gone, gone, gone, gone, gone},
			path: func(*matrixFixture) string { return "/account/sessions/999999/end" }},
		matrixEntry{route: "POST /account/sessions/end-others", want: access{anon, see, see, see, see, see}},
		matrixEntry{route: "POST /admin/users", want: access{anon, no, no, no, no, ok}, form: func(m *matrixFixture) url.Values {
			m.n++
			return url.Values{"username": {"new" + strconv.Itoa(m.n)}, "credential": {"password"}}
		}},
		matrixEntry{route: "POST /admin/users/:uid/:action", want: access{anon, no, no, no, no, see}, path: func(m *matrixFixture) string {
			return "/admin/users/" + strconv.FormatInt(m.eve().ID, 10) + "/signout"
		}},
		matrixEntry{route: "POST /p/:slug/members", want: access{anon, no, gone, no, see, see}, form: func(*matrixFixture) url.Values {
			return url.Values{"username": {"eve"}, "role": {"annotator"}}
		}},
		matrixEntry{route: "POST /p/:slug/members/:uid/remove", want: access{anon, no, gone, no, see, see}, path: func(m *matrixFixture) string {
			eve := m.eve()
			if err := m.store.SetMember(m.ctx, m.project.ID, eve.ID, "annotator"); err != nil {
				m.t.Fatal(err)
			}
			return "/p/alpha/members/" + strconv.FormatInt(eve.ID, 10) + "/remove"
		}},
	)
}

// eve is the fixture's account that belongs to no project.
func (m *matrixFixture) eve() *domain.User {
	u, err := m.store.UserByName(m.ctx, "eve")
	if err != nil {
		m.t.Fatal(err)
	}
	return u
}

// resetPath makes a fresh one-time link for eve.
func resetPath(m *matrixFixture) string {
	m.n++
	token := "matrix-reset-token-" + strconv.Itoa(m.n)
	h := sha256.Sum256([]byte(token))
	if err := m.store.CreatePasswordReset(m.ctx, m.eve().ID, 0, h[:], time.Now().Add(time.Hour)); err != nil {
		m.t.Fatal(err)
	}
	return "/account/reset/" + token
}
