package assiststore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"annotate/internal/domain"
	"annotate/internal/redact"
)

// AssistRunImport is one run read from a file with its results.
type AssistRunImport struct {
	Run     AssistRun
	Outputs []AssistOutput
}

// ImportAssistRuns writes runs read from a file in one transaction: all of
// them or, on any error, none. Each run gets status imported; its sentence
// ids must belong to the project.
func (s *Store) ImportAssistRuns(ctx context.Context, projectID int64, runs []AssistRunImport) ([]int64, error) {
	ids, err := s.ImportAssistStream(ctx, projectID, func(w *AssistImportWriter) error {
		for _, ri := range runs {
			run, err := w.Run(ri.Run)
			if err != nil {
				return err
			}
			if err := w.Outputs(run, ri.Outputs, AssistUsage{}); err != nil {
				return err
			}
		}
		return nil
	})
	return ids, domain.Op("Store.ImportAssistRuns", err)
}

// ImportAssistStream writes the runs of an import whose results arrive
// while they are written: fill declares each run (AssistImportWriter.Run)
// and hands over its results as they are read, and everything happens in
// one transaction, committed only when fill succeeds, so that nothing of
// a refused file is kept and the results need not stay in memory. It
// returns the ids of the runs in the order they were declared.
func (s *Store) ImportAssistStream(ctx context.Context, projectID int64, fill func(*AssistImportWriter) error) ([]int64, error) {
	var ids []int64
	err := s.tasks.BulkWriteTx(ctx, func(tx *sql.Tx) error {
		held, err := holdOutputTriggers(ctx, tx)
		if err != nil {
			return err
		}
		w := &AssistImportWriter{ctx: ctx, tx: tx, project: projectID, now: s.tasks.Now, stmts: map[int]*sql.Stmt{}}
		defer w.close()
		if err := fill(w); err != nil {
			return err
		}
		if err := w.flush(); err != nil {
			return err
		}
		for _, r := range w.runs {
			total := r.total
			if total == 0 {
				total = r.written
			}
			u := r.usage
			if _, err := tx.ExecContext(ctx, `UPDATE assist_runs SET total = ?, calls = ?, cache_hits = ?, prompt_tokens = ?, completion_tokens = ?, failures = ?
				WHERE id = ?`, total, u.Calls, u.CacheHits, u.PromptTokens, u.CompletionTokens, u.Failures, r.id); err != nil {
				return err
			}
			ids = append(ids, r.id)
		}
		return held.release(ctx, tx, projectID, ids)
	})
	if err != nil {
		return nil, domain.Op("Store.ImportAssistStream", err)
	}
	return ids, nil
}

// AssistImportWriter writes the runs of one import inside its transaction
// (see Store.ImportAssistStream).
type AssistImportWriter struct {
	ctx     context.Context
	tx      *sql.Tx
	project int64
	now     func() time.Time
	runs    []importedRun
	// rows are results waiting to be written, outputBatch at a time, by
	// the statement of stmts for their number.
	rows  []outputRow
	stmts map[int]*sql.Stmt
}

// outputRow is a result waiting to be written.
type outputRow struct {
	run int64
	AssistOutput
}

// outputBatch is how many results one statement writes: an import writes
// hundreds of thousands, and one statement for many rows costs SQLite
// and database/sql much less than one for each.
const outputBatch = 64

// importedRun is a run an import made, with what it has written to it.
type importedRun struct {
	id      int64
	total   int // as declared; 0 for the number of results written
	written int
	usage   AssistUsage
}

// Run makes one run of the import, with status imported, and returns the
// number to hand its results over with. Its total, when 0, becomes the
// number of results written; its usage is the sum of what Outputs adds.
func (w *AssistImportWriter) Run(r AssistRun) (int, error) {
	r.ProjectID, r.Status = w.project, RunImported
	total, usage := r.Total, r.Usage
	id, err := insertAssistRun(w.ctx, w.tx, &r, w.now())
	if err != nil {
		return 0, domain.Op("AssistImportWriter.Run", err)
	}
	w.runs = append(w.runs, importedRun{id: id, total: total, usage: usage})
	return len(w.runs) - 1, nil
}

