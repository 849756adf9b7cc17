package tasks

import (
	"context"
	"database/sql"

	"annotate/internal/domain"
)

// reportFlags reads the flags of the assignments the report counts, by
// sentence.
func reportFlags(ctx context.Context, tx *sql.Tx, args reportArgs, d *domain.ReportData) error {
	d.Flags = map[int64][]domain.ReportFlag{}
	return eachRow(ctx, tx, `SELECT f.assignment_id, f.sentence_id, f.note
		FROM `+reportJoin+` JOIN sentence_flags f ON f.assignment_id = a.id
		WHERE `+reportRoundWhere+` ORDER BY f.sentence_id, f.assignment_id`, args, func(rows *sql.Rows) error {
		var sid int64
		var f domain.ReportFlag
		if err := rows.Scan(&f.AssignmentID, &sid, &f.Note); err != nil || !args.kept.assignments.has(f.AssignmentID) {
			return err
		}
		d.Flags[sid] = append(d.Flags[sid], f)
		return nil
	})
}
