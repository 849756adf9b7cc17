package export_test

import (
	"bytes"
	"testing"
	"time"

	"annotate/internal/export"
)

// TestSince keeps only what changed at or after the since filter: in the
// fixture labels are saved at 10:00 and submitted at 11:00 on January 2
// (one assignment of round extra is not submitted), and gold is decided
// at noon on January 3.
func TestSince(t *testing.T) {
	f := newFixture(t)
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	lines := func(b []byte) int { return bytes.Count(b, []byte("\n")) }
	all := lines(f.write(export.Options{What: export.Raw}))
	for _, c := range []struct {
		name string
		opt  export.Options
		want int // lines, the header and end records included
	}{
		{"raw since the labels were saved", export.Options{What: export.Raw, Since: at("2026-01-02T10:00:00Z")}, all},
		{"raw since after the last save keeps the submitted", export.Options{What: export.Raw, Since: at("2026-01-02T10:30:00Z")}, all - 1},
		{"raw since after everything", export.Options{What: export.Raw, Since: at("2026-01-02T11:00:01Z")}, 2},
		{"gold since it was decided", export.Options{What: export.Gold, Since: at("2026-01-03T12:00:00Z")}, lines(f.write(export.Options{What: export.Gold}))},
		{"gold since after every decision", export.Options{What: export.Gold, Since: at("2026-01-03T12:00:01Z")}, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			f.t = t
			got := f.write(c.opt)
			if n := lines(got); n != c.want {
				t.Fatalf("%d records, want %d:\n%s", n, c.want, got)
			}
			if !bytes.Contains(got, []byte(`"since":"`)) {
				t.Fatal("the header does not name the filter")
			}
		})
	}
}
