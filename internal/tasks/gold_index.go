package tasks

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"annotate/internal/domain"
)

// The gold index (table gold_tallies) keeps one row per sentence with
// gold: its project, summary, place, provenance and the rounds that gave
// its summary out, and, for gold that is unresolved or imported, what the
// adjudication queue sorts, filters and counts by (Tally.Score, the
// dimensions in disagreement, a majority ready to accept, a flag, the
// votes against imported gold). The queue page then counts and pages in
// SQL over an index instead of tallying every waiting sentence per view.
//
// Triggers do not compute tallies; they name the sentences whose row may
// be out of date in gold_tallies_stale (a label, a flag, the sentence's
// gold or an assignment of its summary changed), and refreshGoldIndex
// rewrites those rows from the labels before a read (see FreshSnapshot).
// Only the queue's own rows carry tallies, so a label saved on a sentence
// whose gold is unanimous names nothing.
const goldIndexSchema = `CREATE TABLE IF NOT EXISTS gold_tallies (
    sentence_id INTEGER PRIMARY KEY REFERENCES summary_sentences(id) ON DELETE CASCADE,
    project_id  INTEGER NOT NULL,
    summary_id  INTEGER NOT NULL,
    idx         INTEGER NOT NULL,
    provenance  TEXT NOT NULL,
    rounds      TEXT NOT NULL DEFAULT ',', -- ',3,7,': the rounds that gave the summary out (released assignments aside)
    votes       INTEGER NOT NULL DEFAULT 0, -- submitted annotators' rows (unresolved and imported gold only)
    top         REAL NOT NULL DEFAULT 0,    -- Tally.Score: the largest split of any dimension
    label_split REAL NOT NULL DEFAULT 0,    -- and the label's split
    split       INTEGER NOT NULL DEFAULT 0, -- dimensions in disagreement: 1 label, 2 error types, 4 ambiguity
    ready       INTEGER NOT NULL DEFAULT 0, -- a strict majority AcceptMajority would take
    flagged     INTEGER NOT NULL DEFAULT 0, -- an annotator flagged it for the leads
    against     INTEGER NOT NULL DEFAULT 0  -- imported gold: votes for another label
);
CREATE INDEX IF NOT EXISTS gold_tallies_queue ON gold_tallies(project_id, provenance, top DESC, label_split DESC, summary_id, idx, split, flagged, rounds);
CREATE INDEX IF NOT EXISTS gold_tallies_counts ON gold_tallies(project_id, provenance, rounds, ready, flagged, split, votes, against);
CREATE TABLE IF NOT EXISTS gold_tallies_stale (sentence_id INTEGER PRIMARY KEY) WITHOUT ROWID;
INSERT OR IGNORE INTO gold_tallies_stale (sentence_id) SELECT sentence_id FROM gold_sentences;
CREATE TRIGGER IF NOT EXISTS gold_tallies_gold_insert AFTER INSERT ON gold_sentences BEGIN
    INSERT INTO gold_tallies_stale (sentence_id) VALUES (NEW.sentence_id)
        ON CONFLICT DO NOTHING;
END;
CREATE TRIGGER IF NOT EXISTS gold_tallies_gold_update AFTER UPDATE OF provenance, label, decided_by ON gold_sentences BEGIN
    INSERT INTO gold_tallies_stale (sentence_id) VALUES (NEW.sentence_id)
        ON CONFLICT DO NOTHING;
END;
CREATE TRIGGER IF NOT EXISTS gold_tallies_gold_delete AFTER DELETE ON gold_sentences BEGIN
    INSERT INTO gold_tallies_stale (sentence_id) VALUES (OLD.sentence_id)
        ON CONFLICT DO NOTHING;
END;
CREATE TRIGGER IF NOT EXISTS gold_tallies_labels_insert AFTER INSERT ON sentence_labels BEGIN
    INSERT INTO gold_tallies_stale (sentence_id)
        SELECT sentence_id FROM gold_sentences WHERE sentence_id = NEW.sentence_id AND provenance IN ('unresolved', 'imported')
        ON CONFLICT DO NOTHING;
END;
CREATE TRIGGER IF NOT EXISTS gold_tallies_labels_update AFTER UPDATE ON sentence_labels BEGIN
    INSERT INTO gold_tallies_stale (sentence_id)
        SELECT sentence_id FROM gold_sentences WHERE sentence_id IN (NEW.sentence_id, OLD.sentence_id) AND provenance IN ('unresolved', 'imported')
        ON CONFLICT DO NOTHING;
END;
CREATE TRIGGER IF NOT EXISTS gold_tallies_labels_delete AFTER DELETE ON sentence_labels BEGIN
    INSERT INTO gold_tallies_stale (sentence_id)
        SELECT sentence_id FROM gold_sentences WHERE sentence_id = OLD.sentence_id AND provenance IN ('unresolved', 'imported')
        ON CONFLICT DO NOTHING;
END;
CREATE TRIGGER IF NOT EXISTS gold_tallies_flags_insert AFTER INSERT ON sentence_flags BEGIN
    INSERT INTO gold_tallies_stale (sentence_id)
        SELECT sentence_id FROM gold_sentences WHERE sentence_id = NEW.sentence_id AND provenance = 'unresolved'
        ON CONFLICT DO NOTHING;
END;
CREATE TRIGGER IF NOT EXISTS gold_tallies_flags_delete AFTER DELETE ON sentence_flags BEGIN
    INSERT INTO gold_tallies_stale (sentence_id)
        SELECT sentence_id FROM gold_sentences WHERE sentence_id = OLD.sentence_id AND provenance = 'unresolved'
        ON CONFLICT DO NOTHING;
END;
CREATE TRIGGER IF NOT EXISTS gold_tallies_assignments_insert AFTER INSERT ON assignments BEGIN
    INSERT INTO gold_tallies_stale (sentence_id)
        SELECT g.sentence_id FROM summary_sentences ss JOIN gold_sentences g ON g.sentence_id = ss.id WHERE ss.summary_id = NEW.summary_id
        ON CONFLICT DO NOTHING;
END;
CREATE TRIGGER IF NOT EXISTS gold_tallies_assignments_delete AFTER DELETE ON assignments BEGIN
    INSERT INTO gold_tallies_stale (sentence_id)
        SELECT g.sentence_id FROM summary_sentences ss JOIN gold_sentences g ON g.sentence_id = ss.id WHERE ss.summary_id = OLD.summary_id
        ON CONFLICT DO NOTHING;
END;
CREATE TRIGGER IF NOT EXISTS gold_tallies_assignments_update AFTER UPDATE OF status, submitted_at, user_id, round_id, summary_id ON assignments
    WHEN (OLD.status = 'released') != (NEW.status = 'released') OR (OLD.status = 'submitted') != (NEW.status = 'submitted')
        OR OLD.submitted_at IS NOT NEW.submitted_at OR OLD.user_id IS NOT NEW.user_id OR OLD.round_id IS NOT NEW.round_id
        OR OLD.summary_id IS NOT NEW.summary_id BEGIN
    INSERT INTO gold_tallies_stale (sentence_id)
        SELECT g.sentence_id FROM summary_sentences ss JOIN gold_sentences g ON g.sentence_id = ss.id WHERE ss.summary_id IN (OLD.summary_id, NEW.summary_id)
        ON CONFLICT DO NOTHING;
END;`

