package tasks

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"sync"
	"sync/atomic"

	"annotate/internal/domain"
)

// The assignments a report counts: every assignment of the project that was
// not released (released work was handed to someone else), of round ?2
// unless it is 0, and submitted only when ?3 is 1. Their rows are reached
// by a join from the project's rounds, which reads each assignment's rows
// in place (each assignment's together) rather than through a list of all
// the assignments built first. The join names the assignments' unique
// index (round, summary, user): the report's ways of reading its labels
// give them in the order it visits them, and the index of a round's
// assignments by annotator (schema 39) would visit them by user.
const (
	reportJoin  = `rounds r JOIN assignments a INDEXED BY sqlite_autoindex_assignments_1 ON a.round_id = r.id`
	reportWhere = `r.project_id = ?1 AND (?2 = 0 OR r.id = ?2) AND a.status != 'released' AND (?3 = 0 OR a.status = 'submitted')`
	// reportRoundWhere selects the assignments of the round(s) whatever
	// their status: what the assignments index holds, so that no
	// assignment row is read. The rows of assignments the report does not
	// count are then left out as they come (see reportKept).
	reportRoundWhere = `r.project_id = ?1 AND (?2 = 0 OR r.id = ?2) AND ?3 >= 0`
	// reportCountedAssignments are the counted assignments when they are
	// read for themselves (their rows, or their ids to find their labels
	// by), in no particular order: through the index of a round's
	// assignments by annotator, which holds every column those reads take
	// (schema 44), so that no assignment row is read. Through the unique
	// index, each assignment's row was read for its status: 29 ms for the
	// 6,075 assignments of the 2% round of the 1.5M-label project, where
	// the index alone takes 3-5 ms.
	reportCountedAssignments = `rounds r JOIN assignments a INDEXED BY assignments_round_user ON a.round_id = r.id WHERE ` + reportWhere
)

// ReportData loads the labels of a project for its agreement report, so
// that the figures come from one version of the project: the sentence
// labels in one read transaction and the rest, at the same time, in
// another, kept only when both see the same version of the project's
// report data. Only the assignments f selects are read, with their labels
// and sentences; repeated strings (labels, error-type lists, names) are
// shared, not copied per label. The text of sentences is read later, by
// [ReportData.Details].
func (s *Store) ReportData(ctx context.Context, projectID int64, f domain.ReportFilter) (*domain.ReportData, error) {
	// The labels, most of the work, are read beside the rest in a second
	// transaction; the two agree when they see the same version of the
	// project's report data (see report_versions), else the reading is
	// done again, in the end in one transaction. One reading at a time
	// holds two connections, so that readings waiting for their second
	// cannot take up the whole pool; the others use one.
	if f.OneConnection {
		val, err := s.reportData(ctx, projectID, f, false)
		return val, domain.Op("Store.ReportData", err)
	}
	select {
	case s.reportApart <- struct{}{}:
		d, err := s.reportDataApart(ctx, projectID, f)
		<-s.reportApart
		if !errors.Is(err, errReportMoved) && !errors.Is(err, errNoReadConn) {
			return d, domain.Op("Store.ReportData", err)
		}
	default:
	}
	val, err := s.reportData(ctx, projectID, f, false)
	return val, domain.Op("Store.ReportData", err)
}

// reportDataApart reads apart, up to three times while the data moves
// between the start of its two transactions.
func (s *Store) reportDataApart(ctx context.Context, projectID int64, f domain.ReportFilter) (*domain.ReportData, error) {
	var err error
	for range 3 {
		var d *domain.ReportData
		if d, err = s.reportData(ctx, projectID, f, true); !errors.Is(err, errReportMoved) {
			return d, err
		}
	}
	return nil, err
}

// errReportMoved says that the project's report data changed between the
// start of two transactions reading it.
var errReportMoved = errors.New("report data changed while being read")

// reportDataBetween, when set (by tests), runs after the first
// transaction of reportData has fixed what it sees and before the second
// starts.
var reportDataBetween func()

