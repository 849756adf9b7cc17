package assiststore

import (
	"context"
	"database/sql"
	"errors"

	"annotate/internal/domain"
	"annotate/internal/redact"
)

// AssistOutput is the assistant's result for one summary sentence in one
// run. Output is the engine's result as JSON (assist.SentenceResult); this
// package stores it without reading it.
type AssistOutput struct {
	SentenceID int64
	// Label is the Adjudicator's tentative label, kept in its own column
	// for evaluation queries; empty for a failed result.
	Label  string
	Status string // "ok" or "failed"
	Output []byte
}

// AssistOutputOK is the status of a complete sentence result.
const AssistOutputOK = "ok"

func upsertAssistOutput(ctx context.Context, tx *sql.Tx, runID int64, o AssistOutput) error {
	if o.Status == "" {
		o.Status = AssistOutputOK
	}
	switch o.Label {
	case "", domain.LabelFaithful, domain.LabelUnfaithful:
	default:
		return domain.Errorf(domain.EInvalid, "assistant label %q is not faithful or unfaithful", o.Label)
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO assist_outputs (run_id, sentence_id, label, status, output) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (run_id, sentence_id) DO UPDATE SET label = excluded.label, status = excluded.status, output = excluded.output,
			created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
		runID, o.SentenceID, o.Label, o.Status, redact.Text(string(o.Output)))
	return err
}

// SaveAssistOutput stores one sentence's result in a run, replacing an
// earlier result for the same sentence (a rerun retries failed sentences).
func (s *Store) SaveAssistOutput(ctx context.Context, runID int64, o AssistOutput) error {
	return domain.Op("Store.SaveAssistOutput", s.tasks.WriteTx(ctx, func(tx *sql.Tx) error { return upsertAssistOutput(ctx, tx, runID, o) }))
}

// AssistDone returns the sentences of a run that have a complete result,
// which a resumed run skips.
func (s *Store) AssistDone(ctx context.Context, runID int64) (map[int64]bool, error) {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, `SELECT sentence_id FROM assist_outputs WHERE run_id = ? AND status = 'ok'`, runID)
	if err != nil {
		return nil, domain.Op("Store.AssistDone", err)
	}
	defer rows.Close()
	out := map[int64]bool{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, domain.Op("Store.AssistDone", err)
		}
		out[id] = true
	}
	return out, domain.Op("Store.AssistDone", rows.Err())
}

// PanelOutput is the output the assistant panel shows for one sentence.
type PanelOutput struct {
	RunID  int64
	Sample bool
	Output []byte
}

// AssistPanel returns, for each sentence of a summary that has one, the
// complete result to show beside it: from the newest run that is not a
// sample, else from a sample run.
func (s *Store) AssistPanel(ctx context.Context, summaryID int64) (map[int64]PanelOutput, error) {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, `
		SELECT o.sentence_id, r.id, r.sample, o.output
		FROM assist_outputs o
		JOIN assist_runs r ON r.id = o.run_id
		JOIN summary_sentences ss ON ss.id = o.sentence_id
		WHERE ss.summary_id = ? AND o.status = 'ok'
		ORDER BY o.sentence_id, r.sample, r.id DESC`, summaryID)
	if err != nil {
		return nil, domain.Op("Store.AssistPanel", err)
	}
	defer rows.Close()
	out := map[int64]PanelOutput{}
	for rows.Next() {
		var sid int64
		var p PanelOutput
		var output string
		if err := rows.Scan(&sid, &p.RunID, &p.Sample, &output); err != nil {
			return nil, domain.Op("Store.AssistPanel", err)
		}
		if _, seen := out[sid]; !seen {
			p.Output = []byte(output)
			out[sid] = p
		}
	}
	return out, domain.Op("Store.AssistPanel", rows.Err())
}

// AssistPanelSentence is AssistPanel for one sentence, for the save that
// reveals its panel; ok is false when no run judged it.
func (s *Store) AssistPanelSentence(ctx context.Context, sentenceID int64) (p PanelOutput, ok bool, err error) {
	var output string
	err = s.tasks.Reader(ctx).QueryRowContext(ctx, `SELECT r.id, r.sample, o.output FROM assist_outputs o JOIN assist_runs r ON r.id = o.run_id
		WHERE o.sentence_id = ? AND o.status = 'ok' ORDER BY r.sample, r.id DESC LIMIT 1`, sentenceID).Scan(&p.RunID, &p.Sample, &output)
	if errors.Is(err, sql.ErrNoRows) {
		return PanelOutput{}, false, nil
	}
	if err != nil {
		return PanelOutput{}, false, domain.Op("Store.AssistPanelSentence", err)
	}
	p.Output = []byte(output)
	return p, true, nil
}