// goldIndexBatch is how many sentences refreshGoldIndex rewrites per
// write transaction, so that a save queued behind a refresh waits one
// batch at most. A lead's adjudication page refreshes what changed since
// the last view: under 100 annotators at 10× the demo corpus, 700–960
// sentences every few seconds. Batches of 1,000 held the writer 38–41 ms
// each, and every save that came meanwhile waited (the slowest saves of
// a load run came in bunches at each view); a batch of 128 holds it
// about 6 ms, one transaction's fixed cost being about 1 ms.
const goldIndexBatch = 128

// goldIndexWritten, when set (by tests), hears how many sentences each of
// refreshGoldIndex's transactions rewrote.
var goldIndexWritten func(n int)

// RefreshGoldIndex brings the gold index up to date beside other work:
// after each batch it rests as long as the batch took, leaving the writer
// to others at least half the time. A server runs it at start, so that
// the first adjudication page after an upgrade or a large import does not
// wait for the whole index.
func (s *Store) RefreshGoldIndex(ctx context.Context) error {
	return domain.Op("Store.RefreshGoldIndex", s.refreshGoldIndex(ctx, true))
}

// refreshGoldIndex rewrites the gold_tallies rows of every sentence named
// in gold_tallies_stale, in transactions of goldIndexBatch sentences;
// paced, it rests after each batch as long as the batch took.
func (s *Store) refreshGoldIndex(ctx context.Context, paced bool) error {
	for {
		t0 := time.Now()
		n := 0
		err := s.tx(ctx, func(tx *sql.Tx) error {
			ids, err := IDList(ctx, tx, `SELECT sentence_id FROM gold_tallies_stale LIMIT ?`, goldIndexBatch)
			if err != nil || len(ids) == 0 {
				return err
			}
			n = len(ids)
			return writeGoldIndex(ctx, tx, ids)
		})
		if err == nil && goldIndexWritten != nil {
			goldIndexWritten(n)
		}
		if err != nil || n < goldIndexBatch {
			return err
		}
		if paced {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Since(t0)):
			}
		}
	}
}

