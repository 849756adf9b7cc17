package web_test

import (
	"fmt"
	"net/url"
	"strconv"
)

// The adjudication routes: leads (and admins) only; annotators of the
// project get 403, leads of another project 404.
func init() {
	moreMatrix = append(moreMatrix,
		matrixEntry{route: "GET /p/:slug/adjudication", want: leadPage},
		matrixEntry{route: "POST /p/:slug/adjudication/resolve", want: access{anon, no, gone, no, see, see}},
		matrixEntry{route: "POST /p/:slug/adjudication/majority", want: access{anon, no, gone, no, see, see}, form: func(m *matrixFixture) url.Values {
			return url.Values{"round": {strconv.FormatInt(m.round, 10)}}
		}},
		matrixEntry{route: "GET /p/:slug/adjudication/s/:sum", want: leadPage, path: func(m *matrixFixture) string { return m.adjPath("") }},
		matrixEntry{route: "POST /p/:slug/adjudication/s/:sum/gold/:sen", want: access{anon, no, gone, no, see, see},
			path: func(m *matrixFixture) string { return m.adjPath("/gold") },
			form: func(m *matrixFixture) url.Values {
				return url.Values{"label": {"faithful"}, "ambiguous": {"no"}, "version": {m.goldVersion()}}
			}},
		// The admin finds the sentence already reopened by the lead.
		matrixEntry{route: "POST /p/:slug/adjudication/s/:sum/reopen/:sen", want: access{anon, no, gone, no, see, conf},
			path: func(m *matrixFixture) string { return m.adjPath("/reopen") },
			form: func(m *matrixFixture) url.Values { return url.Values{"version": {m.goldVersion()}} }},
	)
}

// adjPath is the adjudication page of ann's first summary, or with suffix
// "/gold" or "/reopen" the decision route of its first sentence.
func (m *matrixFixture) adjPath(suffix string) string {
	sum := m.assign["ann"][0].SummaryID
	p := fmt.Sprintf("/p/alpha/adjudication/s/%d", sum)
	if suffix != "" {
		p += fmt.Sprintf("%s/%d", suffix, m.sentences[sum][0])
	}
	return p
}

// goldVersion is the current gold version of that sentence.
func (m *matrixFixture) goldVersion() string {
	sum := m.assign["ann"][0].SummaryID
	v, err := m.store.GoldVersions(m.ctx, sum)
	if err != nil {
		m.t.Fatal(err)
	}
	return strconv.Itoa(v[m.sentences[sum][0]])
}