// UnitCount returns how many numbered units a document has.
func (s *Store) UnitCount(ctx context.Context, documentID int64) (int, error) {
	var n int
	err := s.tasks.Reader(ctx).QueryRowContext(ctx, `SELECT count(*) FROM document_units WHERE document_id = ?`, documentID).Scan(&n)
	return n, domain.Op("Store.UnitCount", err)
}

// ExportedOutput is one stored result with the external ids that place it:
// the document's and the summary's external ids and the sentence's 1-based
// index.
type ExportedOutput struct {
	AssistOutput
	DocumentID string
	SummaryID  string
	Index      int
}

// EachAssistOutput calls fn for every result of a run, in document,
// summary and sentence order, one row at a time so that an export runs in
// constant memory. An error from fn stops the walk and is returned.
func (s *Store) EachAssistOutput(ctx context.Context, runID int64, fn func(ExportedOutput) error) error {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, `
		SELECT o.sentence_id, o.label, o.status, o.output, d.external_id, sm.external_id, ss.idx
		FROM assist_outputs o
		JOIN summary_sentences ss ON ss.id = o.sentence_id
		JOIN summaries sm ON sm.id = ss.summary_id
		JOIN documents d ON d.id = sm.document_id
		WHERE o.run_id = ?
		ORDER BY d.id, sm.id, ss.idx`, runID)
	if err != nil {
		return domain.Op("Store.EachAssistOutput", err)
	}
	defer rows.Close()
	for rows.Next() {
		var e ExportedOutput
		var output string
		if err := rows.Scan(&e.SentenceID, &e.Label, &e.Status, &output, &e.DocumentID, &e.SummaryID, &e.Index); err != nil {
			return domain.Op("Store.EachAssistOutput", err)
		}
		e.Output = []byte(output)
		if err := fn(e); err != nil {
			return domain.Op("Store.EachAssistOutput", err)
		}
	}
	return domain.Op("Store.EachAssistOutput", rows.Err())
}

// AssistTarget is what an import checks a result against: the summary's
// document, how many units that document has, and the summary's sentence
// ids in order.
type AssistTarget struct {
	DocumentID  string
	Units       int
	SentenceIDs []int64
}

// AssistTargets maps each summary external id of a project to its target.
// The summaries are read first, with their documents' unit counts, then
// every sentence id of the project: each count is taken once per summary,
// not once per sentence.
func (s *Store) AssistTargets(ctx context.Context, projectID int64) (map[string]*AssistTarget, error) {
	q := s.tasks.Reader(ctx)
	rows, err := q.QueryContext(ctx, `
		SELECT sm.id, sm.external_id, d.external_id, (SELECT count(*) FROM document_units u WHERE u.document_id = d.id)
		FROM summaries sm
		JOIN documents d ON d.id = sm.document_id
		WHERE sm.project_id = ?`, projectID)
	if err != nil {
		return nil, domain.Op("Store.AssistTargets", err)
	}
	defer rows.Close()
	out := map[string]*AssistTarget{}
	byID := map[int64]*AssistTarget{}
	for rows.Next() {
		var id int64
		var sum string
		t := &AssistTarget{}
		if err := rows.Scan(&id, &sum, &t.DocumentID, &t.Units); err != nil {
			return nil, domain.Op("Store.AssistTargets", err)
		}
		out[sum], byID[id] = t, t
	}
	if err := rows.Err(); err != nil {
		return nil, domain.Op("Store.AssistTargets", err)
	}
	rows.Close()
	sents, err := q.QueryContext(ctx, `
		SELECT ss.summary_id, ss.id FROM summaries sm JOIN summary_sentences ss ON ss.summary_id = sm.id
		WHERE sm.project_id = ? ORDER BY ss.summary_id, ss.idx`, projectID)
	if err != nil {
		return nil, domain.Op("Store.AssistTargets", err)
	}
	defer sents.Close()
	for sents.Next() {
		var sum, sid int64
		if err := sents.Scan(&sum, &sid); err != nil {
			return nil, domain.Op("Store.AssistTargets", err)
		}
		if t := byID[sum]; t != nil {
			t.SentenceIDs = append(t.SentenceIDs, sid)
		}
	}
	if err := sents.Err(); err != nil {
		return nil, domain.Op("Store.AssistTargets", err)
	}
	for sum, t := range out {
		if len(t.SentenceIDs) == 0 {
			delete(out, sum) // no sentence to judge: as if not there
		}
	}
	return out, nil
}
