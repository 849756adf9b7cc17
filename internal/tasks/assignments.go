package tasks

import (
	"context"
	"database/sql"
	"errors"

	"annotate/internal/domain"
)

const assignmentSelect = `SELECT a.id, a.round_id, r.name, r.project_id, p.slug, a.summary_id, s.document_id, a.user_id,
	a.position, a.status, a.version, a.active_seconds, coalesce(a.started_at, ''), coalesce(a.submitted_at, '')
	FROM assignments a JOIN rounds r ON r.id = a.round_id JOIN projects p ON p.id = r.project_id
	JOIN summaries s ON s.id = a.summary_id`

func scanAssignment(row interface{ Scan(...any) error }) (*domain.Assignment, error) {
	var a domain.Assignment
	err := row.Scan(&a.ID, &a.RoundID, &a.RoundName, &a.ProjectID, &a.ProjectSlug, &a.SummaryID, &a.DocumentID, &a.UserID,
		&a.Position, &a.Status, &a.Version, &a.ActiveSeconds, &a.StartedAt, &a.SubmittedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, domain.Errorf(domain.ENotFound, "assignment not found")
	}
	return &a, err
}

// AssignmentByID returns an assignment.
func (s *Store) AssignmentByID(ctx context.Context, id int64) (*domain.Assignment, error) {
	val, err := scanAssignment(s.queryRow(ctx, assignmentSelect+` WHERE a.id = ?`, id))
	return val, domain.Op("Store.AssignmentByID", err)
}

// Queue lists a user's assignments in a project in queue order, leaving
// out released ones.
func (s *Store) Queue(ctx context.Context, projectID, userID int64) ([]domain.Assignment, error) {
	rows, err := s.query(ctx, assignmentSelect+` WHERE r.project_id = ? AND a.user_id = ? AND a.status != 'released' ORDER BY a.position, a.id`, projectID, userID)
	if err != nil {
		return nil, domain.Op("Store.Queue", err)
	}
	defer rows.Close()
	var out []domain.Assignment
	for rows.Next() {
		a, err := scanAssignment(rows)
		if err != nil {
			return nil, domain.Op("Store.Queue", err)
		}
		out = append(out, *a)
	}
	return out, domain.Op("Store.Queue", rows.Err())
}

// QueueEntries is Queue with what tells the rows apart: each assignment's
// document, topic, first sentence and sentence count, in one query.
func (s *Store) QueueEntries(ctx context.Context, projectID, userID int64) ([]domain.QueueEntry, error) {
	val, err := s.queueEntries(ctx, `a.user_id = ? AND a.round_id IN (SELECT id FROM rounds WHERE project_id = ?) AND a.status != 'released'`, userID, projectID)
	return val, domain.Op("Store.QueueEntries", err)
}

