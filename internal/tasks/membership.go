package tasks

import (
	"context"
	"database/sql"
	"sync"
)

// membershipVersionsSQL creates a counter per project of changes to which
// summaries each round gives out and how many sentences they have: the
// adjudication queue's per-round sentence counts depend on nothing else,
// and keeping them while the counter stands spares reading every
// assignment of the project on each view. Label saves and submissions do
// not bump it.
const membershipVersionsSQL = `-- A counter per project of changes to the summaries rounds give out and to
-- their sentences (see tasks.RoundGoldCounts).
CREATE TABLE IF NOT EXISTS membership_versions (
    project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    version    INTEGER NOT NULL
);
CREATE TRIGGER IF NOT EXISTS membership_assignments_insert AFTER INSERT ON assignments BEGIN
    INSERT INTO membership_versions (project_id, version) SELECT r.project_id, 1 FROM rounds r WHERE r.id = NEW.round_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS membership_assignments_delete AFTER DELETE ON assignments BEGIN
    INSERT INTO membership_versions (project_id, version) SELECT r.project_id, 1 FROM rounds r WHERE r.id = OLD.round_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS membership_assignments_update AFTER UPDATE OF status, round_id, summary_id ON assignments
    WHEN (OLD.status = 'released') IS NOT (NEW.status = 'released') OR OLD.round_id IS NOT NEW.round_id OR OLD.summary_id IS NOT NEW.summary_id BEGIN
    INSERT INTO membership_versions (project_id, version) SELECT r.project_id, 1 FROM rounds r WHERE r.id IN (OLD.round_id, NEW.round_id)
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS membership_sentences_insert AFTER INSERT ON summary_sentences BEGIN
    INSERT INTO membership_versions (project_id, version) SELECT s.project_id, 1 FROM summaries s WHERE s.id = NEW.summary_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER IF NOT EXISTS membership_sentences_delete AFTER DELETE ON summary_sentences BEGIN
    INSERT INTO membership_versions (project_id, version) SELECT s.project_id, 1 FROM summaries s WHERE s.id = OLD.summary_id
        ON CONFLICT (project_id) DO UPDATE SET version = version + 1;
END;`

// roundMembers is what RoundGoldCounts keeps of a project between views:
// the sentences each round gives out and the rounds of each summary, as of
// a membership version.
type roundMembers struct {
	version   int64
	sentences map[int64]int     // round id to sentences given out
	rounds    map[int64][]int64 // summary id to its rounds
}

// membershipCache holds the latest roundMembers of each project, and the
// reads under way: views that miss the cache at once wait for one read
// rather than each reading every assignment of the project (0.86 s on
// 600,600 assignments).
type membershipCache struct {
	mu       sync.Mutex
	projects map[int64]*roundMembers
	loading  map[memberKey]*memberLoad
	// joined, when set by tests, is called each time a view starts
	// waiting for another's read.
	joined func()
}

// memberKey names one project's members at one membership version.
type memberKey struct{ project, version int64 }

// memberLoad is a read of a project's members under way; done is closed
// when m and err are set.
type memberLoad struct {
	done chan struct{}
	m    *roundMembers
	err  error
}

// membershipVersion is the project's membership counter (0 before any
// change).
func membershipVersion(ctx context.Context, q querier, projectID int64) (int64, error) {
	var v int64
	err := q.QueryRowContext(ctx, `SELECT version FROM membership_versions WHERE project_id = ?`, projectID).Scan(&v)
	if err == sql.ErrNoRows {
		return 0, nil
	}
	return v, err
}

// roundMembers returns the project's round members as q sees them, read
// again only when the membership counter moved.
func (s *Store) roundMembers(ctx context.Context, q querier, projectID int64) (*roundMembers, error) {
	v, err := membershipVersion(ctx, q, projectID)
	if err != nil {
		return nil, err
	}
	key := memberKey{projectID, v}
	s.members.mu.Lock()
	if m := s.members.projects[projectID]; m != nil && m.version == v {
		s.members.mu.Unlock()
		return m, nil
	}
	if l := s.members.loading[key]; l != nil {
		joined := s.members.joined
		s.members.mu.Unlock()
		if joined != nil {
			joined()
		}
		select {
		case <-l.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if l.err == nil {
			return l.m, nil
		}
		// The read failed, perhaps ended by its own view's context: read
		// again under this one.
		return s.readRoundMembers(ctx, q, projectID, v)
	}
	l := &memberLoad{done: make(chan struct{})}
	if s.members.loading == nil {
		s.members.loading = map[memberKey]*memberLoad{}
	}
	s.members.loading[key] = l
	s.members.mu.Unlock()
	l.m, l.err = s.readRoundMembers(ctx, q, projectID, v)
	s.members.mu.Lock()
	delete(s.members.loading, key)
	s.members.mu.Unlock()
	close(l.done)
	return l.m, l.err
}

// membersRead, when set by tests, is called before each read of a
// project's members.
var membersRead func()

// readRoundMembers reads the project's round members at membership
// version v and keeps them in the cache.
func (s *Store) readRoundMembers(ctx context.Context, q querier, projectID, v int64) (*roundMembers, error) {
	if membersRead != nil {
		membersRead()
	}
	m := &roundMembers{version: v, sentences: map[int64]int{}, rounds: map[int64][]int64{}}
	// A summary's sentences are numbered 1..n (imports and re-splits
	// write them so), so n is one index lookup instead of a walk over its
	// sentences.
	err := queryRows(ctx, q, `SELECT x.round_id, x.summary_id,
			(SELECT max(idx) FROM summary_sentences WHERE summary_id = x.summary_id)
		FROM (SELECT DISTINCT round_id, summary_id FROM assignments
			WHERE round_id IN (SELECT id FROM rounds WHERE project_id = ?) AND status != 'released') x`, func(rows *sql.Rows) error {
		var round, summary int64
		var n sql.NullInt64
		if err := rows.Scan(&round, &summary, &n); err != nil {
			return err
		}
		m.sentences[round] += int(n.Int64)
		m.rounds[summary] = append(m.rounds[summary], round)
		return nil
	}, projectID)
	if err != nil {
		return nil, err
	}
	s.members.mu.Lock()
	if s.members.projects == nil {
		s.members.projects = map[int64]*roundMembers{}
	}
	if cur := s.members.projects[projectID]; cur == nil || cur.version <= v {
		s.members.projects[projectID] = m
	}
	s.members.mu.Unlock()
	return m, nil
}