// goldIndexRow is one row of gold_tallies.
type goldIndexRow struct {
	sentence, project, summary int64
	idx                        int
	provenance, label          string
	reopened                   bool
	votes                      int
	tally                      domain.Tally
	flagged                    bool
}

// writeGoldIndex rewrites the rows of the sentences and takes them off
// the stale list.
func writeGoldIndex(ctx context.Context, tx *sql.Tx, ids []int64) error {
	list, err := json.Marshal(ids)
	if err != nil {
		return err
	}
	var rows []goldIndexRow
	err = queryRows(ctx, tx, `SELECT g.sentence_id, sm.project_id, ss.summary_id, ss.idx, g.provenance, g.label, g.decided_by IS NOT NULL
		FROM gold_sentences g CROSS JOIN summary_sentences ss ON ss.id = g.sentence_id CROSS JOIN summaries sm ON sm.id = ss.summary_id
		WHERE g.sentence_id IN (SELECT value FROM json_each(?)) ORDER BY ss.summary_id, ss.idx`, func(r *sql.Rows) error {
		var x goldIndexRow
		if err := r.Scan(&x.sentence, &x.project, &x.summary, &x.idx, &x.provenance, &x.label, &x.reopened); err != nil {
			return err
		}
		rows = append(rows, x)
		return nil
	}, string(list))
	if err != nil {
		return err
	}
	var tallied []int64
	var sums []int64
	for _, x := range rows {
		if x.provenance == domain.ProvUnresolved || x.provenance == domain.ProvImported {
			tallied = append(tallied, x.sentence)
		}
		if len(sums) == 0 || sums[len(sums)-1] != x.summary {
			sums = append(sums, x.summary)
		}
	}
	votes, err := countVotes(ctx, tx, tallied)
	if err != nil {
		return err
	}
	tallies := map[int64]domain.Tally{}
	if len(tallied) > 0 {
		tl, err := json.Marshal(tallied)
		if err != nil {
			return err
		}
		if tallies, err = loadTallies(ctx, tx, `l.sentence_id IN (SELECT value FROM json_each(?))`, string(tl)); err != nil {
			return err
		}
	}
	rounds, err := summaryRounds(ctx, tx, sums)
	if err != nil {
		return err
	}
	flags, err := summaryFlags(ctx, tx, sums)
	if err != nil {
		return err
	}
	// Rows of sentences without gold any more go; the others are written
	// over in place, so that the triggers keeping gold_counts
	// (gold_counts.go) run only where a counted column changes.
	kept := make([]int64, len(rows))
	for i, x := range rows {
		kept[i] = x.sentence
	}
	keptList, err := json.Marshal(kept)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM gold_tallies WHERE sentence_id IN (SELECT value FROM json_each(?1))
		AND sentence_id NOT IN (SELECT value FROM json_each(?2))`, string(list), string(keptList)); err != nil {
		return err
	}
	ins, err := tx.PrepareContext(ctx, `INSERT INTO gold_tallies (sentence_id, project_id, summary_id, idx, provenance, rounds,
		votes, top, label_split, split, ready, flagged, against) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (sentence_id) DO UPDATE SET project_id = excluded.project_id, summary_id = excluded.summary_id,
		idx = excluded.idx, provenance = excluded.provenance, rounds = excluded.rounds, votes = excluded.votes,
		top = excluded.top, label_split = excluded.label_split, split = excluded.split, ready = excluded.ready,
		flagged = excluded.flagged, against = excluded.against`)
	if err != nil {
		return err
	}
	defer ins.Close()
	for _, x := range rows {
		x.votes = votes[x.sentence]
		t, ok := tallies[x.sentence]
		if !ok {
			t = domain.TallyVotes(nil)
		}
		x.tally = t
		x.flagged = len(flags[x.sentence]) > 0
		top, label, split, ready, against := x.scores()
		if _, err := ins.ExecContext(ctx, x.sentence, x.project, x.summary, x.idx, x.provenance, roundsKey(rounds[x.summary]),
			x.votes, top, label, split, ready, x.flagged, against); err != nil {
			return err
		}
	}
	_, err = tx.ExecContext(ctx, `DELETE FROM gold_tallies_stale WHERE sentence_id IN (SELECT value FROM json_each(?))`, string(list))
	return err
}

// scores are the row's queue columns: zero for gold that is neither
// unresolved nor imported.
func (x goldIndexRow) scores() (top, label float64, split int, ready bool, against int) {
	if x.provenance != domain.ProvUnresolved && x.provenance != domain.ProvImported {
		return 0, 0, 0, false, 0
	}
	t := x.tally
	top, label = t.Score()
	for i, d := range domain.Dimensions {
		if t.Disagrees(d) {
			split |= 1 << i
		}
	}
	p := domain.PendingSentence{Tally: t, Reopened: x.reopened}
	if x.flagged {
		p.Flags = []string{""}
	}
	ready = x.provenance == domain.ProvUnresolved && p.MajorityReady()
	if x.provenance == domain.ProvImported {
		for _, c := range t.Labels {
			if c.Value != x.label {
				against += c.N
			}
		}
	}
	return top, label, split, ready, against
}

// countVotes counts, per sentence, the rows loadTallies reads of it:
// submitted assignments' labels, each annotator once. A sentence with
// none has no votes (imported gold nobody labelled since).
func countVotes(ctx context.Context, q querier, ids []int64) (map[int64]int, error) {
	out := map[int64]int{}
	if len(ids) == 0 {
		return out, nil
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, err
	}
	err = queryRows(ctx, q, `SELECT l.sentence_id, count(DISTINCT a.user_id) FROM sentence_labels l
		JOIN assignments a ON a.id = l.assignment_id AND a.status = 'submitted'
		WHERE l.sentence_id IN (SELECT value FROM json_each(?)) GROUP BY l.sentence_id`, func(r *sql.Rows) error {
		var id int64
		var n int
		if err := r.Scan(&id, &n); err != nil {
			return err
		}
		out[id] = n
		return nil
	}, string(list))
	return out, err
}

// roundsKey writes round ids as the rounds column keeps them: ",3,7,",
// so that one round is found with instr(rounds, ',3,').
func roundsKey(rounds []int64) string {
	var b strings.Builder
	b.WriteByte(',')
	for _, r := range rounds {
		b.WriteString(strconv.FormatInt(r, 10))
		b.WriteByte(',')
	}
	return b.String()
}

// parseRoundsKey reads a rounds column back.
func parseRoundsKey(key string) ([]int64, error) {
	var out []int64
	for _, f := range strings.Split(strings.Trim(key, ","), ",") {
		if f == "" {
			continue
		}
		id, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return nil, errors.New("gold index: bad rounds " + strconv.Quote(key))
		}
		out = append(out, id)
	}
	return out, nil
}

type freshKey struct{}

// freshTries is how many times FreshSnapshot refreshes and looks again
// when writes name stale rows between its refresh and its snapshot.
const freshTries = 4

// freshWait bounds how long FreshSnapshot brings the index up to date
// before it reads: an import holding the writer, or the first view after
// an upgrade or a large import (half a million rows), would otherwise
// hold the page. The snapshot then sees rows not yet rewritten (see
// StaleGoldRows), which the server's paced refresh at start, or the next
// view, catches up on.
var freshWait atomic.Int64 // nanoseconds

func init() { freshWait.Store(int64(2 * time.Second)) }

// SetFreshWaitForTests shortens how long a page waits for the gold index
// before it reads the index as it is, for tests that hold the writer on
// purpose; it returns a function that restores the wait. It panics
// outside a test binary.
func SetFreshWaitForTests(d time.Duration) (restore func()) {
	if !testing.Testing() {
		panic("tasks: SetFreshWaitForTests called outside a test")
	}
	old := freshWait.Swap(int64(d))
	return func() { freshWait.Store(old) }
}

// FreshSnapshot runs fn inside a snapshot (see Snapshot) in which the
// gold index is current: it brings the index up to date, opens the
// snapshot and, when a write named a stale row in between, closes it and
// tries again (a few times; then fn reads rows at most the last
// milliseconds' writes behind). When more rows wait than freshBacklog,
// or the index cannot be brought up to date within freshWait, fn reads
// it as it is (KeepGoldIndexCurrent catches up in the background);
// StaleGoldRows says how many rows are behind. Called inside one, it
// runs fn there.
func (s *Store) FreshSnapshot(ctx context.Context, fn func(ctx context.Context) error) error {
	if ctx.Value(freshKey{}) == s {
		return domain.Op("Store.FreshSnapshot", fn(ctx))
	}
	errStale := errors.New("stale")
	for try := 1; ; try++ {
		n, err := goldBacklog(ctx, s.read, freshBacklog.Load())
		if err != nil {
			return domain.Op("Store.FreshSnapshot", err)
		}
		// More rows wait than a page should wait for: the server's
		// KeepGoldIndexCurrent rewrites them in the background, and the
		// page reads the index as it is.
		waited := n > freshBacklog.Load()
		if waited {
			s.kickGoldIndex()
		} else {
			rctx, cancel := context.WithTimeout(ctx, time.Duration(freshWait.Load()))
			err = s.refreshGoldIndex(rctx, false)
			late := rctx.Err() != nil
			cancel()
			// The writer was not ours in time (an import or another
			// process holds it): read the index as it is.
			waited = err != nil && ctx.Err() == nil && (late || unavailable(err) != nil)
			if err != nil && !waited {
				return domain.Op("Store.FreshSnapshot", err)
			}
		}
		err = s.Snapshot(context.WithValue(ctx, freshKey{}, s), func(ctx context.Context) error {
			if !waited && try < freshTries {
				n, err := goldBacklog(ctx, s.reader(ctx), 0)
				if err != nil {
					return err
				}
				if n > 0 {
					return errStale
				}
			}
			return fn(ctx)
		})
		if !errors.Is(err, errStale) {
			return domain.Op("Store.FreshSnapshot", err)
		}
	}
}

// StaleRowsCounted is the most rows StaleGoldRows counts: past it, it
// returns StaleRowsCounted+1, which pages show as "more than". Counting
// the half million rows a 1.5M-label import leaves took 0.26-0.30 s of
// every page view while the index caught up.
const StaleRowsCounted = 10000

// StaleGoldRows counts the rows of project projectID's gold index that
// wait to be rewritten, as the snapshot in ctx sees them, up to
// StaleRowsCounted+1: 0 inside a FreshSnapshot unless it read the index
// as it was (see FreshSnapshot).
func (s *Store) StaleGoldRows(ctx context.Context, projectID int64) (int, error) {
	q := s.reader(ctx)
	some, err := goldBacklog(ctx, q, 0)
	if err != nil || some == 0 {
		return 0, domain.Op("Store.StaleGoldRows", err)
	}
	var n int
	err = q.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM gold_tallies_stale st
		JOIN summary_sentences ss ON ss.id = st.sentence_id JOIN summaries s ON s.id = ss.summary_id
		WHERE s.project_id = ? LIMIT ?)`, projectID, StaleRowsCounted+1).Scan(&n)
	return n, domain.Op("Store.StaleGoldRows", err)
}