// queueEntries reads the queue entries of the assignments where selects,
// in queue order.
func (s *Store) queueEntries(ctx context.Context, where string, args ...any) ([]domain.QueueEntry, error) {
	rows, err := s.query(ctx, `SELECT a.id, a.round_id, r.name, r.project_id, p.slug, a.summary_id, s.document_id, a.user_id,
			a.position, a.status, a.version, a.active_seconds, coalesce(a.started_at, ''), coalesce(a.submitted_at, ''), d.external_id, d.title, s.topic,
			coalesce((SELECT substr(ss.text, 1, 160) FROM summary_sentences ss WHERE ss.summary_id = s.id ORDER BY ss.idx LIMIT 1), ''),
			(SELECT count(*) FROM summary_sentences ss WHERE ss.summary_id = s.id)
		FROM assignments a JOIN rounds r ON r.id = a.round_id JOIN projects p ON p.id = r.project_id
		JOIN summaries s ON s.id = a.summary_id JOIN documents d ON d.id = s.document_id
		WHERE `+where+`
		ORDER BY a.position, a.id`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []domain.QueueEntry
	for rows.Next() {
		var q domain.QueueEntry
		a := &q.Assignment
		if err := rows.Scan(&a.ID, &a.RoundID, &a.RoundName, &a.ProjectID, &a.ProjectSlug, &a.SummaryID, &a.DocumentID, &a.UserID,
			&a.Position, &a.Status, &a.Version, &a.ActiveSeconds, &a.StartedAt, &a.SubmittedAt, &q.Document, &q.Title, &q.Topic, &q.Snippet, &q.Sentences); err != nil {
			return nil, err
		}
		out = append(out, q)
	}
	return out, rows.Err()
}

// queueScope selects an annotator's queue in a project (?1 user, ?2
// project); the assignments_queue index covers it.
const queueScope = `FROM assignments x WHERE x.user_id = ?1 AND x.status != 'released'
	AND x.round_id IN (SELECT id FROM rounds WHERE project_id = ?2)`

// queueBlockShift sizes the blocks of queue_blocks: 1 << 8 = 256 queue
// positions (the migration that made the table writes position >> 8).
const queueBlockShift = 8

// blocksScope selects an annotator's queue blocks in a project (?1 user,
// ?2 project).
const blocksScope = `FROM queue_blocks b WHERE b.user_id = ?1 AND b.round_id IN (SELECT id FROM rounds WHERE project_id = ?2)`

// queueRank counts the queue entries before the assignment at (?3
// position, ?4 id): the blocks before its block ?5, plus the entries of
// its own block (positions from ?6, the block's first) that come before
// it. For a released assignment, the entries before where it was.
const queueRank = `((SELECT coalesce(sum(b.total), 0) ` + blocksScope + ` AND b.block < ?5)
	+ (SELECT count(*) ` + queueScope + ` AND x.position BETWEEN ?6 AND ?3 AND (x.position, x.id) < (?3, ?4)))`

// QueueNav finds where a sits in its annotator's queue: length and
// progress summed from the queue's blocks, its place from the blocks
// before its own plus a count inside its block, and its neighbours by two
// seeks on the queue index. Its cost does not grow with the queue.
func (s *Store) QueueNav(ctx context.Context, a *domain.Assignment) (domain.QueueNav, error) {
	var n domain.QueueNav
	block := a.Position >> queueBlockShift
	err := s.queryRow(ctx, `SELECT
			(SELECT coalesce(sum(b.total), 0) `+blocksScope+`),
			(SELECT coalesce(sum(b.done), 0) `+blocksScope+`),
			`+queueRank+` + 1,
			coalesce((SELECT x.id `+queueScope+` AND (x.position, x.id) < (?3, ?4) ORDER BY x.position DESC, x.id DESC LIMIT 1), 0),
			coalesce((SELECT x.id `+queueScope+` AND (x.position, x.id) > (?3, ?4) ORDER BY x.position, x.id LIMIT 1), 0)`,
		a.UserID, a.ProjectID, a.Position, a.ID, block, block<<queueBlockShift).Scan(&n.Total, &n.Done, &n.Position, &n.Prev, &n.Next)
	if a.Status == domain.StatusReleased {
		n.Position, n.Prev, n.Next = 0, 0, 0
	}
	return n, domain.Op("Store.QueueNav", err)
}

// NextOpen returns the first unsubmitted, unskipped assignment after a in
// its annotator's queue, else the first one before it, else 0.
func (s *Store) NextOpen(ctx context.Context, a *domain.Assignment) (int64, error) {
	var id int64
	err := s.queryRow(ctx, `SELECT coalesce(
			(SELECT x.id `+queueScope+` AND x.status IN ('pending', 'in_progress') AND (x.position, x.id) > (?3, ?4)
				AND x.id NOT IN (SELECT assignment_id FROM assignment_skips)
				ORDER BY x.position, x.id LIMIT 1),
			(SELECT x.id `+queueScope+` AND x.status IN ('pending', 'in_progress') AND x.id != ?4
				AND x.id NOT IN (SELECT assignment_id FROM assignment_skips)
				ORDER BY x.position, x.id LIMIT 1), 0)`,
		a.UserID, a.ProjectID, a.Position, a.ID).Scan(&id)
	return id, domain.Op("Store.NextOpen", err)
}

// QueueCounts counts a user's queue in a project from its blocks and
// finds the first assignment not yet submitted over the index of open
// assignments, without counting or loading the queue.
func (s *Store) QueueCounts(ctx context.Context, projectID, userID int64) (domain.QueueSummary, error) {
	var q domain.QueueSummary
	var pos sql.NullInt64
	err := s.queryRow(ctx, `SELECT (SELECT coalesce(sum(b.total), 0) `+blocksScope+`), (SELECT coalesce(sum(b.done), 0) `+blocksScope+`),
		coalesce(n.id, 0), n.position FROM (SELECT 1) LEFT JOIN (SELECT x.id, x.position `+queueScope+` AND x.status IN ('pending', 'in_progress')
			AND x.id NOT IN (SELECT assignment_id FROM assignment_skips) ORDER BY x.position, x.id LIMIT 1) n`,
		userID, projectID).Scan(&q.Total, &q.Done, &q.NextOpen, &pos)
	if err != nil || q.NextOpen == 0 {
		return q, domain.Op("Store.QueueCounts", err)
	}
	block := int(pos.Int64) >> queueBlockShift
	err = s.queryRow(ctx, `SELECT `+queueRank,
		userID, projectID, pos.Int64, q.NextOpen, block, block<<queueBlockShift).Scan(&q.NextRank)
	return q, domain.Op("Store.QueueCounts", err)
}

// queuePageIDs finds the assignments of a page of an annotator's queue
// (?1 user, ?2 project, ?3 limit, ?4 offset) in the queue index alone,
// which holds every column it reads, in queue order (named, so that no
// statistics make SQLite sort the queue instead). Read in one query with
// each entry's document and first sentence, the page made SQLite read
// the annotator's whole queue through the index by round, with those, and
// sort it: 91 ms a view for an annotator with 100,000 assignments.
const queuePageIDs = `SELECT a.id FROM assignments a INDEXED BY assignments_queue
	WHERE a.user_id = ?1 AND a.status != 'released' AND a.round_id IN (SELECT id FROM rounds WHERE project_id = ?2)
	ORDER BY a.position, a.id LIMIT ?3 OFFSET ?4`

// QueueEntriesPage is QueueEntries from the offset-th entry (0-based), at
// most limit of them: found in the queue's index, then read whole.
func (s *Store) QueueEntriesPage(ctx context.Context, projectID, userID int64, offset, limit int) ([]domain.QueueEntry, error) {
	ids, err := IDList(ctx, s.reader(ctx), queuePageIDs, userID, projectID, limit, offset)
	if err != nil || len(ids) == 0 {
		return nil, domain.Op("Store.QueueEntriesPage", err)
	}
	val, err := s.queueEntries(ctx, `a.id IN (SELECT value FROM json_each(?))`, JSONIDs(ids))
	return val, domain.Op("Store.QueueEntriesPage", err)
}
