package web_test

import "net/url"

// Skipping is the annotator's own business: leads and admins get 403,
// others 404. The matrix's last routes close the round, so by the time
// these run the owner's skip is refused with 409 (closed round).
func init() {
	moreMatrix = append(moreMatrix,
		matrixEntry{route: "POST /a/:id/skip", want: access{anon, gone, gone, conf, no, no}, form: func(*matrixFixture) url.Values {
			return url.Values{"reason": {"The transcript is cut off."}}
		}},
		matrixEntry{route: "POST /a/:id/unskip", want: access{anon, gone, gone, conf, no, no}},
	)
}
