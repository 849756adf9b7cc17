package tasks

import (
	"context"
	"database/sql"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPackedTextRoundTrip packs columns in SQLite and reads them back:
// random texts of multi-byte characters, commas, colons and digits,
// empty texts, NULLs (read as "") and integers (read as their decimal
// text), as the columns came one by one.
func TestPackedTextRoundTrip(t *testing.T) {
	db, err := sql.Open(driverName, "file:"+filepath.Join(t.TempDir(), "p.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, `CREATE TABLE t (a TEXT, b TEXT, c INTEGER, d TEXT)`); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"", "a", ",", ":", "12", "é", "日本", "\n", "'", `"`, "0,3:"}
	text := func() any {
		if rng.IntN(6) == 0 {
			return nil
		}
		var b strings.Builder
		for range rng.IntN(5) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return b.String()
	}
	for range 300 {
		var c any
		if rng.IntN(3) > 0 {
			c = rng.IntN(2000) - 1000
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO t VALUES (?, ?, ?, ?)`, text(), text(), c, text()); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := db.QueryContext(ctx, `SELECT coalesce(a, ''), coalesce(b, ''), coalesce(c, ''), coalesce(d, ''), `+packedText("a", "b", "c", "d")+` FROM t`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		want := make([]string, 4)
		var packed string
		if err := rows.Scan(&want[0], &want[1], &want[2], &want[3], &packed); err != nil {
			t.Fatal(err)
		}
		got := make([]string, 4)
		if err := unpackText(packed, got); err != nil || !slices.Equal(got, want) {
			t.Fatalf("%q unpacked to %q (%v), want %q", packed, got, err, want)
		}
		n++
	}
	if err := rows.Err(); err != nil || n != 300 {
		t.Fatalf("%d rows, %v", n, err)
	}
	// Malformed values are refused, not read past.
	out := make([]string, 2)
	for _, bad := range []string{"", "1,", "1,1:", "1,1:abc", "x,1:ab", "-1,1:ab", "2,1;abc", "5,0:ab"} {
		if err := unpackText(bad, out); err == nil {
			t.Errorf("unpackText(%q) = %q, want an error", bad, out)
		}
	}
}
