package tasks

import (
	"context"
	"database/sql"
	"encoding/json"

	"annotate/internal/domain"
)

// RoundProgress counts each annotator's assignments in a round by status,
// by username (the counts of RoundPace, without the pace).
func (s *Store) RoundProgress(ctx context.Context, roundID int64) ([]domain.AnnotatorProgress, error) {
	paces, err := roundCounts(ctx, s.reader(ctx), roundID)
	if err != nil {
		return nil, domain.Op("Store.RoundProgress", err)
	}
	var out []domain.AnnotatorProgress
	for _, p := range paces {
		out = append(out, p.AnnotatorProgress)
	}
	return out, nil
}

// roundAssignmentColumns are what the round page shows of an assignment,
// read FROM assignments a (with u, s and d joined as in
// roundAssignmentsFrom).
const roundAssignmentColumns = `a.id, u.username, d.external_id, s.id, s.topic, a.status, a.active_seconds,
			(SELECT count(*) FROM sentence_labels l WHERE l.assignment_id = a.id AND l.label != ''),
			(SELECT count(*) FROM summary_sentences ss WHERE ss.summary_id = s.id),
			coalesce(a.started_at, ''), coalesce(a.submitted_at, ''), s.external_id, s.model,
			coalesce((SELECT ss.text FROM summary_sentences ss WHERE ss.summary_id = s.id ORDER BY ss.idx LIMIT 1), ''),
			coalesce((SELECT max(l.updated_at) FROM sentence_labels l WHERE l.assignment_id = a.id), '')`

const roundAssignmentsFrom = `FROM assignments a JOIN users u ON u.id = a.user_id JOIN summaries s ON s.id = a.summary_id JOIN documents d ON d.id = s.document_id`

// RoundTotals returns, for each round of a project that has given out
// work, how many assignments it gives out (released ones aside) and how
// many of those are submitted, summed from queue_blocks (see
// ProjectOverview) rather than counted over the round's assignments.
func (s *Store) RoundTotals(ctx context.Context, projectID int64) (map[int64]domain.RoundTotal, error) {
	out := map[int64]domain.RoundTotal{}
	err := queryRows(ctx, s.reader(ctx), `SELECT round_id, sum(total), sum(done) FROM queue_blocks
		WHERE round_id IN (SELECT id FROM rounds WHERE project_id = ?) GROUP BY round_id`, func(rows *sql.Rows) error {
		var id int64
		var t domain.RoundTotal
		if err := rows.Scan(&id, &t.Total, &t.Submitted); err != nil {
			return err
		}
		out[id] = t
		return nil
	}, projectID)
	return out, domain.Op("Store.RoundTotals", err)
}

// RoundAssignments lists a round's assignments by annotator and queue order.
func (s *Store) RoundAssignments(ctx context.Context, roundID int64) ([]domain.RoundAssignment, error) {
	out, err := readRoundAssignments(ctx, s.reader(ctx), `SELECT `+roundAssignmentColumns+` `+roundAssignmentsFrom+`
		WHERE a.round_id = ? ORDER BY u.username, a.position`, roundID)
	return out, domain.Op("Store.RoundAssignments", err)
}

// RoundSummaryIDs lists the summaries a round deals (to anyone, released
// assignments included), each once, in id order, from the round's index
// alone. A study made from a round of 200,000 assignments read them
// whole, with their labels counted, to keep these ids.
func (s *Store) RoundSummaryIDs(ctx context.Context, roundID int64) ([]int64, error) {
	ids, err := IDList(ctx, s.reader(ctx), roundSummaryIDs, roundID)
	return ids, domain.Op("Store.RoundSummaryIDs", err)
}

// roundSummaryIDs is RoundSummaryIDs's query.
const roundSummaryIDs = `SELECT DISTINCT summary_id FROM assignments WHERE round_id = ? ORDER BY summary_id`

