package tasks

import (
	"context"
	"database/sql"
	"encoding/json"
	"sync"

	"annotate/internal/domain"
)

// membershipRoundsSchema creates a counter per round of changes to which
// summaries the round gives out and how many sentences they have: the
// adjudication queue's per-round sentence counts depend on nothing else,
// and keeping each round's count while its counter stands spares reading
// the round's assignments on each view. The counter is kept per round so
// that dealing or releasing in one round leaves the others' counts
// standing: dealing a calibration round of 600 assignments no longer
// makes the next view read the 600,000 of the main round. Label saves and
// submissions do not bump it.
//
// It replaces the per-project counter of migration 16. The triggers
// insert through a join with rounds, so that when a round is deleted (and
// its counter row with it) the cascade's deletes of its assignments write
// no row back.
const membershipRoundsSchema = `DROP TRIGGER IF EXISTS membership_assignments_insert;
DROP TRIGGER IF EXISTS membership_assignments_delete;
DROP TRIGGER IF EXISTS membership_assignments_update;
DROP TRIGGER IF EXISTS membership_sentences_insert;
DROP TRIGGER IF EXISTS membership_sentences_delete;
DROP TABLE IF EXISTS membership_versions;
-- A counter per round of changes to the summaries it gives out and to their
-- sentences (see tasks.RoundGoldCounts).
CREATE TABLE IF NOT EXISTS membership_rounds (
    round_id INTEGER PRIMARY KEY REFERENCES rounds(id) ON DELETE CASCADE,
    version  INTEGER NOT NULL
);
CREATE TRIGGER IF NOT EXISTS membership_assignments_insert AFTER INSERT ON assignments BEGIN
    INSERT INTO membership_rounds (round_id, version) SELECT r.id, 1 FROM rounds r WHERE r.id = NEW.round_id
        ON CONFLICT (round_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS membership_assignments_delete AFTER DELETE ON assignments BEGIN
    INSERT INTO membership_rounds (round_id, version) SELECT r.id, 1 FROM rounds r WHERE r.id = OLD.round_id
        ON CONFLICT (round_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS membership_assignments_update AFTER UPDATE OF status, round_id, summary_id ON assignments
    WHEN (OLD.status = 'released') IS NOT (NEW.status = 'released') OR OLD.round_id IS NOT NEW.round_id OR OLD.summary_id IS NOT NEW.summary_id BEGIN
    INSERT INTO membership_rounds (round_id, version) SELECT r.id, 1 FROM rounds r WHERE r.id IN (OLD.round_id, NEW.round_id)
        ON CONFLICT (round_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS membership_sentences_insert AFTER INSERT ON summary_sentences BEGIN
    INSERT INTO membership_rounds (round_id, version) SELECT DISTINCT r.id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id
        WHERE a.summary_id = NEW.summary_id
        ON CONFLICT (round_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS membership_sentences_delete AFTER DELETE ON summary_sentences BEGIN
    INSERT INTO membership_rounds (round_id, version) SELECT DISTINCT r.id, 1 FROM assignments a JOIN rounds r ON r.id = a.round_id
        WHERE a.summary_id = OLD.summary_id
        ON CONFLICT (round_id) DO UPDATE SET version = version + 1;
END;`

