package web_test

import "net/url"

func init() {
	moreMatrix = append(moreMatrix,
		// The owner's round is closed by the time this runs (the matrix
		// closes it), so even the owner's save is refused as a conflict.
		matrixEntry{route: "POST /a/:id/scale", want: access{anon, gone, gone, conf, no, no}, form: func(m *matrixFixture) url.Values {
			return url.Values{"scale": {"consistency"}, "sentence": {"0"}, "value": {"4"}, "version": {m.version()}}
		}},
	)
}
