package tasks

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"

	"annotate/internal/domain"
)

// pickDocumentsQuery lists a project's documents with their topics and
// counts, by external id. Each document's counts go from its summaries
// to their sentences to the sentences' gold (CROSS JOIN keeps that
// order): left to choose, the planner drove the count of unresolved gold
// from the gold_sentences_unresolved index once its statistics said it
// was empty (as ANALYZE records an index of a new database), reading
// every unresolved sentence of the database for each document, and the
// rounds page of the 1.5M-label project timed out after 60 s.
const pickDocumentsQuery = `
		SELECT d.external_id, d.title,
			(SELECT json_group_array(DISTINCT sm.topic) FROM summaries sm WHERE sm.document_id = d.id AND sm.topic != ''),
			(SELECT count(*) FROM summaries sm WHERE sm.document_id = d.id),
			(SELECT count(*) FROM summaries sm CROSS JOIN summary_sentences ss ON ss.summary_id = sm.id WHERE sm.document_id = d.id),
			(SELECT count(*) FROM summaries sm CROSS JOIN summary_sentences ss ON ss.summary_id = sm.id
				CROSS JOIN gold_sentences g ON g.sentence_id = ss.id AND g.provenance != 'unresolved' WHERE sm.document_id = d.id),
			(SELECT count(*) FROM summaries sm CROSS JOIN summary_sentences ss ON ss.summary_id = sm.id
				CROSS JOIN gold_sentences g ON g.sentence_id = ss.id AND g.provenance = 'unresolved' WHERE sm.document_id = d.id)
		FROM documents d
		WHERE d.project_id = ?
			AND (? = '' OR instr(lower(d.external_id), ?) > 0 OR instr(lower(d.title), ?) > 0)
			AND (? = '' OR EXISTS (SELECT 1 FROM summaries sm WHERE sm.document_id = d.id AND sm.topic = ?))
		ORDER BY d.external_id`

// maxPickDocuments bounds the list: a lead narrows it with the filter.
const maxPickDocuments = 500

// PickDocuments lists the project's documents that pass the filter, by
// external id, at most maxPickDocuments of them; more reports whether the
// filter left more out.
func (s *Store) PickDocuments(ctx context.Context, projectID int64, f domain.DocumentFilter) (docs []domain.PickDocument, more bool, err error) {
	q := strings.ToLower(strings.TrimSpace(f.Query))
	err = queryRows(ctx, s.reader(ctx), pickDocumentsQuery, func(rows *sql.Rows) error {
		var d domain.PickDocument
		var topics sql.NullString
		if err := rows.Scan(&d.ExternalID, &d.Title, &topics, &d.Summaries, &d.Sentences, &d.Gold, &d.Waiting); err != nil {
			return err
		}
		if topics.Valid {
			if err := json.Unmarshal([]byte(topics.String), &d.Topics); err != nil {
				return err
			}
		}
		if !f.KeepGold(d) {
			return nil
		}
		if len(docs) == maxPickDocuments {
			// One more passes the filter: no need to compute the rest
			// (every document's counts took 1.8 s at 60,000 documents).
			more = true
			return errEnough
		}
		docs = append(docs, d)
		return nil
	}, projectID, q, q, q, f.Topic, f.Topic)
	return docs, more, domain.Op("Store.PickDocuments", err)
}

// projectTopicsQuery lists a project's distinct summary topics in order
// by stepping through the summaries_topic index from each topic to the
// next, a seek per topic, rather than reading every summary: 270 ms for
// 300,000 summaries with DISTINCT.
const projectTopicsQuery = `WITH RECURSIVE t(topic) AS (
		SELECT min(topic) FROM summaries WHERE project_id = ?1 AND topic != ''
		UNION ALL
		SELECT (SELECT min(topic) FROM summaries WHERE project_id = ?1 AND topic > t.topic) FROM t WHERE t.topic IS NOT NULL
	) SELECT topic FROM t WHERE topic IS NOT NULL`

// summariesTopicIndex orders a project's summaries by topic, for
// projectTopicsQuery.
const summariesTopicIndex = `CREATE INDEX IF NOT EXISTS summaries_topic ON summaries(project_id, topic);`

// ProjectTopics lists the distinct topics of the project's summaries.
func (s *Store) ProjectTopics(ctx context.Context, projectID int64) ([]string, error) {
	var out []string
	err := queryRows(ctx, s.reader(ctx), projectTopicsQuery, func(rows *sql.Rows) error {
		var t string
		if err := rows.Scan(&t); err != nil {
			return err
		}
		out = append(out, t)
		return nil
	}, projectID)
	return out, domain.Op("Store.ProjectTopics", err)
}

// SummaryCount is the number of the project's summaries.
func (s *Store) SummaryCount(ctx context.Context, projectID int64) (int, error) {
	var n int
	err := s.reader(ctx).QueryRowContext(ctx, `SELECT count(*) FROM summaries WHERE project_id = ?`, projectID).Scan(&n)
	return n, domain.Op("Store.SummaryCount", err)
}
