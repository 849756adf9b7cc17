package web_test

import (
	"fmt"

	"annotate/internal/domain"
)

// Calibration feedback: after the round closes, an annotator of the round
// reads their own feedback (bob, the other annotator, reads his own too),
// never someone else's (403); a lead reads anyone's; members of other
// projects get 404.
func init() {
	moreMatrix = append(moreMatrix,
		matrixEntry{route: "GET /p/:slug/rounds/:rid/feedback", want: access{see, ok, gone, ok, ok, ok}, path: func(m *matrixFixture) string {
			return m.feedbackPath("")
		}},
		matrixEntry{route: "GET /p/:slug/rounds/:rid/feedback", want: access{see, no, gone, ok, ok, ok}, path: func(m *matrixFixture) string {
			return m.feedbackPath(fmt.Sprintf("?annotator=%d", m.assign["ann"][0].UserID))
		}},
	)
}

// feedbackRounds holds the closed calibration round each matrix fixture
// made for these entries.
var feedbackRounds = map[*matrixFixture]int64{}

// feedbackPath makes (once) a calibration round for ann and bob, closes it
// and returns its feedback path with the query appended.
func (m *matrixFixture) feedbackPath(query string) string {
	id, ok := feedbackRounds[m]
	if !ok {
		sums, err := m.store.SummaryIDs(m.ctx, m.project.ID, nil)
		if err != nil {
			m.t.Fatal(err)
		}
		r, err := m.store.CreateRound(m.ctx, m.project.ID, domain.RoundSpec{Name: "matrix calibration", Kind: domain.RoundCalibration,
			Annotators: []int64{m.assign["ann"][0].UserID, m.assign["bob"][0].UserID}, Summaries: sums})
		if err != nil {
			m.t.Fatal(err)
		}
		if err := m.store.CloseRound(m.ctx, r.ID); err != nil {
			m.t.Fatal(err)
		}
		id = r.ID
		feedbackRounds[m] = id
	}
	return fmt.Sprintf("/p/alpha/rounds/%d/feedback%s", id, query)
}
