package tasks

import (
	"context"
	"database/sql"
	"errors"
)

// ExportScope says which part of a project an export reads.
type ExportScope struct {
	ProjectID int64
	// RoundID, when not 0, keeps the summaries with an assignment in that
	// round that was not released, and only that round's labels.
	RoundID int64
}

// ExportReader reads a project for an export inside one read transaction,
// so that the whole export comes from one snapshot. Rows are handed out one
// at a time through nested cursors (documents, then their summaries, then
// their sentences or labels), all walking indexes, so memory stays bounded
// by the largest document whatever the size of the project. Close it when
// done.
type ExportReader struct {
	store *Store
	tx    *sql.Tx
	scope ExportScope
	stmts map[string]*sql.Stmt
}

// BeginExport opens an ExportReader.
func (s *Store) BeginExport(ctx context.Context, scope ExportScope) (*ExportReader, error) {
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, Op("Store.BeginExport", err)
	}
	r := &ExportReader{store: s, tx: tx, scope: scope, stmts: map[string]*sql.Stmt{}}
	for name, q := range exportQueries {
		st, err := tx.PrepareContext(ctx, q)
		if err != nil {
			r.Close()
			return nil, Op("Store.BeginExport", err)
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
	return Op("ExportReader.Close", r.tx.Rollback())
}

// ExportSummary is one summary in an export with its document, its
// summary-level gold and the counts its scores are computed from.
type ExportSummary struct {
	ID, DocumentID                     int64
	Document                           string // the document's external id
	DocumentKind, DocumentLanguage     string
	DocumentDomain, DocumentTitle      string
	External, Topic, Model, Language   string
	Original                           string
	EditTypes                          []string
	Gold                               *ExportGold // summary-level gold; nil when none
	Sentences                          int         // |S|
	GoldSentences, FaithfulSentences   int         // sentences with a resolved gold label; of them faithful
	UnfaithfulSentences                int         // of them unfaithful
	provRank                           int         // the least automatic sentence provenance (see provRank)
	KeyFacts                           int         // |K|: the document's key facts for the summary's topic or none
	Alignments                         int         // submitted assignments whose key-fact alignments count
	CoveredKeyFacts, CoveringSentences int         // |{k : (k, s) in E}|, |{s : (k, s) in E}|
}

// Scores computes the summary's faithfulness, completeness and conciseness
// (PROTOCOL.md, after FineSurE). The gold alignment E holds an edge (k, s)
// when a strict majority of the submitted assignments marked it.
// Faithfulness is nil until every sentence has a resolved gold label;
// completeness and conciseness are nil when the summary has no key facts
// or no submitted assignment.
func (s *ExportSummary) Scores() SummaryScores {
	var out SummaryScores
	ratio := func(a, b int) *float64 {
		v := float64(a) / float64(b)
		return &v
	}
	if s.Sentences > 0 && s.GoldSentences == s.Sentences {
		out.Faithfulness = ratio(s.FaithfulSentences, s.Sentences)
	}
	if s.KeyFacts > 0 && s.Alignments > 0 && s.Sentences > 0 {
		out.Completeness = ratio(s.CoveredKeyFacts, s.KeyFacts)
		out.Conciseness = ratio(s.CoveringSentences, s.Sentences)
	}
	return out
}

// Label returns the summary's gold label and its provenance: the stored
// summary-level gold when there is one, else the label its sentences give
// (see SummaryLabelFrom) once every sentence has a resolved gold label,
// with the least automatic provenance among them; ("", "") otherwise.
func (s *ExportSummary) Label() (label, provenance string) {
	if s.Gold != nil {
		return s.Gold.Label, s.Gold.Provenance
	}
	if s.Sentences == 0 || s.GoldSentences != s.Sentences {
		return "", ""
	}
	switch {
	case s.UnfaithfulSentences > 0:
		label = LabelUnfaithful
	case s.FaithfulSentences < s.Sentences:
		label = LabelBorderline
	default:
		label = LabelFaithful
	}
	for p, r := range provRank {
		if r == s.provRank {
			provenance = p
		}
	}
	return label, provenance
}

// ExportGold is a gold label as an export writes it: the values, where
// they came from, and who decided when.
type ExportGold struct {
	GoldValues
	Provenance  string
	DecidedByID int64
	DecidedBy   string // username; "" for automatic and imported gold
	DecidedAt   string
	Note        string
}

// ExportSentence is one summary sentence with its gold, if any.
type ExportSentence struct {
	ID    int64
	Index int
	// SourceIndex is the sentence's number in the file it was imported
	// from (TofuEval's sent_idx, which may skip numbers); Index when the
	// file gave none.
	SourceIndex int
	Text        string
	Translation string
	Gold        *ExportGold
}

// ExportDocument is a document's content: its units and key facts.
type ExportDocument struct {
	Units    []TurnInput // Speaker is "" for prose sentences
	KeyFacts []KeyFactInput
}

// ExportLabel is one annotator's label on one sentence (one row of a raw
// export); Labelled is false when the annotator has not labelled it.
type ExportLabel struct {
	Round                        string
	AssignmentID, UserID         int64
	Username, Status             string
	ActiveSeconds                int
	StartedAt, SubmittedAt       string
	SentenceID                   int64
	SentenceIndex                int
	Labelled                     bool
	Label                        string
	ErrorTypes                   []string // shared between labels with the same types: read only
	Explanation                  string
	Ambiguous                    *bool
	AmbiguityType, AmbiguityNote string
	UnsureNote, FirstLabel       string
	AssistantVisible             bool
	ChangedAfterReveal           bool
	UpdatedAt                    string
	Relevance                    *int
	NonSummary                   bool
	TopicCategory, Comment       string
	// AssistantLabel is the tentative label the assistant panel shows for
	// the sentence (newest real run, else a sample run); "" when none.
	AssistantLabel            string
	GoldLabel, GoldProvenance string
	// Flag is the annotator's comment flagging the sentence for the leads;
	// SkipReason why they skipped the assignment; "" when none.
	Flag, SkipReason string
}

// inScope is the round condition on a summary s, with ?2 the round.
const inScope = `(?2 = 0 OR s.id IN (SELECT summary_id FROM assignments WHERE round_id = ?2 AND status != 'released'))`

// submittedOf selects the submitted assignments of summary ?1 in scope.
const submittedOf = `SELECT id FROM assignments WHERE summary_id = ?1 AND status = 'submitted' AND (?2 = 0 OR round_id = ?2)`

// exportQueries are prepared once per export.
var exportQueries = map[string]string{
	"units":      `SELECT speaker, text FROM document_units WHERE document_id = ? ORDER BY idx`,
	"keyfacts":   `SELECT topic, text, category FROM key_facts WHERE document_id = ? ORDER BY topic, idx`,
	"annotation": `SELECT annotation_id FROM document_refs WHERE document_id = ?`,
	"people": `SELECT id FROM (
			SELECT a.user_id AS id FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE r.project_id = ?1 AND (?2 = 0 OR a.round_id = ?2)
			UNION SELECT g.decided_by FROM gold_sentences g JOIN summary_sentences ss ON ss.id = g.sentence_id
				JOIN summaries s ON s.id = ss.summary_id WHERE s.project_id = ?1 AND g.decided_by IS NOT NULL
			UNION SELECT g.decided_by FROM gold_summaries g JOIN summaries s ON s.id = g.summary_id
				WHERE s.project_id = ?1 AND g.decided_by IS NOT NULL)
		ORDER BY id`,
}

// Document returns a document's units and key facts.
func (r *ExportReader) Document(ctx context.Context, documentID int64) (ExportDocument, error) {
	var d ExportDocument
	rows, err := r.stmts["units"].QueryContext(ctx, documentID)
	if err != nil {
		return d, Op("ExportReader.Document", err)
	}
	for rows.Next() {
		var u TurnInput
		if err := rows.Scan(&u.Speaker, &u.Text); err != nil {
			rows.Close()
			return d, Op("ExportReader.Document", err)
		}
		d.Units = append(d.Units, u)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return d, Op("ExportReader.Document", err)
	}
	rows, err = r.stmts["keyfacts"].QueryContext(ctx, documentID)
	if err != nil {
		return d, Op("ExportReader.Document", err)
	}
	defer rows.Close()
	for rows.Next() {
		var k KeyFactInput
		if err := rows.Scan(&k.Topic, &k.Text, &k.Category); err != nil {
			return d, Op("ExportReader.Document", err)
		}
		d.KeyFacts = append(d.KeyFacts, k)
	}
	return d, Op("ExportReader.Document", rows.Err())
}

// People lists, in id order, the users an export may name: the
// annotators of the assignments in scope and everyone who decided gold in
// the project. Anonymised exports number them in this order.
func (r *ExportReader) People(ctx context.Context) ([]int64, error) {
	rows, err := r.stmts["people"].QueryContext(ctx, r.scope.ProjectID, r.scope.RoundID)
	if err != nil {
		return nil, Op("ExportReader.People", err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, Op("ExportReader.People", err)
		}
		out = append(out, id)
	}
	return out, Op("ExportReader.People", rows.Err())
}

// Scores returns the scale scores of the assignments of a summary in
// scope, by assignment.
func (r *ExportReader) Scores(ctx context.Context, summaryID int64) (map[int64]map[ScaleKey]string, error) {
	val, err := r.scores(ctx, summaryID, `SELECT a.id FROM assignments a WHERE a.summary_id = ?1 AND a.status != 'released' AND (?2 = 0 OR a.round_id = ?2)`)
	return val, Op("ExportReader.Scores", err)
}

// SubmittedScores is Scores for the submitted assignments only.
func (r *ExportReader) SubmittedScores(ctx context.Context, summaryID int64) (map[int64]map[ScaleKey]string, error) {
	val, err := r.scores(ctx, summaryID, submittedOf)
	return val, Op("ExportReader.SubmittedScores", err)
}

func (r *ExportReader) scores(ctx context.Context, summaryID int64, assignments string) (map[int64]map[ScaleKey]string, error) {
	rows, err := r.tx.QueryContext(ctx, `SELECT assignment_id, sentence_id, scale, value FROM scale_scores WHERE assignment_id IN (`+assignments+`)`,
		summaryID, r.scope.RoundID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]map[ScaleKey]string{}
	for rows.Next() {
		var a int64
		var k ScaleKey
		var v string
		if err := rows.Scan(&a, &k.Sentence, &k.Scale, &v); err != nil {
			return nil, err
		}
		if out[a] == nil {
			out[a] = map[ScaleKey]string{}
		}
		out[a][k] = v
	}
	return out, rows.Err()
}

// AnnotationID returns the id a document had in the study it was imported
// from, "" when none was given.
func (r *ExportReader) AnnotationID(ctx context.Context, documentID int64) (string, error) {
	var id string
	err := r.stmts["annotation"].QueryRowContext(ctx, documentID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return id, Op("ExportReader.AnnotationID", err)
}