// RoundAssignmentsPage lists at most size of a round's assignments by
// annotator and queue order, from place from on. The page's assignments
// are found first, through the annotators' queue index in that order,
// and only they are read whole: a round of 300,000 assignments listed
// whole took 3-4 s to read and made a page of 107 MB.
func (s *Store) RoundAssignmentsPage(ctx context.Context, roundID int64, from, size int) ([]domain.RoundAssignment, error) {
	q := s.reader(ctx)
	ids, err := IDList(ctx, q, roundPageIDs, roundID, max(size, 0), max(from, 0))
	if err != nil || len(ids) == 0 {
		return nil, domain.Op("Store.RoundAssignmentsPage", err)
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, domain.Op("Store.RoundAssignmentsPage", err)
	}
	out, err := readRoundAssignments(ctx, q, `SELECT `+roundAssignmentColumns+` `+roundAssignmentsFrom+`
		WHERE a.id IN (SELECT value FROM json_each(?)) ORDER BY u.username, a.position`, string(list))
	return out, domain.Op("Store.RoundAssignmentsPage", err)
}

// roundPageIDs finds a page of a round's assignments, by annotator and
// queue order: the annotators in name order, and each one's assignments
// through the queue index, in position order, keeping the round's. Named
// so: with the statistics of a large round the planner would take the
// round's assignments through the index by round and annotator and sort
// them all (0.25 s for the first page of a round of 200,000).
const roundPageIDs = `SELECT a.id FROM users u JOIN assignments a INDEXED BY assignments_queue ON a.user_id = u.id
	WHERE a.round_id = ? ORDER BY u.username, a.position LIMIT ? OFFSET ?`

// RoundPace returns each annotator's work in a round with what its pace
// is worked out from (see domain.AnnotatorPace), by username: their
// counts, open work and last activity from round_counts and
// round_activity, which triggers keep, and the median of their submitted
// assignments' active seconds, the middle one or two of them read from
// the round's index by annotator, status and seconds (OFFSET steps over
// the index entries below it without reading them out). Grouping the
// round's assignments and reading every submitted one's seconds took
// 0.32-0.69 s a view of a round of 300,000. One snapshot, so that the
// counts and the medians agree.
func (s *Store) RoundPace(ctx context.Context, roundID int64) ([]domain.AnnotatorPace, error) {
	var out []domain.AnnotatorPace
	err := s.Snapshot(ctx, func(ctx context.Context) error {
		q := s.reader(ctx)
		var err error
		if out, err = roundCounts(ctx, q, roundID); err != nil {
			return err
		}
		for i := range out {
			p := &out[i]
			if p.Submitted == 0 {
				continue
			}
			// The middle one of an odd count, the middle two of an even one.
			var mid []int
			err := queryRows(ctx, q, roundMedianSeconds, func(rows *sql.Rows) error {
				var secs int
				err := rows.Scan(&secs)
				mid = append(mid, secs)
				return err
			}, roundID, p.UserID, 2-p.Submitted%2, (p.Submitted-1)/2)
			if err != nil {
				return err
			}
			if len(mid) > 0 {
				p.MedianSeconds = (mid[0] + mid[len(mid)-1]) / 2
			}
		}
		return nil
	})
	return out, domain.Op("Store.RoundPace", err)
}

// roundMedianSeconds reads, in order, the active seconds of an
// annotator's submitted assignments in a round, a LIMIT from an OFFSET.
const roundMedianSeconds = `SELECT active_seconds FROM assignments INDEXED BY assignments_round_user
	WHERE round_id = ? AND user_id = ? AND status = 'submitted' ORDER BY active_seconds LIMIT ? OFFSET ?`

// roundCountsQuery reads each annotator's counts in a round from
// round_counts, with when they last saved a label in it (round_activity),
// by username.
const roundCountsQuery = `SELECT c.user_id, u.username, u.display_name, c.submitted + c.in_progress + c.pending, c.submitted, c.in_progress,
		c.pending, c.released, c.active_seconds,
		max(c.last_submit, coalesce((SELECT v.last_at FROM round_activity v WHERE v.round_id = c.round_id AND v.user_id = c.user_id), ''))
	FROM round_counts c CROSS JOIN users u ON u.id = c.user_id
	WHERE c.round_id = ? AND c.submitted + c.in_progress + c.pending + c.released > 0 ORDER BY u.username`

// roundCounts reads each annotator's counts, open work and last activity
// in a round, by username.
func roundCounts(ctx context.Context, q querier, roundID int64) ([]domain.AnnotatorPace, error) {
	var out []domain.AnnotatorPace
	err := queryRows(ctx, q, roundCountsQuery, func(rows *sql.Rows) error {
		var p domain.AnnotatorPace
		g := &p.AnnotatorProgress
		if err := rows.Scan(&g.UserID, &g.Username, &g.DisplayName, &g.Total, &g.Submitted, &g.InProgress, &g.Pending, &g.Released,
			&g.ActiveSeconds, &p.LastActive); err != nil {
			return err
		}
		p.Open = g.InProgress + g.Pending
		out = append(out, p)
		return nil
	}, roundID)
	return out, err
}

