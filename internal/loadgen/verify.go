package loadgen

import (
	"context"
	"database/sql"
	"fmt"

	_ "modernc.org/sqlite" // the "sqlite" driver
)

// Verification is what Verify found.
type Verification struct {
	Acks      int // acknowledged saves checked
	Pairs     int // (assignment, sentence) pairs they cover
	Problems  []string
	Integrity string
}

// OK reports whether nothing was wrong.
func (v Verification) OK() bool { return len(v.Problems) == 0 && v.Integrity == "ok" }

// Verify checks the database at path against the saves a run saw
// acknowledged: each acknowledged save is in the label history exactly
// once under its annotator (allowing, per pair, up to unacked further
// saves that the server committed but could not acknowledge, as when it is
// killed), the current label is the last acknowledged one unless such a
// save followed, no label sits under another annotator's assignment, and
// PRAGMA integrity_check passes.
//
// since is the label history's highest id before the run (see Baseline),
// so that saves made before the run are not counted.
func Verify(ctx context.Context, path string, acks []Ack, unacked int, since int64) (Verification, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)&_pragma=query_only(ON)")
	if err != nil {
		return Verification{}, err
	}
	defer db.Close()
	var v Verification
	if err := db.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&v.Integrity); err != nil {
		return v, err
	}
	type key struct{ a, s int64 }
	count := map[key]int{}
	last := map[key]Ack{}
	for _, a := range acks {
		k := key{a.Assignment, a.Sentence}
		count[k]++
		last[k] = a
	}
	v.Acks, v.Pairs = len(acks), len(count)
	problem := func(format string, args ...any) {
		if len(v.Problems) < 50 {
			v.Problems = append(v.Problems, fmt.Sprintf(format, args...))
		}
	}
	for k, n := range count {
		ack := last[k]
		var owner string
		if err := db.QueryRowContext(ctx, `SELECT u.username FROM assignments a JOIN users u ON u.id = a.user_id WHERE a.id = ?`, k.a).Scan(&owner); err != nil {
			problem("assignment %d: %v", k.a, err)
			continue
		}
		if owner != ack.User {
			problem("assignment %d belongs to %s but %s's save was acknowledged on it", k.a, owner, ack.User)
		}
		var rows, mine int
		if err := db.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(u.username = ?), 0) FROM sentence_label_history h JOIN users u ON u.id = h.user_id
			WHERE h.assignment_id = ? AND h.sentence_id = ? AND h.id > ?`, ack.User, k.a, k.s, since).Scan(&rows, &mine); err != nil {
			return v, err
		}
		if mine != rows {
			problem("assignment %d sentence %d: %d of %d history rows are not %s's", k.a, k.s, rows-mine, rows, ack.User)
		}
		if rows < n || rows > n+unacked {
			problem("assignment %d sentence %d: %d acknowledged saves, %d in the history", k.a, k.s, n, rows)
		}
		var label string
		err := db.QueryRowContext(ctx, `SELECT label FROM sentence_labels WHERE assignment_id = ? AND sentence_id = ?`, k.a, k.s).Scan(&label)
		if err != nil {
			problem("assignment %d sentence %d: acknowledged label missing: %v", k.a, k.s, err)
		} else if label != ack.Label && rows == n {
			problem("assignment %d sentence %d: label %q, last acknowledged %q", k.a, k.s, label, ack.Label)
		}
	}
	return v, nil
}

// Baseline returns the highest label-history id in the database at path,
// to be passed to Verify after a run.
func Baseline(ctx context.Context, path string) (int64, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)&_pragma=query_only(ON)")
	if err != nil {
		return 0, err
	}
	defer db.Close()
	var id int64
	err = db.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) FROM sentence_label_history`).Scan(&id)
	return id, err
}
