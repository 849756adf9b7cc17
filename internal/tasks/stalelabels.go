package tasks

import (
	"context"
	"encoding/json"
)

// StaleLabel is an annotator's sentence label given on a text that a
// re-import later replaced (--update --relabel), kept with that text.
type StaleLabel struct {
	Document, Summary string
	Sentence          int    // the sentence's number, as exports give it
	SentenceText      string // the text the label was given on
	UserID            int64
	Username          string
	Round             string
	Label             StaleLabelData
	SavedAt           string // when the label was last saved
	Reason            string // what changed
	ReplacedAt        string // when the re-import replaced the text
}

// StaleLabelData is the label itself, as it stood.
type StaleLabelData struct {
	Label            string   `json:"label"`
	ErrorTypes       []string `json:"error_types"`
	Explanation      string   `json:"explanation"`
	Ambiguous        *bool    `json:"ambiguous"`
	AmbiguityType    string   `json:"ambiguity_type"`
	AmbiguityNote    string   `json:"ambiguity_note"`
	UnsureNote       string   `json:"unsure_note"`
	AssignmentStatus string   `json:"status"`
}

// EachStaleLabel calls fn with the project's stale labels, of the round
// named round ("" for every round), oldest first.
func (r *ExportReader) EachStaleLabel(ctx context.Context, round string, fn func(*StaleLabel) error) error {
	rows, err := r.tx.QueryContext(ctx, `SELECT st.document, st.summary, st.sentence, st.sentence_text, st.user_id, u.username, st.round,
			st.data, st.saved_at, st.reason, st.replaced_at
		FROM stale_labels st JOIN users u ON u.id = st.user_id
		WHERE st.project_id = ? AND (? = '' OR st.round = ?) ORDER BY st.id`, r.scope.ProjectID, round, round)
	if err != nil {
		return Op("ExportReader.EachStaleLabel", err)
	}
	defer rows.Close()
	for rows.Next() {
		var l StaleLabel
		var data string
		if err := rows.Scan(&l.Document, &l.Summary, &l.Sentence, &l.SentenceText, &l.UserID, &l.Username, &l.Round,
			&data, &l.SavedAt, &l.Reason, &l.ReplacedAt); err != nil {
			return Op("ExportReader.EachStaleLabel", err)
		}
		if err := json.Unmarshal([]byte(data), &l.Label); err != nil {
			return Op("ExportReader.EachStaleLabel", err)
		}
		if err := fn(&l); err != nil {
			return Op("ExportReader.EachStaleLabel", err)
		}
	}
	return Op("ExportReader.EachStaleLabel", rows.Err())
}
