package domain

import (
	"strings"
	"testing"
)

// TestExcerptsShowTheDifference: whatever the values' length, the line
// shows the characters that differ, with "…" where unchanged text is cut.
func TestExcerptsShowTheDifference(t *testing.T) {
	long := strings.Repeat("ä", 500)
	cases := []struct{ old, new, wantOld, wantNew string }{
		{"", "new", "(none)", `"new"`},
		{"same start, old end", "same start, new end", `"same start, old end"`, `"same start, new end"`},
		{long + "x" + long, long + "y" + long, `…"` + strings.Repeat("ä", 30) + "x" + strings.Repeat("ä", 30) + `"…`, `…"` + strings.Repeat("ä", 30) + "y" + strings.Repeat("ä", 30) + `"…`},
		{"a" + long, "b" + long, `"a` + strings.Repeat("ä", 30) + `"…`, `"b` + strings.Repeat("ä", 30) + `"…`},
	}
	for _, c := range cases {
		o, n := excerpts(c.old, c.new)
		if o != c.wantOld || n != c.wantNew {
			t.Errorf("excerpts(%.20q…, %.20q…) = %s, %s; want %s, %s", c.old, c.new, o, n, c.wantOld, c.wantNew)
		}
	}
	o, _ := excerpts("", strings.Repeat("z", 1000))
	_, n := excerpts("", strings.Repeat("z", 1000))
	if o != "(none)" || !strings.HasSuffix(n, "[600 more characters]") {
		t.Errorf("a long new value: %s / %.60s", o, n)
	}
}
