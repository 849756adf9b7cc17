package tasks

import (
	"context"
	"database/sql"
	"errors"

	"annotate/internal/domain"
)

// ExportReader reads a project for an export inside one read transaction,
// so that the whole export comes from one snapshot. Rows are handed out one
// at a time through nested cursors (documents, then their summaries, then
// their sentences or labels), all walking indexes, so memory stays bounded
// by the largest document whatever the size of the project. Close it when
// done.
type ExportReader struct {
	tx    *sql.Tx
	scope domain.ExportScope
	stmts map[string]*sql.Stmt
}

// BeginExport opens an ExportReader.
func (s *Store) BeginExport(ctx context.Context, scope domain.ExportScope) (*ExportReader, error) {
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, domain.Op("Store.BeginExport", err)
	}
	r := &ExportReader{tx: tx, scope: scope, stmts: map[string]*sql.Stmt{}}
	for name, q := range exportQueries {
		st, err := tx.PrepareContext(ctx, q)
		if err != nil {
			r.Close()
			return nil, domain.Op("Store.BeginExport", err)
		}
		r.stmts[name] = st
	}
	return r, nil
}

// Close ends the read transaction.
func (r *ExportReader) Close() error {
	for _, st := range r.stmts {
		st.Close()
	}
	return domain.Op("ExportReader.Close", r.tx.Rollback())
}

// inScope is the round condition on a summary s, with ?2 the round.
const inScope = `(?2 = 0 OR s.id IN (SELECT summary_id FROM assignments WHERE round_id = ?2 AND status != 'released'))`

// submittedOf selects the submitted assignments of summary ?1 in scope.
const submittedOf = `SELECT id FROM assignments WHERE summary_id = ?1 AND status = 'submitted' AND (?2 = 0 OR round_id = ?2)`

const exportGoldColumns = `g.label, g.error_types, g.explanation, g.ambiguous, g.ambiguity_type, g.ambiguity_note,
	g.provenance, coalesce(g.decided_by, 0), coalesce(u.username, ''), g.decided_at, g.note`

