package web_test

import (
	"fmt"
	"net/url"
)

// Correcting a summary's split: leads only. The matrix's summaries carry
// labels by the time these entries run, so a lead's correction is refused
// with 409 (labelling has started), after the role check.
func init() {
	moreMatrix = append(moreMatrix,
		matrixEntry{route: "GET /p/:slug/summaries/:sum/split", want: leadPage, path: func(m *matrixFixture) string {
			return fmt.Sprintf("/p/alpha/summaries/%d/split", m.assign["ann"][0].SummaryID)
		}},
		matrixEntry{route: "POST /p/:slug/summaries/:sum/split", want: access{anon, no, gone, no, conf, conf}, path: func(m *matrixFixture) string {
			return fmt.Sprintf("/p/alpha/summaries/%d/split", m.assign["ann"][0].SummaryID)
		}, form: func(*matrixFixture) url.Values {
			return url.Values{"sentences": {"The council approved the budget.\nThe vote was unanimous <script>alert(1)</script>."}}
		}},
	)
}