// reportVersion reads the version of a project's report data; as the first
// read of a transaction, it fixes what the transaction sees.
func reportVersion(ctx context.Context, tx *sql.Tx, projectID int64) (int64, error) {
	var v int64
	err := tx.QueryRowContext(ctx, `SELECT coalesce((SELECT version FROM report_versions WHERE project_id = ?), 0)`, projectID).Scan(&v)
	return v, err
}

// reportData reads a project's report data, with the labels in a
// transaction of their own, read at the same time, when apart.
func (s *Store) reportData(ctx context.Context, projectID int64, f domain.ReportFilter, apart bool) (*domain.ReportData, error) {
	tx, err := s.read.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	version, err := reportVersion(ctx, tx, projectID)
	if err != nil {
		return nil, err
	}
	if reportDataBetween != nil {
		reportDataBetween()
	}
	d := &domain.ReportData{SummaryKeyFacts: map[int64][]int64{}, GoldSummaries: map[int64]string{}}
	if err := reportRounds(ctx, tx, reportArgs{project: projectID}, d); err != nil {
		return nil, err
	}
	args := reportArgs{project: projectID, round: -1, in: newInterner(), kept: &reportKept{}}
	if f.Round == "" {
		args.round = 0
	}
	for _, r := range d.Rounds {
		if r.Name == f.Round {
			args.round = r.ID
		}
	}
	if f.SubmittedOnly {
		args.submitted = 1
	}
	// How the assignments and the labels are read depends on how many
	// the report counts: decided once, for both.
	if args.round >= 0 {
		var err error
		if args.many, args.byUser, args.most, err = manyAssignments(ctx, tx, args); err != nil {
			return nil, err
		}
	}
	// The labels have an interner of their own, which numbers their
	// strings and error-type lists.
	largs := args
	largs.in = newInterner()
	labels := &domain.ReportData{}
	steps := []func(context.Context, *sql.Tx, reportArgs, *domain.ReportData) error{
		reportAssignmentRows, reportKeyFactLinks, reportSentences, reportKeyFacts, reportAssistant, reportGoldSummaries, reportScores, reportFlags,
	}
	var wg sync.WaitGroup
	var lerr error
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Read apart, the summary labels are read last by whichever reader
	// is free first (see summaryLabelsAfter).
	var summaryLabels summaryLabelsAfter
	if apart {
		summaryLabels.start()
		// A pass over the labels learns the counted assignments from
		// this reader, which reads them first.
		if labelsWay(largs) == "scan" {
			largs.order = newAssignmentOrder()
		}
		// A second connection only speeds the reading up: when none
		// frees up at once, the report is read on one rather than wait,
		// holding the first, for as long as its caller would.
		lconn, err := s.readConnWithin(lctx, apartConnWait)
		if err != nil {
			return nil, err
		}
		defer lconn.Close()
		ltx, err := lconn.BeginTx(lctx, nil)
		if err != nil {
			return nil, err
		}
		defer ltx.Rollback()
		wg.Go(func() {
			v, err := reportVersion(lctx, ltx, projectID)
			switch {
			case err != nil:
				lerr = err
			case v != version:
				lerr = errReportMoved
			default:
				lerr = reportLabels(lctx, ltx, largs, labels)
			}
			if lerr == nil {
				lerr = summaryLabels.read(lctx, ltx, args, false)
			}
		})
	} else {
		if err := reportLabels(ctx, tx, largs, labels); err != nil {
			return nil, err
		}
	}
	for i, step := range steps {
		if err = step(ctx, tx, args, d); err != nil {
			cancel() // the labels are not needed
			break
		}
		if i == 0 { // reportAssignmentRows
			if largs.order != nil {
				largs.order.give(d.Rounds, d.Assignments)
			}
			summaryLabels.assignmentsRead()
		}
	}
	if err == nil {
		if apart {
			err = summaryLabels.read(ctx, tx, args, true)
		} else {
			err = reportSummaryLabels(ctx, tx, args, d)
		}
		if err != nil {
			cancel()
		}
	}
	wg.Wait()
	if err != nil {
		return nil, err
	}
	if lerr != nil {
		return nil, lerr
	}
	if apart {
		d.SummaryLabels = summaryLabels.data.SummaryLabels
	}
	d.Labels, d.Strings, d.TypeLists = labels.Labels, largs.in.labelStrs, largs.in.typeLists
	d.Details = func(ids []int64) (map[int64]domain.ReportSentenceDetail, error) {
		return s.ReportSentenceDetails(ctx, projectID, ids)
	}
	d.UnitNames = func() (*domain.UnitNames, error) { return s.ProjectUnitNames(ctx, projectID) }
	return d, nil
}