// bumpMembership bumps the membership counter of every round in scope,
// for a change made with the triggers held (see heldTriggers.release).
func bumpMembership(ctx context.Context, tx *sql.Tx, sc countScope) error {
	rounds, arg := `SELECT id, 1 FROM rounds WHERE project_id = ?1 OR ?1 = 0`, sc.project
	if sc.round != 0 {
		rounds, arg = `SELECT id, 1 FROM rounds WHERE id = ?1`, sc.round
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO membership_rounds (round_id, version)
		`+rounds+`
		ON CONFLICT (round_id) DO UPDATE SET version = version + 1`, arg)
	return err
}

// roundCount is the number of sentences a round gives out, as of its
// membership version.
type roundCount struct {
	version   int64
	sentences int
}

// membershipCache holds the latest sentence count of each round, and the
// reads under way: views that miss the cache at once wait for one read
// rather than each reading every assignment of the round (0.86 s on
// 600,600 assignments).
type membershipCache struct {
	mu      sync.Mutex
	rounds  map[int64]roundCount
	loading map[memberKey]*memberLoad
	// joined, when set by tests, is called each time a view starts
	// waiting for another's read.
	joined func()
}

// memberKey names one round's members at one membership version.
type memberKey struct{ round, version int64 }

// memberLoad is a read of a round's sentence count under way; done is
// closed when sentences and err are set.
type memberLoad struct {
	done      chan struct{}
	sentences int
	err       error
}

// roundVersions returns the membership version of each of the project's
// rounds (0 before any change).
func roundVersions(ctx context.Context, q querier, projectID int64) (map[int64]int64, error) {
	out := map[int64]int64{}
	err := queryRows(ctx, q, `SELECT r.id, coalesce(m.version, 0) FROM rounds r
		LEFT JOIN membership_rounds m ON m.round_id = r.id WHERE r.project_id = ?`, func(rows *sql.Rows) error {
		var round, v int64
		if err := rows.Scan(&round, &v); err != nil {
			return err
		}
		out[round] = v
		return nil
	}, projectID)
	return out, err
}

// roundSentences returns the number of sentences each of the project's
// rounds gives out as q sees them, reading again only the rounds whose
// membership counter moved.
func (s *Store) roundSentences(ctx context.Context, q querier, projectID int64) (map[int64]int, error) {
	versions, err := roundVersions(ctx, q, projectID)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]int, len(versions))
	// Each round not kept at its version is read here (mine) or waited
	// for, when another view reads it already (theirs).
	type load struct {
		key memberKey
		*memberLoad
	}
	var mine, theirs []load
	c := &s.members
	c.mu.Lock()
	for round, v := range versions {
		if got, ok := c.rounds[round]; ok && got.version == v {
			out[round] = got.sentences
			continue
		}
		key := memberKey{round, v}
		if l := c.loading[key]; l != nil {
			theirs = append(theirs, load{key, l})
			continue
		}
		if c.loading == nil {
			c.loading = map[memberKey]*memberLoad{}
		}
		l := &memberLoad{done: make(chan struct{})}
		c.loading[key] = l
		mine = append(mine, load{key, l})
	}
	joined := c.joined
	c.mu.Unlock()
	if len(mine) > 0 {
		keys := make([]memberKey, len(mine))
		for i, l := range mine {
			keys[i] = l.key
		}
		counts, err := s.readRoundSentences(ctx, q, keys)
		c.mu.Lock()
		for _, l := range mine {
			l.sentences, l.err = counts[l.key.round], err
			delete(c.loading, l.key)
			if err != nil {
				continue
			}
			if c.rounds == nil {
				c.rounds = map[int64]roundCount{}
			}
			if cur, ok := c.rounds[l.key.round]; !ok || cur.version <= l.key.version {
				c.rounds[l.key.round] = roundCount{l.key.version, l.sentences}
			}
		}
		c.mu.Unlock()
		for _, l := range mine {
			close(l.done)
		}
		if err != nil {
			return nil, err
		}
		for _, l := range mine {
			out[l.key.round] = l.sentences
		}
	}
	if len(theirs) == 0 {
		return out, nil
	}
	if joined != nil {
		joined()
	}
	var again []memberKey
	for _, l := range theirs {
		select {
		case <-l.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if l.err != nil {
			// The read failed, perhaps ended by its own view's context:
			// read again under this one.
			again = append(again, l.key)
			continue
		}
		out[l.key.round] = l.sentences
	}
	if len(again) > 0 {
		counts, err := s.readRoundSentences(ctx, q, again)
		if err != nil {
			return nil, err
		}
		for _, key := range again {
			out[key.round] = counts[key.round]
		}
	}
	return out, nil
}

// membersRead, when set by tests, is called before each read of rounds'
// members, with the rounds read.
var membersRead func(rounds []int64)

// readRoundSentences reads the number of sentences each of the rounds
// gives out: the sentences of the summaries that have an assignment in
// the round other than a released one.
func (s *Store) readRoundSentences(ctx context.Context, q querier, rounds []memberKey) (map[int64]int, error) {
	ids := make([]int64, len(rounds))
	for i, k := range rounds {
		ids[i] = k.round
	}
	if membersRead != nil {
		membersRead(ids)
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]int, len(rounds))
	// A summary's sentences are numbered 1..n (imports and re-splits
	// write them so), so n is one index lookup instead of a walk over its
	// sentences; the sum is taken in the query, which hands over a row
	// per round rather than per summary.
	err = queryRows(ctx, q, `SELECT x.round_id, sum((SELECT max(idx) FROM summary_sentences WHERE summary_id = x.summary_id))
		FROM (SELECT DISTINCT round_id, summary_id FROM assignments
			WHERE round_id IN (SELECT value FROM json_each(?)) AND status != 'released') x
		GROUP BY x.round_id`, func(rows *sql.Rows) error {
		var round int64
		var n sql.NullInt64
		if err := rows.Scan(&round, &n); err != nil {
			return err
		}
		out[round] = int(n.Int64)
		return nil
	}, string(list))
	return out, err
}

// WarmRoundMembers reads the sentence count of every round of every
// project into the cache that the adjudication queue's counts come from,
// so that the first view after the server starts does not wait for them
// (0.7 s for a project of 600,600 assignments).
func (s *Store) WarmRoundMembers(ctx context.Context) error {
	ids, err := IDList(ctx, s.read, `SELECT id FROM projects ORDER BY id`)
	if err != nil {
		return domain.Op("Store.WarmRoundMembers", err)
	}
	for _, id := range ids {
		// A plain snapshot: the counts do not read the gold index, which
		// FreshSnapshot would first bring up to date.
		err := s.Snapshot(ctx, func(ctx context.Context) error {
			_, err := s.roundSentences(ctx, s.reader(ctx), id)
			return err
		})
		if err != nil {
			return domain.Op("Store.WarmRoundMembers", err)
		}
	}
	return nil
}