// exportQueries are prepared once per export. In "labels", the assistant's
// label is looked up with a CROSS JOIN, which keeps SQLite's join order:
// the project's few runs outside, each output found through its
// (run_id, sentence_id) index; a plain JOIN let SQLite scan every output
// for every row.
var exportQueries = map[string]string{
	"documents": `SELECT d.id FROM documents d WHERE d.project_id = ?1
		AND EXISTS (SELECT 1 FROM summaries s WHERE s.document_id = d.id AND ` + inScope + `) ORDER BY d.id`,
	"summaries": `SELECT s.id, s.document_id, d.external_id, d.kind, d.language, d.domain, d.title,
			s.external_id, s.topic, s.model, s.language, s.original, s.edit_types,
			g.label, g.provenance, coalesce(g.decided_by, 0), coalesce(u.username, ''), g.decided_at, g.note,
			(SELECT count(*) FROM summary_sentences ss WHERE ss.summary_id = s.id),
			(SELECT count(*) FROM summary_sentences ss JOIN gold_sentences gs ON gs.sentence_id = ss.id
				WHERE ss.summary_id = s.id AND gs.label != '' AND gs.provenance != 'unresolved'),
			(SELECT count(*) FROM summary_sentences ss JOIN gold_sentences gs ON gs.sentence_id = ss.id
				WHERE ss.summary_id = s.id AND gs.label = 'faithful' AND gs.provenance != 'unresolved'),
			(SELECT count(*) FROM summary_sentences ss JOIN gold_sentences gs ON gs.sentence_id = ss.id
				WHERE ss.summary_id = s.id AND gs.label = 'unfaithful' AND gs.provenance != 'unresolved'),
			(SELECT coalesce(max(CASE gs.provenance WHEN 'unanimous' THEN 1 WHEN 'majority' THEN 2 WHEN 'adjudicated' THEN 3 ELSE 0 END), 0)
				FROM summary_sentences ss JOIN gold_sentences gs ON gs.sentence_id = ss.id WHERE ss.summary_id = s.id),
			(SELECT count(*) FROM key_facts k WHERE k.document_id = s.document_id AND (k.topic = s.topic OR k.topic = ''))
		FROM summaries s JOIN documents d ON d.id = s.document_id
		LEFT JOIN gold_summaries g ON g.summary_id = s.id LEFT JOIN users u ON u.id = g.decided_by
		WHERE s.document_id = ?1 AND ` + inScope + ` ORDER BY s.id`,
	"alignment": `WITH a AS (` + submittedOf + `),
		e AS (SELECT kl.key_fact_id AS k, kl.sentence_id AS s FROM keyfact_labels kl WHERE kl.assignment_id IN (SELECT id FROM a)
			GROUP BY kl.key_fact_id, kl.sentence_id HAVING count(*) * 2 > (SELECT count(*) FROM a))
		SELECT (SELECT count(*) FROM a), (SELECT count(DISTINCT k) FROM e), (SELECT count(DISTINCT s) FROM e)`,
	"sentences": `SELECT ss.id, ss.idx, coalesce(ss.source_index, ss.idx), ss.text, ss.translation, g.sentence_id IS NOT NULL, ` + exportGoldColumns + `
		FROM summary_sentences ss LEFT JOIN gold_sentences g ON g.sentence_id = ss.id LEFT JOIN users u ON u.id = g.decided_by
		WHERE ss.summary_id = ? ORDER BY ss.idx`,
	"units":    `SELECT speaker, text FROM document_units WHERE document_id = ? ORDER BY idx`,
	"keyfacts": `SELECT topic, text, category FROM key_facts WHERE document_id = ? ORDER BY topic, idx`,
	"labels": `SELECT r.name, a.id, a.user_id, u.username, a.status, a.active_seconds, coalesce(a.started_at, ''), coalesce(a.submitted_at, ''),
			ss.id, ss.idx, l.id IS NOT NULL, coalesce(l.label, ''),
			CASE WHEN l.label = 'unfaithful' THEN l.error_types ELSE '[]' END, CASE WHEN l.label = 'unfaithful' THEN l.explanation ELSE '' END, l.ambiguous,
			coalesce(l.ambiguity_type, ''), coalesce(l.ambiguity_note, ''), coalesce(l.unsure_note, ''), coalesce(l.first_label, ''),
			coalesce(l.assistant_visible, 0), coalesce(l.changed_after_reveal, 0), coalesce(l.updated_at, ''),
			sl.relevance, coalesce(sl.non_summary, 0), coalesce(sl.topic_category, ''), coalesce(sl.comment, ''),
			coalesce((SELECT o.label FROM assist_runs ar CROSS JOIN assist_outputs o ON o.run_id = ar.id AND o.sentence_id = ss.id
				WHERE ar.project_id = ?3 AND o.status = 'ok' AND o.label != '' ORDER BY ar.sample, ar.id DESC LIMIT 1), ''),
			coalesce(g.label, ''), coalesce(g.provenance, ''), coalesce(f.note, ''), coalesce(k.reason, '')
		FROM assignments a JOIN rounds r ON r.id = a.round_id JOIN users u ON u.id = a.user_id
		JOIN summary_sentences ss ON ss.summary_id = a.summary_id
		LEFT JOIN sentence_labels l ON l.assignment_id = a.id AND l.sentence_id = ss.id
		LEFT JOIN sentence_flags f ON f.assignment_id = a.id AND f.sentence_id = ss.id
		LEFT JOIN assignment_skips k ON k.assignment_id = a.id
		LEFT JOIN summary_labels sl ON sl.assignment_id = a.id
		LEFT JOIN gold_sentences g ON g.sentence_id = ss.id
		WHERE a.summary_id = ?1 AND (?2 = 0 OR a.round_id = ?2)
		ORDER BY ss.idx, a.id`,
	"people": `SELECT id FROM (
			SELECT a.user_id AS id FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE r.project_id = ?1 AND (?2 = 0 OR a.round_id = ?2)
			UNION SELECT g.decided_by FROM gold_sentences g JOIN summary_sentences ss ON ss.id = g.sentence_id
				JOIN summaries s ON s.id = ss.summary_id WHERE s.project_id = ?1 AND g.decided_by IS NOT NULL
			UNION SELECT g.decided_by FROM gold_summaries g JOIN summaries s ON s.id = g.summary_id
				WHERE s.project_id = ?1 AND g.decided_by IS NOT NULL)
		ORDER BY id`,
}

// EachSummary calls fn for every summary in scope, document by document in
// the order they were created, and each document's summaries in order.
func (r *ExportReader) EachSummary(ctx context.Context, fn func(*domain.ExportSummary) error) error {
	docs, err := r.stmts["documents"].QueryContext(ctx, r.scope.ProjectID, r.scope.RoundID)
	if err != nil {
		return domain.Op("ExportReader.EachSummary", err)
	}
	defer docs.Close()
	for docs.Next() {
		var docID int64
		if err := docs.Scan(&docID); err != nil {
			return domain.Op("ExportReader.EachSummary", err)
		}
		if err := r.documentSummaries(ctx, docID, fn); err != nil {
			return domain.Op("ExportReader.EachSummary", err)
		}
	}
	return domain.Op("ExportReader.EachSummary", docs.Err())
}