// readRoundAssignments reads the rows of query, whose columns are
// roundAssignmentColumns.
func readRoundAssignments(ctx context.Context, q querier, query string, args ...any) ([]domain.RoundAssignment, error) {
	var out []domain.RoundAssignment
	err := queryRows(ctx, q, query, func(rows *sql.Rows) error {
		var r domain.RoundAssignment
		if err := rows.Scan(&r.ID, &r.Username, &r.Document, &r.SummaryID, &r.Topic, &r.Status, &r.ActiveSeconds, &r.Labelled, &r.Sentences, &r.StartedAt, &r.SubmittedAt, &r.Summary, &r.Model, &r.First, &r.LastLabel); err != nil {
			return err
		}
		out = append(out, r)
		return nil
	}, args...)
	return out, err
}

// ReleaseAssignment takes a stalled assignment back from its annotator. Its
// labels are kept as they are; it no longer counts and cannot be changed.
func (s *Store) ReleaseAssignment(ctx context.Context, roundID, assignmentID int64) error {
	return domain.Op("Store.ReleaseAssignment", s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE assignments SET status = 'released', version = version + 1
			WHERE id = ? AND round_id = ? AND status IN ('pending', 'in_progress')`, assignmentID, roundID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			var status string
			err := tx.QueryRowContext(ctx, `SELECT status FROM assignments WHERE id = ? AND round_id = ?`, assignmentID, roundID).Scan(&status)
			if err == sql.ErrNoRows {
				return domain.Errorf(domain.ENotFound, "assignment not found in this round")
			}
			if err != nil {
				return err
			}
			return domain.Errorf(domain.EConflict, "only an assignment that is neither submitted nor released can be released (this one is %s)", status)
		}
		// Releasing the last open assignment of a summary makes it ready.
		var summary int64
		if err := tx.QueryRowContext(ctx, `SELECT summary_id FROM assignments WHERE id = ?`, assignmentID).Scan(&summary); err != nil {
			return err
		}
		_, err = s.resolveIfReady(ctx, tx, summary)
		return err
	}))
}

// ReassignAssignment releases an assignment and gives its summary to
// another annotator of the project, at the end of their queue.
func (s *Store) ReassignAssignment(ctx context.Context, roundID, assignmentID, toUser int64) (int64, error) {
	var newID int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var summary, project int64
		var status string
		err := tx.QueryRowContext(ctx, `SELECT a.summary_id, a.status, r.project_id FROM assignments a JOIN rounds r ON r.id = a.round_id
			WHERE a.id = ? AND a.round_id = ?`, assignmentID, roundID).Scan(&summary, &status, &project)
		if err == sql.ErrNoRows {
			return domain.Errorf(domain.ENotFound, "assignment not found")
		}
		if err != nil {
			return err
		}
		if status == domain.StatusSubmitted {
			return domain.Errorf(domain.EConflict, "a submitted assignment cannot be reassigned")
		}
		var role string
		if err := tx.QueryRowContext(ctx, `SELECT role FROM memberships WHERE project_id = ? AND user_id = ?`, project, toUser).Scan(&role); err != nil {
			return domain.Errorf(domain.EInvalid, "that user is not a member of this project")
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM assignments WHERE round_id = ? AND summary_id = ? AND user_id = ? AND status != 'released'`, roundID, summary, toUser).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return domain.Errorf(domain.EConflict, "that annotator already has this summary in this round")
		}
		if _, err := tx.ExecContext(ctx, `UPDATE assignments SET status = 'released', version = version + 1 WHERE id = ?`, assignmentID); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO assignments (round_id, summary_id, user_id, position)
			VALUES (?, ?, ?, (SELECT coalesce(max(position), 0) + 1 FROM assignments WHERE user_id = ?))
			ON CONFLICT (round_id, summary_id, user_id) DO UPDATE SET status = 'pending', version = version + 1`,
			roundID, summary, toUser, toUser)
		if err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT id FROM assignments WHERE round_id = ? AND summary_id = ? AND user_id = ?`, roundID, summary, toUser).Scan(&newID)
	})
	return newID, domain.Op("Store.ReassignAssignment", err)
}

