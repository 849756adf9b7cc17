package tasks

import (
	"slices"
	"testing"
)

// labelTexts splits by byte lengths, so texts holding commas, digits or
// characters of several bytes come back whole, and a value it cannot
// split is an error, not texts shifted by a few bytes.
func TestLabelTexts(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"0,0,0,0,", []string{"", "", "", "", ""}},
		{"4,9,0,6,why?vagueness12, 3,not a label", []string{"why?", "vagueness", "", "12, 3,", "not a label"}},
		{"4,0,3,0,éàx,1,", []string{"éà", "", "x,1", "", ","}},
	} {
		var got [5]string
		if err := labelTexts(c.in, got[:]); err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if !slices.Equal(got[:], c.want) {
			t.Errorf("%q: %q, want %q", c.in, got, c.want)
		}
	}
	for _, bad := range []string{"", "1,2", "4,0,0,0,abc", "x,0,0,0,", "-1,0,0,0,a"} {
		var got [5]string
		if err := labelTexts(bad, got[:]); err == nil {
			t.Errorf("%q: split as %q", bad, got)
		}
	}
}
