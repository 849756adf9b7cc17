package tasks

import (
	"context"
	"encoding/json"

	"annotate/internal/domain"
)

// EachStaleLabel calls fn with the project's stale labels, of the round
// named round ("" for every round), oldest first.
func (r *ExportReader) EachStaleLabel(ctx context.Context, round string, fn func(*domain.StaleLabel) error) error {
	rows, err := r.tx.QueryContext(ctx, `SELECT st.document, st.summary, st.sentence, st.sentence_text, st.user_id, u.username, st.round,
			st.data, st.saved_at, st.reason, st.replaced_at
		FROM stale_labels st JOIN users u ON u.id = st.user_id
		WHERE st.project_id = ? AND (? = '' OR st.round = ?) ORDER BY st.id`, r.scope.ProjectID, round, round)
	if err != nil {
		return domain.Op("ExportReader.EachStaleLabel", err)
	}
	defer rows.Close()
	for rows.Next() {
		var l domain.StaleLabel
		var data string
		if err := rows.Scan(&l.Document, &l.Summary, &l.Sentence, &l.SentenceText, &l.UserID, &l.Username, &l.Round,
			&data, &l.SavedAt, &l.Reason, &l.ReplacedAt); err != nil {
			return domain.Op("ExportReader.EachStaleLabel", err)
		}
		if err := json.Unmarshal([]byte(data), &l.Label); err != nil {
			return domain.Op("ExportReader.EachStaleLabel", err)
		}
		if err := fn(&l); err != nil {
			return domain.Op("ExportReader.EachStaleLabel", err)
		}
	}
	return domain.Op("ExportReader.EachStaleLabel", rows.Err())
}
