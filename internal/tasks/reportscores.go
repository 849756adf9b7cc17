package tasks

import (
	"context"
	"database/sql"

	"annotate/internal/domain"
)

// reportScores loads the scale values of the assignments a report counts.
func reportScores(ctx context.Context, tx *sql.Tx, args reportArgs, d *domain.ReportData) error {
	d.Scores = map[int64][]domain.ReportScore{}
	return eachRow(ctx, tx, `SELECT s.assignment_id, s.sentence_id, s.scale, s.value
		FROM `+reportJoin+` JOIN scale_scores s ON s.assignment_id = a.id
		WHERE `+reportRoundWhere+` ORDER BY s.assignment_id, s.sentence_id, s.scale`, args, func(rows *sql.Rows) error {
		var a int64
		var sc domain.ReportScore
		if err := rows.Scan(&a, &sc.SentenceID, &sc.Scale, &sc.Value); err != nil || !args.kept.assignments.has(a) {
			return err
		}
		sc.Scale, sc.Value = args.in.str(sc.Scale), args.in.str(sc.Value)
		d.Scores[a] = append(d.Scores[a], sc)
		return nil
	})
}