// CloseRound closes a round: its labels can no longer change.
func (s *Store) CloseRound(ctx context.Context, roundID int64) error {
	return domain.Op("Store.CloseRound", s.tx(ctx, func(tx *sql.Tx) error {
		err := mustAffect(tx.ExecContext(ctx, `UPDATE rounds SET status = 'closed', closed_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ? AND status = 'open'`, roundID))
		if domain.ErrorCode(err) == domain.ENotFound {
			return domain.Errorf(domain.EConflict, "this round is already closed")
		}
		return err
	}))
}

// LabelHistory lists every saved change of an assignment's labels, oldest
// first.
func (s *Store) LabelHistory(ctx context.Context, assignmentID int64) ([]domain.HistoryEntry, error) {
	rows, err := s.reader(ctx).QueryContext(ctx, `SELECT ss.idx, u.username, h.created_at, h.sentence_id, h.data FROM sentence_label_history h
		JOIN summary_sentences ss ON ss.id = h.sentence_id JOIN users u ON u.id = h.user_id
		WHERE h.assignment_id = ? ORDER BY h.id`, assignmentID)
	if err != nil {
		return nil, domain.Op("Store.LabelHistory", err)
	}
	defer rows.Close()
	var out []domain.HistoryEntry
	for rows.Next() {
		var e domain.HistoryEntry
		var data string
		var sentence int64
		if err := rows.Scan(&e.SentenceIndex, &e.Username, &e.At, &sentence, &data); err != nil {
			return nil, domain.Op("Store.LabelHistory", err)
		}
		if err := json.Unmarshal([]byte(data), &e.Label); err != nil {
			return nil, domain.Op("Store.LabelHistory", err)
		}
		// The row's columns, which compact data leaves out (historyData).
		e.Label.SentenceID, e.Label.UpdatedAt = sentence, e.At
		out = append(out, e)
	}
	return out, domain.Op("Store.LabelHistory", rows.Err())
}

// projectLabels selects one row per sentence label of project ?1.
const projectLabels = `SELECT 1 FROM sentence_labels l JOIN assignments a ON a.id = l.assignment_id
	JOIN rounds r ON r.id = a.round_id WHERE r.project_id = ?1`

// UpdateSettingsPreview counts the sentence labels a settings change would
// leave with their old values.
func (s *Store) UpdateSettingsPreview(ctx context.Context, projectID int64) (int, error) {
	var n int
	err := s.reader(ctx).QueryRowContext(ctx, `SELECT count(*) FROM (`+projectLabels+`)`, projectID).Scan(&n)
	return n, domain.Op("Store.UpdateSettingsPreview", err)
}

// ProjectLabelsUpTo counts a project's sentence labels as far as limit:
// it returns limit when there are that many or more, having read no
// further, where UpdateSettingsPreview reads them all (0.25 s on 1.5
// million labels).
func (s *Store) ProjectLabelsUpTo(ctx context.Context, projectID int64, limit int) (int, error) {
	var n int
	err := s.reader(ctx).QueryRowContext(ctx, `SELECT count(*) FROM (`+projectLabels+` LIMIT ?2)`, projectID, limit).Scan(&n)
	return n, domain.Op("Store.ProjectLabelsUpTo", err)
}

// UpdateSettings replaces a project's label schema and guidelines. Labels
// already given keep their values (they stay readable; nothing is
// rewritten): UpdateSettingsPreview counts them, for a caller that says
// so.
func (s *Store) UpdateSettings(ctx context.Context, projectID int64, set domain.Settings, guidelines string) error {
	if err := set.Validate(); err != nil {
		return domain.Op("Store.UpdateSettings", err)
	}
	if err := domain.CheckText("guidelines", guidelines, domain.MaxGuidelinesLen, true); err != nil {
		return domain.Op("Store.UpdateSettings", err)
	}
	raw, err := json.Marshal(set)
	if err != nil {
		return domain.Op("Store.UpdateSettings", err)
	}
	return domain.Op("Store.UpdateSettings", s.tx(ctx, func(tx *sql.Tx) error {
		return mustAffect(tx.ExecContext(ctx, `UPDATE projects SET settings = ?, guidelines = ? WHERE id = ?`, string(raw), guidelines, projectID))
	}))
}
