package tasks

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"annotate/internal/domain"
)

// DataVersion fingerprints what a project's exports and agreement report
// are made of: the change counter the triggers keep (see ReportVersion:
// labels, assignments, rounds, gold, sentences, key facts, assistant runs,
// scale values, flags, skips, document metadata) and the project's
// settings. It is one primary-key lookup, so that a poller can be answered
// "not modified" without building anything.
func (s *Store) DataVersion(ctx context.Context, projectID int64) (string, error) {
	var v int64
	var settings string
	err := s.queryRow(ctx, `SELECT coalesce((SELECT version FROM report_versions WHERE project_id = ?1), 0), settings
		FROM projects WHERE id = ?1`, projectID).Scan(&v, &settings)
	if err != nil {
		return "", domain.Op("Store.DataVersion", err)
	}
	h := sha256.Sum256(fmt.Appendf(nil, "%d\x00%s", v, settings))
	return hex.EncodeToString(h[:12]), nil
}