func (r *ExportReader) documentSummaries(ctx context.Context, docID int64, fn func(*domain.ExportSummary) error) error {
	rows, err := r.stmts["summaries"].QueryContext(ctx, docID, r.scope.RoundID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var s domain.ExportSummary
		var edits string
		var gLabel, gProv, gAt, gNote sql.NullString
		var gBy int64
		var gByName string
		if err := rows.Scan(&s.ID, &s.DocumentID, &s.Document, &s.DocumentKind, &s.DocumentLanguage, &s.DocumentDomain, &s.DocumentTitle,
			&s.External, &s.Topic, &s.Model, &s.Language, &s.Original, &edits,
			&gLabel, &gProv, &gBy, &gByName, &gAt, &gNote,
			&s.Sentences, &s.GoldSentences, &s.FaithfulSentences, &s.UnfaithfulSentences, &s.ProvenanceRank, &s.KeyFacts); err != nil {
			return err
		}
		s.EditTypes = decodeTypes(edits)
		if gLabel.Valid {
			s.Gold = &domain.ExportGold{GoldValues: domain.GoldValues{Label: gLabel.String, ErrorTypes: []string{}}, Provenance: gProv.String,
				DecidedByID: gBy, DecidedBy: gByName, DecidedAt: gAt.String, Note: gNote.String}
		}
		if err := r.stmts["alignment"].QueryRowContext(ctx, s.ID, r.scope.RoundID).Scan(&s.Alignments, &s.CoveredKeyFacts, &s.CoveringSentences); err != nil {
			return err
		}
		if err := fn(&s); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Sentences returns a summary's sentences with their gold, in order.
func (r *ExportReader) Sentences(ctx context.Context, summaryID int64) ([]domain.ExportSentence, error) {
	rows, err := r.stmts["sentences"].QueryContext(ctx, summaryID)
	if err != nil {
		return nil, domain.Op("ExportReader.Sentences", err)
	}
	defer rows.Close()
	var out []domain.ExportSentence
	for rows.Next() {
		var x domain.ExportSentence
		var has bool
		var label, types, expl, ambType, ambNote, prov, at, note sql.NullString
		var amb sql.NullBool
		var by sql.NullInt64
		var byName sql.NullString
		if err := rows.Scan(&x.ID, &x.Index, &x.SourceIndex, &x.Text, &x.Translation, &has, &label, &types, &expl, &amb, &ambType, &ambNote,
			&prov, &by, &byName, &at, &note); err != nil {
			return nil, domain.Op("ExportReader.Sentences", err)
		}
		if has {
			g := &domain.ExportGold{GoldValues: domain.GoldValues{Label: label.String, ErrorTypes: domain.NonNil(decodeTypes(types.String)), Explanation: expl.String,
				AmbiguityType: ambType.String, AmbiguityNote: ambNote.String},
				Provenance: prov.String, DecidedByID: by.Int64, DecidedBy: byName.String, DecidedAt: at.String, Note: note.String}
			if amb.Valid {
				g.Ambiguous = &amb.Bool
			}
			x.Gold = g
		}
		out = append(out, x)
	}
	return out, domain.Op("ExportReader.Sentences", rows.Err())
}

// Document returns a document's units and key facts.
func (r *ExportReader) Document(ctx context.Context, documentID int64) (domain.ExportDocument, error) {
	var d domain.ExportDocument
	rows, err := r.stmts["units"].QueryContext(ctx, documentID)
	if err != nil {
		return d, domain.Op("ExportReader.Document", err)
	}
	for rows.Next() {
		var u domain.TurnInput
		if err := rows.Scan(&u.Speaker, &u.Text); err != nil {
			rows.Close()
			return d, domain.Op("ExportReader.Document", err)
		}
		d.Units = append(d.Units, u)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return d, domain.Op("ExportReader.Document", err)
	}
	rows, err = r.stmts["keyfacts"].QueryContext(ctx, documentID)
	if err != nil {
		return d, domain.Op("ExportReader.Document", err)
	}
	defer rows.Close()
	for rows.Next() {
		var k domain.KeyFactInput
		if err := rows.Scan(&k.Topic, &k.Text, &k.Category); err != nil {
			return d, domain.Op("ExportReader.Document", err)
		}
		d.KeyFacts = append(d.KeyFacts, k)
	}
	return d, domain.Op("ExportReader.Document", rows.Err())
}

// EachLabel calls fn for every sentence × assignment of a summary in scope
// (released assignments included, with their status), by sentence and
// then assignment. The ExportLabel passed is reused between calls.
func (r *ExportReader) EachLabel(ctx context.Context, summaryID int64, fn func(*domain.ExportLabel) error) error {
	rows, err := r.stmts["labels"].QueryContext(ctx, summaryID, r.scope.RoundID, r.scope.ProjectID)
	if err != nil {
		return domain.Op("ExportReader.EachLabel", err)
	}
	defer rows.Close()
	var l domain.ExportLabel
	for rows.Next() {
		l = domain.ExportLabel{}
		var types string
		var amb sql.NullBool
		var rel sql.NullInt64
		if err := rows.Scan(&l.Round, &l.AssignmentID, &l.UserID, &l.Username, &l.Status, &l.ActiveSeconds, &l.StartedAt, &l.SubmittedAt,
			&l.SentenceID, &l.SentenceIndex, &l.Labelled, &l.Label, &types, &l.Explanation, &amb,
			&l.AmbiguityType, &l.AmbiguityNote, &l.UnsureNote, &l.FirstLabel,
			&l.AssistantVisible, &l.ChangedAfterReveal, &l.UpdatedAt,
			&rel, &l.NonSummary, &l.TopicCategory, &l.Comment, &l.AssistantLabel, &l.GoldLabel, &l.GoldProvenance, &l.Flag, &l.SkipReason); err != nil {
			return domain.Op("ExportReader.EachLabel", err)
		}
		l.ErrorTypes = domain.NonNil(decodeTypes(types))
		if amb.Valid {
			l.Ambiguous = &amb.Bool
		}
		if rel.Valid {
			v := int(rel.Int64)
			l.Relevance = &v
		}
		if err := fn(&l); err != nil {
			return domain.Op("ExportReader.EachLabel", err)
		}
	}
	return domain.Op("ExportReader.EachLabel", rows.Err())
}

// People lists, in id order, the users an export may name: the
// annotators of the assignments in scope and everyone who decided gold in
// the project. Anonymised exports number them in this order.
func (r *ExportReader) People(ctx context.Context) ([]int64, error) {
	rows, err := r.stmts["people"].QueryContext(ctx, r.scope.ProjectID, r.scope.RoundID)
	if err != nil {
		return nil, domain.Op("ExportReader.People", err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, domain.Op("ExportReader.People", err)
		}
		out = append(out, id)
	}
	return out, domain.Op("ExportReader.People", rows.Err())
}

// Scores returns the scale scores of the assignments of a summary in
// scope, by assignment.
func (r *ExportReader) Scores(ctx context.Context, summaryID int64) (map[int64]map[domain.ScaleKey]string, error) {
	val, err := r.scores(ctx, summaryID, `SELECT a.id FROM assignments a WHERE a.summary_id = ?1 AND a.status != 'released' AND (?2 = 0 OR a.round_id = ?2)`)
	return val, domain.Op("ExportReader.Scores", err)
}

// SubmittedScores is Scores for the submitted assignments only.
func (r *ExportReader) SubmittedScores(ctx context.Context, summaryID int64) (map[int64]map[domain.ScaleKey]string, error) {
	val, err := r.scores(ctx, summaryID, submittedOf)
	return val, domain.Op("ExportReader.SubmittedScores", err)
}

func (r *ExportReader) scores(ctx context.Context, summaryID int64, assignments string) (map[int64]map[domain.ScaleKey]string, error) {
	rows, err := r.tx.QueryContext(ctx, `SELECT assignment_id, sentence_id, scale, value FROM scale_scores WHERE assignment_id IN (`+assignments+`)`,
		summaryID, r.scope.RoundID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]map[domain.ScaleKey]string{}
	for rows.Next() {
		var a int64
		var k domain.ScaleKey
		var v string
		if err := rows.Scan(&a, &k.Sentence, &k.Scale, &v); err != nil {
			return nil, err
		}
		if out[a] == nil {
			out[a] = map[domain.ScaleKey]string{}
		}
		out[a][k] = v
	}
	return out, rows.Err()
}

// AnnotationID returns the id a document had in the study it was imported
// from, "" when none was given.
func (r *ExportReader) AnnotationID(ctx context.Context, documentID int64) (string, error) {
	var id string
	err := r.tx.QueryRowContext(ctx, `SELECT annotation_id FROM document_refs WHERE document_id = ?`, documentID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return id, domain.Op("ExportReader.AnnotationID", err)
}
