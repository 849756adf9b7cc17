package tasks

import (
	"context"
	"database/sql"
)

// ReportScore is one value on a rating scale: on a sentence, or on the
// summary when SentenceID is 0.
type ReportScore struct {
	SentenceID int64
	Scale      string
	Value      string
}

// reportScores loads the scale values of the assignments a report counts.
func reportScores(ctx context.Context, tx *sql.Tx, args reportArgs, d *ReportData) error {
	d.Scores = map[int64][]ReportScore{}
	return eachRow(ctx, tx, `SELECT s.assignment_id, s.sentence_id, s.scale, s.value
		FROM `+reportJoin+` JOIN scale_scores s ON s.assignment_id = a.id
		WHERE `+reportRoundWhere+` ORDER BY s.assignment_id, s.sentence_id, s.scale`, args, func(rows *sql.Rows) error {
		var a int64
		var sc ReportScore
		if err := rows.Scan(&a, &sc.SentenceID, &sc.Scale, &sc.Value); err != nil || !args.kept.assignments[a] {
			return err
		}
		sc.Scale, sc.Value = args.in.str(sc.Scale), args.in.str(sc.Value)
		d.Scores[a] = append(d.Scores[a], sc)
		return nil
	})
}
