package tasks

import (
	"context"
	"database/sql"
)

// ReportFlag is an annotator's flag on a sentence, raised for the leads.
type ReportFlag struct {
	AssignmentID int64
	Note         string
}

// reportFlags reads the flags of the assignments the report counts, by
// sentence.
func reportFlags(ctx context.Context, tx *sql.Tx, args reportArgs, d *ReportData) error {
	d.Flags = map[int64][]ReportFlag{}
	return eachRow(ctx, tx, `SELECT f.assignment_id, f.sentence_id, f.note
		FROM `+reportJoin+` JOIN sentence_flags f ON f.assignment_id = a.id
		WHERE `+reportRoundWhere+` ORDER BY f.sentence_id, f.assignment_id`, args, func(rows *sql.Rows) error {
		var sid int64
		var f ReportFlag
		if err := rows.Scan(&f.AssignmentID, &sid, &f.Note); err != nil || !args.kept.assignments[f.AssignmentID] {
			return err
		}
		d.Flags[sid] = append(d.Flags[sid], f)
		return nil
	})
}
