package tasks

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"annotate/internal/domain"
)

// A sentence's assistant label is that of the first of the project's
// runs, in order of precedence (real runs before sample runs, newer
// before older), with a labelled result on it ("ok", label not empty).

// runsByPrecedence lists the ids of the project's assistant runs in order
// of precedence.
func runsByPrecedence(ctx context.Context, tx *sql.Tx, project int64) ([]int64, error) {
	var runs []int64
	err := queryRows(ctx, tx, `SELECT id FROM assist_runs WHERE project_id = ? ORDER BY sample, id DESC`, func(rows *sql.Rows) error {
		var id int64
		err := rows.Scan(&id)
		runs = append(runs, id)
		return err
	}, project)
	return runs, err
}

// seekRunsMax is the most runs assistantLabel looks up one by one; a
// project with more has its runs sorted for every sentence instead. A
// variable, so that tests can take either way.
var seekRunsMax = 32

// assistantLabel returns an SQL expression for the assistant's label of
// sentence ss.id (NULL when no run labelled it), given the project's runs
// in order of precedence and the query's arguments (the project is ?1),
// and the arguments with those the expression needs appended.
//
// Each run is one seek in the index of the runs' labelled results
// (assist_outputs_labels, named: SQLite otherwise takes the unique
// (run_id, sentence_id) index and reads the table row, which holds the
// whole output, for its status and label), tried in order until one
// finds a label. On the goal shape (two runs over 500,000 sentences) this
// took the raw export's assistant column from 1.8 s to 0.29 s in the
// sqlite3 shell; sorting the runs for each sentence, as the general form
// does, takes 1.0 s even through that index.
func assistantLabel(runs []int64, args []any) (string, []any) {
	const labelled = `o.status = 'ok' AND o.label != ''`
	switch {
	case len(runs) == 0:
		return "NULL", args
	case len(runs) > seekRunsMax:
		return `(SELECT o.label FROM assist_runs ar CROSS JOIN assist_outputs o INDEXED BY assist_outputs_labels
			ON o.run_id = ar.id AND o.sentence_id = ss.id
			WHERE ar.project_id = ?1 AND ` + labelled + ` ORDER BY ar.sample, ar.id DESC LIMIT 1)`, args
	}
	seeks := make([]string, len(runs))
	for i, run := range runs {
		args = append(args, run)
		seeks[i] = fmt.Sprintf(`(SELECT o.label FROM assist_outputs o INDEXED BY assist_outputs_labels
			WHERE o.run_id = ?%d AND o.sentence_id = ss.id AND %s)`, len(args), labelled)
	}
	if len(seeks) == 1 {
		return seeks[0], args
	}
	return "coalesce(" + strings.Join(seeks, ", ") + ")", args
}

// runLabels gives the assistant's label of sentences from the project's
// runs read whole (runLabelsQuery, from the index of the runs' labelled
// results alone) in order of precedence, each run only once a sentence
// is asked for that the runs before it left without a label: on the goal
// shape the newest run labels every sentence, and the other is never
// read. Each run read fills only the sentences those before it left. The
// labels take 9 bytes a sentence (4.5 MB for 500,000).
//
// The raw export of a whole project asks for the label of every sentence
// it writes: a seek per run and sentence (see assistantLabel) took 0.64 s
// of the 1.26 s its sentences query took on the 1.5M-label project.
type runLabels struct {
	ctx  context.Context
	tx   *sql.Tx
	runs []int64 // those not read yet
	read domain.AssistantLabels
}

func newRunLabels(ctx context.Context, tx *sql.Tx, runs []int64) *runLabels {
	return &runLabels{ctx: ctx, tx: tx, runs: runs}
}

// of returns the label of sentence id, "" when no run has one.
func (r *runLabels) of(id int64) (string, error) {
	for {
		if l := r.read.Of(id); l != "" || len(r.runs) == 0 {
			return l, nil
		}
		run := r.runs[0]
		r.runs = r.runs[1:]
		if assistRunRead != nil {
			assistRunRead(run, true, 0)
		}
		got, err := readRunLabels(r.ctx, r.tx, runLabelsQuery, run)
		if err != nil {
			return "", fmt.Errorf("assistant run %d: %w", run, err)
		}
		if err := r.read.Fill(got); err != nil {
			return "", err
		}
	}
}