// Outputs writes results of a run Run made, replacing an earlier result of
// the same sentence, and adds usage to the run's. A sentence that is not
// the project's is refused.
func (w *AssistImportWriter) Outputs(run int, outs []AssistOutput, usage AssistUsage) error {
	r := &w.runs[run]
	for _, o := range outs {
		if o.Status == "" {
			o.Status = AssistOutputOK
		}
		switch o.Label {
		case "", domain.LabelFaithful, domain.LabelUnfaithful:
		default:
			return domain.Op("AssistImportWriter.Outputs", domain.Errorf(domain.EInvalid, "assistant label %q is not faithful or unfaithful", o.Label))
		}
		o.Output = []byte(redact.Text(string(o.Output)))
		w.rows = append(w.rows, outputRow{run: r.id, AssistOutput: o})
		if len(w.rows) == outputBatch {
			if err := w.flush(); err != nil {
				return domain.Op("AssistImportWriter.Outputs", err)
			}
		}
		r.written++
	}
	r.usage.Add(usage)
	return nil
}

// flush writes the results waiting with one statement, which writes only
// those whose sentence belongs to the project: when it writes fewer, the
// first result of another project's sentence (or of none) is named.
func (w *AssistImportWriter) flush() error {
	n := len(w.rows)
	if n == 0 {
		return nil
	}
	stmt, err := w.stmt(n)
	if err != nil {
		return err
	}
	args := make([]any, 0, 5*n+1)
	for _, o := range w.rows {
		args = append(args, o.run, o.SentenceID, o.Label, o.Status, string(o.Output))
	}
	args = append(args, w.project) // the last parameter, after the rows'
	res, err := stmt.ExecContext(w.ctx, args...)
	if err != nil {
		return err
	}
	written, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if int(written) < n {
		for _, o := range w.rows {
			if err := sentenceInProject(w.ctx, w.tx, w.project, o.SentenceID); err != nil {
				return err
			}
		}
		return fmt.Errorf("%d of %d results were not written", n-int(written), n)
	}
	w.rows = w.rows[:0]
	return nil
}

// stmt prepares the statement that writes n results.
func (w *AssistImportWriter) stmt(n int) (*sql.Stmt, error) {
	if st, ok := w.stmts[n]; ok {
		return st, nil
	}
	rows := strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?, ?), ", n), ", ")
	st, err := w.tx.PrepareContext(w.ctx, `INSERT INTO assist_outputs (run_id, sentence_id, label, status, output)
		SELECT v.column1, v.column2, v.column3, v.column4, v.column5 FROM (VALUES `+rows+`) v
		JOIN summary_sentences ss ON ss.id = v.column2 JOIN summaries sm ON sm.id = ss.summary_id AND sm.project_id = ?
		WHERE true
		ON CONFLICT (run_id, sentence_id) DO UPDATE SET label = excluded.label, status = excluded.status, output = excluded.output,
			created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`)
	if err != nil {
		return nil, err
	}
	w.stmts[n] = st
	return st, nil
}

// close closes the prepared statements.
func (w *AssistImportWriter) close() {
	for _, st := range w.stmts {
		st.Close()
	}
}

// sentenceInProject reports a sentence that is not the project's.
func sentenceInProject(ctx context.Context, tx *sql.Tx, projectID, sentenceID int64) error {
	var p int64
	err := tx.QueryRowContext(ctx, `SELECT sm.project_id FROM summary_sentences ss JOIN summaries sm ON sm.id = ss.summary_id WHERE ss.id = ?`, sentenceID).Scan(&p)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && p != projectID) {
		return domain.Errorf(domain.EInvalid, "sentence %d is not in this project", sentenceID)
	}
	return err
}
