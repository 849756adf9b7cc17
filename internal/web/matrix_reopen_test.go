package web_test

import (
	"net/url"
	"strconv"
)

// Reopening gold from the adjudication queue: leads (and admins) only. The
// admin, coming after the lead, finds the sentence already reopened (409).
func init() {
	moreMatrix = append(moreMatrix,
		matrixEntry{route: "POST /p/:slug/adjudication/reopen", want: access{anon, no, gone, no, see, conf}, form: func(m *matrixFixture) url.Values {
			sum := m.assign["ann"][0].SummaryID
			sid := m.sentences[sum][1]
			v, err := m.store.GoldVersions(m.ctx, sum)
			if err != nil {
				m.t.Fatal(err)
			}
			return url.Values{"sentence": {strconv.FormatInt(sid, 10)}, "version": {strconv.Itoa(v[sid])}}
		}},
	)
}
