package export_test

import (
	"bytes"
	"testing"

	"annotate/internal/export"
	"annotate/internal/tasks"
)

// TestRoundWalkSameAsProjectWalk checks that an export of a round gives
// the same bytes whether it walks the round's summaries or every summary
// of the project, for every kind and format, anonymised or not, with a
// released assignment in the round. The
// fixture's rounds cover most of its few summaries, so by share they
// walk the project; each walk is forced in turn.
func TestRoundWalkSameAsProjectWalk(t *testing.T) {
	f := newFixture(t)
	// A released assignment of another summary in round "extra": neither
	// walk may export that summary with the round.
	f.exec(`INSERT INTO assignments (round_id, summary_id, user_id, position, status)
		SELECT id, ?, ?, 999, 'released' FROM rounds WHERE name = 'extra'`, f.sums["s1"], f.users["ann"].ID)
	opts := []export.Options{
		{What: export.Gold}, {What: export.Gold, Format: export.CSV},
		{What: export.Raw}, {What: export.Raw, Format: export.CSV, Anonymise: true},
		{What: export.TofuEval}, {What: export.Scores},
	}
	for _, round := range []string{"cal", "extra"} {
		for _, opt := range opts {
			opt.Round = round
			restore := tasks.SetRoundWalkForTests(false)
			project := f.write(opt)
			restore()
			restore = tasks.SetRoundWalkForTests(true)
			byRound := f.write(opt)
			restore()
			if len(bytes.TrimSpace(project)) == 0 || bytes.Count(project, []byte("\n")) < 2 {
				t.Fatalf("%s %s %s: export is empty:\n%s", round, opt.What, opt.Format, project)
			}
			if !bytes.Equal(project, byRound) {
				t.Errorf("%s %s %s: walking the round gives\n%s\nwalking the project\n%s", round, opt.What, opt.Format, byRound, project)
			}
		}
	}
}
