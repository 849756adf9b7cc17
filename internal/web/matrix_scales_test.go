package web_test

import "net/url"

func init() {
	moreMatrix = append(moreMatrix,
		// By the time this runs the matrix has closed the owner's round and
		// matrix_rounds_test.go has reopened it, so the owner may still
		// change the submitted assignment; the matrix's project defines no
		// rating scales, so the owner's save passes every access check and
		// is refused for its content: 422, no scale "consistency".
		matrixEntry{route: "POST /a/:id/scale", want: access{anon, gone, gone, bad, no, no}, form: func(m *matrixFixture) url.Values {
			return url.Values{"scale": {"consistency"}, "sentence": {"0"}, "value": {"4"}, "version": {m.version()}}
		}},
	)
}