// ReportSentenceDetails reads the text and external ids of sentences of a
// project, at most [MaxReportDetails]; ids of other projects' sentences
// or of none are left out.
func (s *Store) ReportSentenceDetails(ctx context.Context, projectID int64, ids []int64) (map[int64]domain.ReportSentenceDetail, error) {
	if len(ids) > domain.MaxReportDetails {
		return nil, domain.Errorf(domain.EInvalid, "at most %d sentences at a time (got %d)", domain.MaxReportDetails, len(ids))
	}
	out := map[int64]domain.ReportSentenceDetail{}
	if len(ids) == 0 {
		return out, nil
	}
	args := []any{projectID}
	marks := make([]string, len(ids))
	for i, id := range ids {
		marks[i] = "?"
		args = append(args, id)
	}
	rows, err := s.read.QueryContext(ctx, `
		SELECT ss.id, ss.text, s.external_id, d.external_id
		FROM summary_sentences ss
		JOIN summaries s ON s.id = ss.summary_id
		JOIN documents d ON d.id = s.document_id
		WHERE s.project_id = ? AND ss.id IN (`+strings.Join(marks, ",")+`)`, args...)
	if err != nil {
		return nil, domain.Op("Store.ReportSentenceDetails", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var x domain.ReportSentenceDetail
		if err := rows.Scan(&id, &x.Text, &x.SummaryExternal, &x.DocumentExternal); err != nil {
			return nil, domain.Op("Store.ReportSentenceDetails", err)
		}
		out[id] = x
	}
	return out, domain.Op("Store.ReportSentenceDetails", rows.Err())
}

// summaryLabelsAfter reads the summary labels of a report read apart once,
// on whichever of its two transactions gets to them first: the first
// after its other steps, the labels' after the labels, once the counted
// assignments are known. Both see the same summary labels: their writes
// bump report_versions, which the two transactions agree on. On the
// 1.5M-label project with two assistant runs the first transaction's
// steps take longer than the labels, and reading the summary labels
// (0.4 s) beside them shortens the read by about that.
type summaryLabelsAfter struct {
	claimed atomic.Bool
	known   chan struct{} // closed once the assignments are read
	data    domain.ReportData
}

// summaryLabelsOn, when set by tests, names the reader that reads the
// summary labels of a report read apart: "first" or "labels".
var summaryLabelsOn string

func (s *summaryLabelsAfter) start() { s.known = make(chan struct{}) }

// assignmentsRead says that the counted assignments are known.
func (s *summaryLabelsAfter) assignmentsRead() {
	if s.known != nil {
		close(s.known)
	}
}

// read reads the summary labels on tx unless the other reader has: first
// says which reader this is. The labels' reader waits for the counted
// assignments, or for ctx to end.
func (s *summaryLabelsAfter) read(ctx context.Context, tx *sql.Tx, args reportArgs, first bool) error {
	if summaryLabelsOn == "labels" && first || summaryLabelsOn == "first" && !first {
		return nil
	}
	if !first {
		select {
		case <-s.known:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if !s.claimed.CompareAndSwap(false, true) {
		return nil
	}
	return reportSummaryLabels(ctx, tx, args, &s.data)
}
