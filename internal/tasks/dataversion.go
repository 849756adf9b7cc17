package tasks

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
)

// DataVersion fingerprints what a project's exports and agreement report
// are made of: its summaries, settings, rounds, assignments (whose version
// grows with every saved label), gold and assistant runs. It changes when
// any of them does, and costs a few index scans, so that a poller can be
// answered "not modified" without building anything.
func (s *Store) DataVersion(ctx context.Context, projectID int64) (string, error) {
	var v string
	err := s.queryRow(ctx, `SELECT
		(SELECT count(*) || '.' || coalesce(max(id), 0) FROM summaries WHERE project_id = ?1) || '/' ||
		(SELECT settings FROM projects WHERE id = ?1) || '/' ||
		(SELECT count(*) || '.' || coalesce(max(id), 0) || '.' || coalesce(sum(status = 'closed'), 0) FROM rounds WHERE project_id = ?1) || '/' ||
		(SELECT count(*) || '.' || coalesce(sum(a.version), 0) || '.' || coalesce(sum(a.user_id * a.id), 0) || '.' ||
			coalesce(sum(length(a.status) * a.id), 0) FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE r.project_id = ?1) || '/' ||
		(SELECT count(*) || '.' || coalesce(max(h.id), 0) FROM gold_history h JOIN summary_sentences ss ON ss.id = h.sentence_id
			JOIN summaries m ON m.id = ss.summary_id WHERE m.project_id = ?1) || '/' ||
		(SELECT count(*) || '.' || coalesce(max(g.decided_at), '') FROM gold_sentences g JOIN summary_sentences ss ON ss.id = g.sentence_id
			JOIN summaries m ON m.id = ss.summary_id WHERE m.project_id = ?1) || '/' ||
		(SELECT count(*) || '.' || coalesce(max(g.decided_at), '') FROM gold_summaries g JOIN summaries m ON m.id = g.summary_id WHERE m.project_id = ?1) || '/' ||
		(SELECT count(*) || '.' || coalesce(group_concat(id || status), '') FROM assist_runs WHERE project_id = ?1)`, projectID).Scan(&v)
	if err != nil {
		return "", err
	}
	h := sha256.Sum256([]byte(v))
	return hex.EncodeToString(h[:12]), nil
}
