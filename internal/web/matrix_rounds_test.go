package web_test

import "fmt"

// Undoing a round's close and an assignment's release: leads only. They
// run after the matrix closed the round and released bob's second
// assignment, so the lead's undo succeeds and the admin's, coming second,
// finds nothing left to undo (409).
func init() {
	moreMatrix = append(moreMatrix,
		matrixEntry{route: "POST /p/:slug/rounds/:rid/reopen", want: access{anon, no, gone, no, see, conf}},
		matrixEntry{route: "POST /p/:slug/rounds/:rid/assignments/:aid/restore", want: access{anon, no, gone, no, see, conf}, path: func(m *matrixFixture) string {
			return fmt.Sprintf("/p/alpha/rounds/%d/assignments/%d/restore", m.round, m.assign["bob"][1].ID)
		}},
	)
}
