package web_test

import (
	"fmt"
	"net/url"
	"time"

	"annotate/internal/authn"
)

func init() {
	moreMatrix = append(moreMatrix,
		matrixEntry{route: "GET /account/tokens", want: access{see, ok, ok, ok, ok, ok}},
		matrixEntry{route: "POST /account/tokens", want: access{anon, ok, ok, ok, ok, ok}, form: func(*matrixFixture) url.Values {
			return url.Values{"name": {"matrix"}, "expires": {"7d"}}
		}},
		// lea's token: only lea and an administrator may revoke it.
		matrixEntry{route: "POST /account/tokens/:id/revoke", want: access{anon, gone, gone, gone, see, see}, path: func(m *matrixFixture) string {
			lea := must(m.store.UserByName(m.ctx, "lea"))(m.t)
			toks := must(authn.New(m.store).Tokens(m.ctx, lea.ID))(m.t)
			if len(toks) == 0 {
				t, _, err := authn.New(m.store).CreateToken(m.ctx, lea.ID, authn.TokenSpec{Name: "matrix", TTL: time.Hour})
				if err != nil {
					panic(err)
				}
				toks = append(toks, *t)
			}
			return fmt.Sprintf("/account/tokens/%d/revoke", toks[len(toks)-1].ID)
		}},
	)
}
