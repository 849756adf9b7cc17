package tasks

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"annotate/internal/domain"
)

// reportArgs are the parameters of the report's queries: ?1 the project,
// ?2 the round (0 for all), ?3 whether only submitted work counts.
type reportArgs struct {
	project, round int64
	submitted      int
	in             *interner
	kept           *reportKept
	// many says that the report counts most of the database's
	// assignments (see manyAssignments), so that its assignments and
	// labels are read by a pass over their tables; otherwise byUser says
	// that fewer assignments have the counted statuses than belong to the
	// report's rounds, so that the counted ones are best found through
	// the (user_id, status) index rather than the rounds'.
	many, byUser bool
	// most is at least the number of assignments the report counts (0
	// when not known), which sizes the list of them.
	most int
	// order, when set, is where the labels' reader, on a connection of
	// its own, learns the counted assignments from the other reader
	// rather than reading them itself (see reportLabelsByScanLater).
	order *assignmentOrder
}

// reportKept is what the report counts, known once the assignments are
// read: their ids and their summaries.
type reportKept struct {
	assignments, summaries *idSet
	// list is the summaries as a JSON array, once a query has named
	// them so (see keptSummaries); assignmentList the assignments (see
	// keptAssignments). mu guards them: the summary labels may be read
	// beside the other steps (see summaryLabelsAfter).
	mu                   sync.Mutex
	list, assignmentList *string
}

func (k *reportKept) fill(as []domain.ReportAssignment) {
	ids, summaries := make([]int64, len(as)), make([]int64, len(as))
	for i, a := range as {
		ids[i], summaries[i] = a.ID, a.SummaryID
	}
	k.assignments, k.summaries = newIDSet(ids), newIDSet(summaries)
}

// eachRow runs a report query with the report's arguments and calls scan
// for every row.
func eachRow(ctx context.Context, tx *sql.Tx, query string, a reportArgs, scan func(*sql.Rows) error) error {
	return queryRows(ctx, tx, query, scan, a.project, a.round, a.submitted)
}

func reportRounds(ctx context.Context, tx *sql.Tx, a reportArgs, d *domain.ReportData) error {
	return eachRow(ctx, tx, `SELECT `+roundColumns+` FROM rounds WHERE project_id = ?1 AND ?2 + ?3 >= 0 ORDER BY id`, a, func(rows *sql.Rows) error {
		r, err := scanRound(rows)
		if err == nil {
			d.Rounds = append(d.Rounds, *r)
		}
		return err
	})
}

// The report's assignments are read one of two ways. A project whose
// counted assignments are at least half of all is read by one pass over
// the table (NOT INDEXED), as its labels are (see labelscan.go): 0.22 s
// against 0.37 s through the rounds' index for 306,075 assignments.
// Otherwise they are found through the (user_id, status) index, seeking
// each user's assignments of the counted statuses, so that a report of
// the few submitted of many assignments reads those few: 0.4 ms against
// 208 ms for 600 submitted of 600,600 on the 30x load corpus. The rows
// are sorted by id after either read.
const (
	reportAssignmentsScan      = `assignments a NOT INDEXED`
	reportAssignmentsScanWhere = `a.round_id IN (SELECT r.id FROM rounds r WHERE r.project_id = ?1 AND (?2 = 0 OR r.id = ?2))
			AND a.status != 'released' AND (?3 = 0 OR a.status = 'submitted')`
)

// reportAssignmentsByUser is the FROM and WHERE of the counted
// assignments found through the (user_id, status) index; the statuses
// are written into the query so that the index is sought for them alone.
func reportAssignmentsByUser(a reportArgs) string {
	return `users u JOIN assignments a INDEXED BY assignments_user ON a.user_id = u.id AND a.status IN (` + countedStatuses(a) + `)
		WHERE a.round_id IN (SELECT r.id FROM rounds r WHERE r.project_id = ?1 AND (?2 = 0 OR r.id = ?2)) AND ?3 = ?3`
}

// countedStatuses lists the statuses of the assignments the report
// counts, for an IN clause.
func countedStatuses(a reportArgs) string {
	if a.submitted != 0 {
		return `'submitted'`
	}
	return `'pending', 'in_progress', 'submitted'`
}

// reportAssignmentsVia, when set by tests, chooses how the assignments
// are read: "scan", "user" (the (user_id, status) index) or "join" (the
// rounds' index), whatever the project's share.
var reportAssignmentsVia string

// assignmentIDSpan gives the span of the assignments' ids, each end
// found by a seek: "max(id) - min(id)" in one SELECT reads the whole
// table (33 ms for 306,075 assignments).
const assignmentIDSpan = `SELECT coalesce((SELECT max(id) FROM assignments) - (SELECT min(id) FROM assignments) + 1, 0)`

// manyAssignments says whether the report counts at least half of the
// database's assignments, as far as index entries alone tell: the
// assignments of the report's rounds (the rounds' index) and those of
// the counted statuses in any project (the (user_id, status) index) must
// both be at least half. Reading the counted ones exactly would read
// each one's row.
//
// It also says whether the counted assignments are best found through the
// (user_id, status) index (byUser): when fewer assignments have the
// counted statuses than belong to the rounds. A report of every round
// while few are submitted finds them so (600 of 600,600 on the 30x load
// corpus), a report of a small round of a project whose work is all
// submitted through the rounds' index (6,000 of 306,075 on the 1.5M-label
// project, where the users' index gave every submitted assignment and
// took 0.28 s).
func manyAssignments(ctx context.Context, tx *sql.Tx, args reportArgs) (many, byUser bool, most int, err error) {
	var inRounds, counted int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM `+reportJoin+` WHERE r.project_id = ?1 AND (?2 = 0 OR r.id = ?2)`,
		args.project, args.round).Scan(&inRounds); err != nil {
		return false, false, 0, err
	}
	// Both answers need only the lesser of the two counts, so those of
	// the counted statuses are counted up to inRounds: a small round's
	// report stops after a few thousand index entries (the whole count
	// took 25 ms of a 2% round's 0.2 s on the 1.5M-label project).
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM users u JOIN assignments a INDEXED BY assignments_user
		ON a.user_id = u.id AND a.status IN (`+countedStatuses(args)+`) LIMIT ?)`, inRounds).Scan(&counted); err != nil {
		return false, false, 0, err
	}
	// The report's assignments are of its rounds and of the counted
	// statuses: at most counted. Whether that is half of all the
	// assignments is settled by the span of their ids when it is at most
	// twice counted, else by counting them up to twice counted: counting
	// every one took 2-4.5 ms of that round's report.
	if counted > 0 {
		var span int
		if err := tx.QueryRowContext(ctx, assignmentIDSpan).Scan(&span); err != nil {
			return false, false, 0, err
		}
		many = 2*counted >= span
		if !many {
			var all int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM assignments LIMIT ?)`, 2*counted+1).Scan(&all); err != nil {
				return false, false, 0, err
			}
			many = 2*counted >= all
		}
	}
	return many, counted < inRounds, counted, nil
}

// reportAssignmentColumns are the columns reportAssignmentRows reads of
// each assignment, its status as a code.
const reportAssignmentColumns = `a.id, a.round_id, a.summary_id, a.user_id,
	CASE a.status WHEN 'pending' THEN 0 WHEN 'in_progress' THEN 1 WHEN 'submitted' THEN 2 ELSE -1 END, a.active_seconds`

// assignmentsWay says how the report's assignments are best read: "scan"
// when it counts most of them (args.many), "user" when their statuses
// single out fewer than their rounds do (args.byUser), else "join".
func assignmentsWay(args reportArgs) string {
	switch {
	case reportAssignmentsVia != "":
		return reportAssignmentsVia
	case args.many:
		return "scan"
	case args.byUser:
		return "user"
	}
	return "join"
}

func reportAssignmentRows(ctx context.Context, tx *sql.Tx, args reportArgs, d *domain.ReportData) error {
	// Integers only, sorted here: the status as a code (the CHECK on
	// assignments.status lists them) and the user's name read once per
	// user below.
	statuses := []string{domain.StatusPending, domain.StatusInProgress, domain.StatusSubmitted}
	users := map[int64]string{}
	// The scan's destinations are made once: taking their addresses per
	// row would put a few on the heap for each of millions of rows.
	var a domain.ReportAssignment
	var status int
	way := assignmentsWay(args)
	from := reportCountedAssignments
	switch way {
	case "scan":
		from = reportAssignmentsScan + ` WHERE ` + reportAssignmentsScanWhere
	case "user":
		from = reportAssignmentsByUser(args)
	}
	err := eachRow(ctx, tx, `SELECT `+reportAssignmentColumns+` FROM `+from, args, func(rows *sql.Rows) error {
		a = domain.ReportAssignment{}
		if err := rows.Scan(&a.ID, &a.RoundID, &a.SummaryID, &a.UserID, &status, &a.ActiveSeconds); err != nil {
			return err
		}
		if status < 0 {
			return fmt.Errorf("assignment %d: unknown status", a.ID)
		}
		a.Status = statuses[status]
		users[a.UserID] = ""
		if d.Assignments == nil && args.most > 0 {
			d.Assignments = make([]domain.ReportAssignment, 0, args.most)
		}
		d.Assignments = append(d.Assignments, a)
		return nil
	})
	if err != nil {
		return err
	}
	slices.SortFunc(d.Assignments, func(a, b domain.ReportAssignment) int { return cmp.Compare(a.ID, b.ID) })
	ids := make([]int64, 0, len(users))
	for id := range users {
		ids = append(ids, id)
	}
	for len(ids) > 0 {
		n := min(len(ids), 500)
		q := make([]any, n)
		for i, id := range ids[:n] {
			q[i] = id
		}
		rows, err := tx.QueryContext(ctx, `SELECT id, username FROM users WHERE id IN (?`+strings.Repeat(",?", n-1)+`)`, q...)
		if err != nil {
			return err
		}
		for rows.Next() {
			var id int64
			var name string
			if err := rows.Scan(&id, &name); err != nil {
				rows.Close()
				return err
			}
			users[id] = name
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		ids = ids[n:]
	}
	for i := range d.Assignments {
		d.Assignments[i].Username = users[d.Assignments[i].UserID]
	}
	args.kept.fill(d.Assignments)
	return nil
}

func reportLabels(ctx context.Context, tx *sql.Tx, args reportArgs, d *domain.ReportData) error {
	fit, err := sentencesFitAboveLabelBits(ctx, tx)
	if err != nil {
		return err
	}
	// A project that holds most of the assignments holds most of the
	// labels: reading the table straight through is then quicker than
	// finding each assignment's labels by the index (see labelscan.go).
	if fit {
		switch labelsWay(args) {
		case "scan":
			if args.order != nil {
				return reportLabelsByScanLater(ctx, tx, args, args.order, d)
			}
			// The assignments' order, which reads their rows, is read
			// for a pass alone.
			ids, err := reportAssignmentOrder(ctx, tx, args)
			if err != nil {
				return err
			}
			if len(ids) > 0 {
				return reportLabelsByScan(ctx, tx, args, ids, d)
			}
		case "list":
			ids, ok, err := reportFewAssignments(ctx, tx, args)
			if err != nil {
				return err
			}
			if ok {
				return reportLabelsOfList(ctx, tx, args, ids, d)
			}
		}
	}
	// Counting first sizes the slice exactly: millions of labels are not
	// copied as it grows.
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM `+reportJoin+` JOIN sentence_labels l ON l.assignment_id = a.id WHERE `+reportWhere,
		args.project, args.round, args.submitted).Scan(&n); err != nil {
		return err
	}
	d.Labels = make([]domain.ReportLabel, 0, n)
	sentence := labelSentence
	if !fit { // no room in the sentence id: a column of its own
		sentence = `l.sentence_id, `
	}
	dec := labelDecoder{in: args.in, extras: map[string][2]uint32{}}
	var l domain.ReportLabel
	var packed int64
	var types, extra sql.NullString
	return eachRow(ctx, tx, `
		SELECT l.assignment_id, `+sentence+labelColumns+`
		FROM `+reportJoin+` JOIN sentence_labels l ON l.assignment_id = a.id
		WHERE `+reportWhere, args, func(rows *sql.Rows) error {
		var err error
		if !fit {
			err = rows.Scan(&l.AssignmentID, &l.SentenceID, &packed, &types, &extra)
		} else {
			err = rows.Scan(&l.AssignmentID, &packed, &types, &extra)
			l.SentenceID = packed >> labelBitsWidth
		}
		if err != nil {
			return err
		}
		if err := dec.decode(&l, packed, types, extra); err != nil {
			return err
		}
		d.Labels = append(d.Labels, l)
		return nil
	})
}

// labelSentence and labelColumns are the columns of the labels queries
// after the assignment: the sentence id shifted above the label's
// label_bits (see sentenceLabelsV45) and those bits; the error types unless
// there are none; and the ambiguity type and first label where one is
// neither empty nor a label value, each preceded by its length in bytes.
// The strings are NULL otherwise, which costs no string. Few columns and
// little computed per row are what make millions of rows quick to read.
const (
	labelSentence = `(l.sentence_id << 12) | `
	labelColumns  = `l.label_bits,
			CASE WHEN l.label_bits & 512 THEN l.error_types END,
			CASE WHEN l.label_bits & 3072 THEN length(CAST(l.ambiguity_type AS BLOB)) || ',' || l.ambiguity_type || l.first_label END`
)

// labelDecoder turns the columns of a labels query (see labelColumns)
// into a label, numbering its strings in its interner.
type labelDecoder struct {
	in     *interner
	extras map[string][2]uint32
}

// decode fills l, whose ids are set, from the packed column and the two
// strings.
func (dec *labelDecoder) decode(l *domain.ReportLabel, packed int64, types, extra sql.NullString) error {
	if packed&labelBitsNotLabel != 0 {
		return fmt.Errorf("label of sentence %d in assignment %d: not a label value", l.SentenceID, l.AssignmentID)
	}
	l.Label, l.FirstLabel, l.AmbiguityType, l.ErrorTypes = uint32(packed&3), uint32(packed>>2&3), 0, 0
	l.Ambiguous = int8(packed >> 4 & 3)
	l.AssistantVisible, l.ChangedAfterReveal = packed&64 != 0, packed&128 != 0
	if types.Valid {
		l.ErrorTypes = dec.in.typeIndex(types.String)
	}
	if extra.Valid {
		x, ok := dec.extras[extra.String]
		if !ok {
			var err error
			if x, err = dec.in.labelExtras(extra.String); err != nil {
				return err
			}
			dec.extras[extra.String] = x
		}
		l.AmbiguityType = x[0]
		if x[1] != 0 {
			l.FirstLabel = x[1]
		}
	}
	return nil
}

// relevances are the values of summary_labels.relevance (see its CHECK),
// shared by every summary label that gives one.
var relevances = [6]int{0, 1, 2, 3, 4, 5}

func reportSummaryLabels(ctx context.Context, tx *sql.Tx, args reportArgs, d *domain.ReportData) error {
	// Two integer columns: the relevance (0 for none) and the topic
	// category as a code, both as their CHECKs allow them.
	topics := []string{"", "main", "marginal"}
	var l domain.ReportSummaryLabel
	var packed int64
	from, qargs := byAssignmentFrom(args, "summary_labels", "l")
	defer func() {
		sortByAssignment(d.SummaryLabels, func(l domain.ReportSummaryLabel) int64 { return l.AssignmentID })
	}()
	return queryRows(ctx, tx, `
		SELECT l.assignment_id,
			coalesce(l.relevance, 0) | (CASE l.topic_category WHEN '' THEN 0 WHEN 'main' THEN 8 ELSE 16 END)
		FROM `+from, func(rows *sql.Rows) error {
		l = domain.ReportSummaryLabel{}
		if err := rows.Scan(&l.AssignmentID, &packed); err != nil || !args.kept.assignments.has(l.AssignmentID) {
			return err
		}
		rel, topic := packed&7, packed>>3&3
		if rel > 5 || topic > 2 {
			return fmt.Errorf("summary label of assignment %d: relevance or topic category out of range", l.AssignmentID)
		}
		l.TopicCategory = topics[topic]
		if rel > 0 {
			l.Relevance = &relevances[rel]
		}
		if d.SummaryLabels == nil && args.most > 0 {
			d.SummaryLabels = make([]domain.ReportSummaryLabel, 0, args.most) // at most one an assignment
		}
		d.SummaryLabels = append(d.SummaryLabels, l)
		return nil
	}, qargs...)
}

// reportLinksVia, when set by tests, chooses how the key-fact links are
// read: "scan" or "assignments", whatever the share of the database's
// assignments the report counts.
var reportLinksVia string

// linksWay says how the key-fact links of the counted assignments are
// best read: "scan", every link of the database in assignment order
// through the table's primary key, those of other assignments left out,
// when the report counts most assignments (args.many); else
// "assignments", each counted assignment's through that key. On the
// 1.5M-label project with five key facts a document (1.1M links of
// 306,075 assignments) the scan leaves out a seek per assignment and the
// join that finds them.
func linksWay(args reportArgs) string {
	switch {
	case reportLinksVia != "":
		return reportLinksVia
	case args.many:
		return "scan"
	}
	return "assignments"
}

// linksScanFrom reads every key-fact link in assignment order.
const linksScanFrom = `keyfact_labels k ORDER BY k.assignment_id, k.key_fact_id, k.sentence_id`

func reportKeyFactLinks(ctx context.Context, tx *sql.Tx, args reportArgs, d *domain.ReportData) error {
	var k domain.ReportKeyFactLink
	from, qargs := byAssignmentFrom(args, "keyfact_labels", "k")
	if linksWay(args) == "scan" {
		from, qargs = linksScanFrom, nil
	}
	defer func() {
		sortByAssignment(d.KeyFactLinks, func(k domain.ReportKeyFactLink) int64 { return k.AssignmentID })
	}()
	// An assignment's links come together: whether it counts is looked
	// up once for them.
	last, counted := int64(0), false
	return queryRows(ctx, tx, `
		SELECT k.assignment_id, k.key_fact_id, k.sentence_id
		FROM `+from, func(rows *sql.Rows) error {
		if err := rows.Scan(&k.AssignmentID, &k.KeyFactID, &k.SentenceID); err != nil {
			return err
		}
		if k.AssignmentID != last {
			last, counted = k.AssignmentID, args.kept.assignments.has(k.AssignmentID)
		}
		if counted {
			d.KeyFactLinks = append(d.KeyFactLinks, k)
		}
		return nil
	}, qargs...)
}

// byAssignmentFrom is the FROM and WHERE that read the rows of table (a
// table of rows by assignment, named alias) of the counted assignments,
// with the query arguments: by the list of them when there are few (see
// keptAssignments), else through the report's join, whose other
// assignments the caller leaves out as they come.
func byAssignmentFrom(args reportArgs, table, alias string) (string, []any) {
	if list, ok := keptAssignments(args); ok {
		return table + ` ` + alias + ` WHERE ` + alias + `.assignment_id IN (SELECT value FROM json_each(?4))`, list
	}
	return reportJoin + ` JOIN ` + table + ` ` + alias + ` ON ` + alias + `.assignment_id = a.id WHERE ` + reportRoundWhere,
		[]any{args.project, args.round, args.submitted}
}

// sortByAssignment puts rows read by assignment in the order of their
// assignment ids, keeping each assignment's rows in the order read: the
// same order whichever way keptAssignments named the assignments.
func sortByAssignment[T any](rows []T, id func(T) int64) {
	by := func(a, b T) int { return cmp.Compare(id(a), id(b)) }
	if !slices.IsSortedFunc(rows, by) {
		slices.SortStableFunc(rows, by)
	}
}

// assignedSummaries holds the summaries the report's assignments cover,
// and those of the round's assignments it does not count, which are left
// out as they come (see reportKept). Choosing the round on the rounds
// (r.id) rather than on the assignments reads only that round's
// assignments.
const assignedSummaries = `SELECT a.summary_id FROM ` + reportJoin + ` WHERE ` + reportRoundWhere

// keptListMax is the most summaries the report names in its queries of
// sentences and key facts, as a JSON list (?4); with more, those queries
// read every summary the round's assignments cover (assignedSummaries)
// and leave out the others as they come. A round where few of many
// assignments count (the submitted ones, early in a large round) is thus
// read by its counted summaries alone: on the 10x loadgen corpus, 2,000
// submitted of 200,600 assignments, reading the 550,828 sentences of all
// of them took most of the report's time.
const keptListMax = 20000

// reportSummariesVia, when set by tests, chooses how the queries of
// sentences and key facts choose their summaries: "list" or "all".
var reportSummariesVia string

// keptSummaries returns the subquery of the summaries whose sentences and
// key facts the report reads, and the query arguments that go with it.
// The list is made once per reading (see reportKept.list).
func keptSummaries(a reportArgs) (string, []any) {
	if args, ok := keptListArgs(a, a.kept.summaries, &a.kept.list); ok {
		return `SELECT value FROM json_each(?4)`, args
	}
	return assignedSummaries, []any{a.project, a.round, a.submitted}
}

// keptAssignments returns the query arguments that name the counted
// assignments in a JSON list (?4), for the queries of summary labels,
// key-fact links and assistant labels, when they number at most
// keptListMax, so that a round where few of many count reads those few;
// ok is false when there are more, and those queries read the report's
// join instead.
func keptAssignments(a reportArgs) (args []any, ok bool) {
	return keptListArgs(a, a.kept.assignments, &a.kept.assignmentList)
}

// keptListArgs returns the report's query arguments with ids, as a JSON
// list made once into *list, as ?4, when they number at most keptListMax
// (or the tests say so); ok is false otherwise.
func keptListArgs(a reportArgs, ids *idSet, list **string) (args []any, ok bool) {
	use := ids.len() <= keptListMax
	if reportSummariesVia != "" {
		use = reportSummariesVia == "list"
	}
	if !use {
		return nil, false
	}
	a.kept.mu.Lock()
	defer a.kept.mu.Unlock()
	if *list == nil {
		l := JSONIDs(ids.sorted())
		*list = &l
	}
	return []any{a.project, a.round, a.submitted, **list}, true
}

// JSONIDs writes ids as a JSON array, for json_each in a query.
func JSONIDs(ids []int64) string {
	b := make([]byte, 0, 8*len(ids)+2)
	b = append(b, '[')
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, id, 10)
	}
	return string(append(b, ']'))
}

// reportGoldText is the gold label of the sentences query as one column: the
// ambiguity flag as n, y or f, the lengths in bytes of the label and the
// error types, each with a comma, then the label, error types and
// ambiguity type; reportGoldDerived says whether the annotators' labels made
// it.
const (
	reportGoldText = `(CASE WHEN g.ambiguous IS NULL THEN 'n' WHEN g.ambiguous THEN 'y' ELSE 'f' END)
				|| length(CAST(g.label AS BLOB)) || ',' || length(CAST(g.error_types AS BLOB)) || ','
				|| g.label || g.error_types || g.ambiguity_type`
	reportGoldDerived = `coalesce(g.provenance IN ('unanimous', 'majority'), 0)`
)

// sparseGoldShare: when the gold sentences (of every project) number
// at most one in this many of the sentences the report reads, the report
// reads them on their own rather than looking each sentence up in
// gold_sentences, a seek per sentence: on 500,000 sentences with 49,778
// gold the join took 1.15-1.36 s and the map's two reads 0.7 s. Past a
// quarter reading all the gold costs more than the seeks for a report of
// few sentences: a report of a 2% round of that project reads 10,000
// sentences, and reading every gold sentence for them took 54 ms of its
// 207. A report that reads most of the database's sentences (see
// sentencesWay) reads the gold on its own whatever its share: on the same
// project with 223,000 sentences of resolved gold, the join's seeks and
// texts took 0.43 s beside 0.22 s for reading the gold alone.
const sparseGoldShare = 4

// reportGoldVia, when set by tests, chooses how the sentences' gold is
// read: "apart" or "join", whatever its share.
var reportGoldVia string

// readsGoldApart says whether the report reads the sentences' gold on its
// own (readGoldApart) rather than joining it to the sentences read the
// way way: always for a scan of every sentence, else when there is
// little of it (see sparseGoldShare).
func readsGoldApart(ctx context.Context, tx *sql.Tx, args reportArgs, way string) (bool, error) {
	switch {
	case reportGoldVia != "":
		return reportGoldVia == "apart", nil
	case way == "scan":
		return true, nil
	}
	// The sentences the report reads: those of its summaries when it
	// names them in a list (counted through the summaries' index), else
	// as many as there are sentence ids.
	//
	// Counting reads the smallest index of gold_sentences: far less than
	// reading rows only to drop them when there are too many. A report
	// of few summaries counts them only up to a share of its sentences:
	// counting all the gold of the 1.5M-label project took 1.5 ms of its
	// 2% round's report, and 12-14 ms once the project's gold was
	// resolved.
	var reads int64
	count, countArgs := `SELECT count(*) FROM gold_sentences`, []any(nil)
	list, few := keptListArgs(args, args.kept.summaries, &args.kept.list)
	if few {
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM summary_sentences WHERE summary_id IN (SELECT value FROM json_each(?))`, list[3]).Scan(&reads); err != nil {
			return false, err
		}
		count, countArgs = `SELECT count(*) FROM (SELECT 1 FROM gold_sentences LIMIT ?)`, []any{reads/sparseGoldShare + 1}
	} else if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) FROM summary_sentences`).Scan(&reads); err != nil {
		return false, err
	}
	var n int64
	if err := tx.QueryRowContext(ctx, count, countArgs...).Scan(&n); err != nil {
		return false, err
	}
	return n <= reads/sparseGoldShare, nil
}

// goldApart is the gold of every sentence that has some (not
// unresolved), read on its own, in sentence order. Each sentence holds
// the number of its gold's kind, a text and whether it is derived (see
// reportGoldText and reportGoldDerived); a kind is made into a
// ReportGold when a sentence read has it, so that the report's strings
// are numbered in the order its sentences use them, as the join's are,
// and hold nothing of gold the report does not read.
type goldApart struct {
	sentences []int64
	kindOf    []int32
	kinds     []goldKind
	next      int // where the search for a sentence starts
}

// goldKey is a sentence's gold as the report's queries give it: its text
// (reportGoldText) and whether it is derived (reportGoldDerived).
type goldKey struct {
	text    string
	derived bool
}

// goldKind is one kind of gold, made into report gold once.
type goldKind struct {
	goldKey
	gold *domain.ReportGold
}

// readGoldApart reads every sentence's gold (see goldApart).
func readGoldApart(ctx context.Context, tx *sql.Tx) (*goldApart, error) {
	a := &goldApart{}
	seen := map[goldKey]int32{}
	var id int64
	var k goldKey
	err := queryRows(ctx, tx, `SELECT g.sentence_id, `+reportGoldText+`, `+reportGoldDerived+`
		FROM gold_sentences g WHERE g.provenance != 'unresolved' ORDER BY g.sentence_id`, func(rows *sql.Rows) error {
		if err := rows.Scan(&id, &k.text, &k.derived); err != nil {
			return err
		}
		n, ok := seen[k]
		if !ok {
			n = int32(len(a.kinds))
			seen[k] = n
			a.kinds = append(a.kinds, goldKind{goldKey: k})
		}
		a.sentences = append(a.sentences, id)
		a.kindOf = append(a.kindOf, n)
		return nil
	})
	return a, err
}

// of returns the kind of sentence id's gold, nil for none; quickest for
// sentences asked for in increasing order.
func (a *goldApart) of(id int64) *goldKind {
	s := a.sentences
	i := a.next
	switch {
	case i < len(s) && s[i] == id:
	case (i == len(s) || s[i] > id) && (i == 0 || s[i-1] < id):
		return nil // between the gold before and the next
	default:
		var found bool
		if i, found = slices.BinarySearch(s, id); !found {
			a.next = i
			return nil
		}
	}
	a.next = i + 1
	return &a.kinds[a.kindOf[i]]
}

// reportSentencesVia, when set by tests, chooses how the sentences are
// read: "scan" or "summaries", whatever the share of the database's
// summaries the report counts.
var reportSentencesVia string

// sentencesWay says how the sentences of the counted summaries are best
// read: "scan", every sentence of the database through the (summary, idx)
// index, when those summaries are at least half of every summary there is (as
// far as the largest summary id tells); else "summaries", each counted
// summary's through the (summary, idx) index. On the 1.5M-label project
// (100,000 summaries, 500,000 sentences) the scan leaves out finding the
// assigned summaries and a seek per summary.
func sentencesWay(ctx context.Context, tx *sql.Tx, args reportArgs) (string, error) {
	if reportSentencesVia != "" {
		return reportSentencesVia, nil
	}
	var maxID int64
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) FROM summaries`).Scan(&maxID); err != nil {
		return "", err
	}
	if n := int64(args.kept.summaries.len()); n > 0 && 2*n >= maxID {
		return "scan", nil
	}
	return "summaries", nil
}

func reportSentences(ctx context.Context, tx *sql.Tx, args reportArgs, d *domain.ReportData) error {
	// Equal gold labels share one ReportGold.
	golds := map[goldKey]*domain.ReportGold{}
	intern := func(text string, derived bool) (*domain.ReportGold, error) {
		if g, ok := golds[goldKey{text, derived}]; ok {
			return g, nil
		}
		g, err := args.in.gold(text)
		if err != nil {
			return nil, err
		}
		if derived {
			c := *g // the interned gold may be shared with independent gold
			c.Derived = true
			g = &c
		}
		golds[goldKey{text, derived}] = g
		return g, nil
	}
	way, err := sentencesWay(ctx, tx, args)
	if err != nil {
		return err
	}
	apart, err := readsGoldApart(ctx, tx, args, way)
	if err != nil {
		return err
	}
	var goldRead *goldApart
	if apart {
		if goldRead, err = readGoldApart(ctx, tx); err != nil {
			return err
		}
	}
	summaries, qargs := keptSummaries(args)
	where := `WHERE ss.summary_id IN (` + summaries + `) ORDER BY ss.summary_id, ss.idx`
	if way == "scan" {
		// Every sentence, through the same index, those of other
		// summaries left out as they come.
		where, qargs = `ORDER BY ss.summary_id, ss.idx`, nil
	}
	query := `SELECT ss.id, ss.summary_id, ss.idx, CASE WHEN g.sentence_id IS NOT NULL THEN ` + reportGoldText + ` END, ` + reportGoldDerived + `
		FROM summary_sentences ss
		LEFT JOIN gold_sentences g ON g.sentence_id = ss.id AND g.provenance != 'unresolved' ` + where
	if apart {
		query = `SELECT ss.id, ss.summary_id, ss.idx FROM summary_sentences ss ` + where
	}
	var x domain.ReportSentence
	var gold sql.NullString
	var derived bool
	return queryRows(ctx, tx, query, func(rows *sql.Rows) error {
		x = domain.ReportSentence{}
		var err error
		if apart {
			err = rows.Scan(&x.ID, &x.SummaryID, &x.Index)
		} else {
			err = rows.Scan(&x.ID, &x.SummaryID, &x.Index, &gold, &derived)
		}
		if err != nil || !args.kept.summaries.has(x.SummaryID) {
			return err
		}
		switch {
		case apart:
			if k := goldRead.of(x.ID); k != nil {
				if k.gold == nil {
					if k.gold, err = intern(k.text, k.derived); err != nil {
						return fmt.Errorf("gold of sentence %d: %w", x.ID, err)
					}
				}
				x.Gold = k.gold
			}
		case gold.Valid:
			if x.Gold, err = intern(gold.String, derived); err != nil {
				return fmt.Errorf("gold of sentence %d: %w", x.ID, err)
			}
		}
		d.Sentences = append(d.Sentences, x)
		return nil
	}, qargs...)
}

func reportKeyFacts(ctx context.Context, tx *sql.Tx, args reportArgs, d *domain.ReportData) error {
	// The same key facts the labelling page offers: the document's, for
	// the summary's topic or for no topic. The key facts are read once
	// and matched with the summaries here: joining them per summary read
	// each document's key facts once per summary and sorted the lot
	// (0.55 s against 0.2 s for 100,000 summaries and 80,000 key facts).
	type keyFact struct {
		id    int64
		topic string
	}
	type summary struct {
		id, doc int64
		topic   string
	}
	var sums []summary
	docs := map[int64][]keyFact{}
	var sm summary
	// The counted summaries when named in a list, else every summary of
	// the project, those not counted left out as they come, in no
	// particular order (nothing below depends on it): selecting the
	// summaries the rounds' assignments cover took 0.2 s of the whole
	// report on the 1.5M-label project, and sorting the project's by id
	// 0.1 s.
	query, qargs := `SELECT s.id, s.document_id, s.topic FROM summaries s WHERE s.project_id = ?1`, []any{args.project}
	if list, ok := keptListArgs(args, args.kept.summaries, &args.kept.list); ok {
		query, qargs = `SELECT s.id, s.document_id, s.topic FROM summaries s WHERE s.id IN (SELECT value FROM json_each(?4)) ORDER BY s.id`, list
	}
	err := queryRows(ctx, tx, query, func(rows *sql.Rows) error {
		if err := rows.Scan(&sm.id, &sm.doc, &sm.topic); err != nil || !args.kept.summaries.has(sm.id) {
			return err
		}
		sm.topic = args.in.str(sm.topic)
		sums = append(sums, sm)
		docs[sm.doc] = nil
		return nil
	}, qargs...)
	if err != nil || len(sums) == 0 {
		return err
	}
	// The key facts of those summaries' documents, found by the
	// (document_id, topic, idx) index, in key-fact order.
	var doc int64
	var kf keyFact
	err = queryRows(ctx, tx, `SELECT k.id, k.document_id, k.topic FROM key_facts k WHERE k.document_id IN (SELECT value FROM json_each(?)) ORDER BY k.id`, func(rows *sql.Rows) error {
		if err := rows.Scan(&kf.id, &doc, &kf.topic); err != nil {
			return err
		}
		kf.topic = args.in.str(kf.topic)
		docs[doc] = append(docs[doc], kf)
		return nil
	}, JSONIDs(slices.Sorted(maps.Keys(docs))))
	if err != nil {
		return err
	}
	for _, sm := range sums {
		for _, k := range docs[sm.doc] {
			if k.topic == sm.topic || k.topic == "" {
				d.SummaryKeyFacts[sm.id] = append(d.SummaryKeyFacts[sm.id], k.id)
			}
		}
	}
	return nil
}

// reportAssistant reads the assistant's labels of the report's sentences
// (d.Sentences, which reportSentences reads before it). The order
// matches AssistPanel: real runs before samples, newest first. Each run
// in that order is read for the sentences the runs before it left
// without a label, and none is read once every sentence has one: on the
// goal shape the newest run labels every sentence, and reading the
// other's 500,000 results took 0.22-0.26 s of the whole report.
//
// A run is read from the index of the runs' labelled results
// (assist_outputs_labels, schema 40) alone, never the table's rows (each
// holds the whole output: a gigabyte for two runs over 500,000
// sentences). It is read whole, in sentence order (runLabelsQuery), when
// the sentences wanting a label are most of the report's of a report
// that counts most assignments (args.many); else by looking those
// sentences up (sentenceRunLabelsQuery). Whole, it gives labels of
// sentences the report has no label of too; the report reads the
// assistant's label of labelled sentences only.
func reportAssistant(ctx context.Context, tx *sql.Tx, args reportArgs, d *domain.ReportData) error {
	want := make([]int64, 0, len(d.Sentences))
	for _, x := range d.Sentences {
		want = append(want, x.ID)
	}
	slices.Sort(want)
	runs, err := runsByPrecedence(ctx, tx, args.project)
	if err != nil {
		return err
	}
	for _, run := range runs {
		if len(want) == 0 {
			break
		}
		whole := args.many && len(want) > len(d.Sentences)/assistLookupShare
		if reportAssistantVia != "" {
			whole = reportAssistantVia == "run"
		}
		query, qargs := sentenceRunLabelsQuery, []any{run, JSONIDs(want)}
		if whole {
			query, qargs = runLabelsQuery, []any{run}
		}
		if assistRunRead != nil {
			assistRunRead(run, whole, len(want))
		}
		got, err := readRunLabels(ctx, tx, query, qargs...)
		if err != nil {
			return err
		}
		if err := d.Assistant.Fill(got); err != nil {
			return err
		}
		// The sentences still without a label: both lists are sorted.
		left, k := want[:0], 0
		for _, id := range want {
			for k < len(got.IDs) && got.IDs[k] < id {
				k++
			}
			if k == len(got.IDs) || got.IDs[k] != id {
				left = append(left, id)
			}
		}
		want = left
	}
	return nil
}

// readRunLabels reads one run's labelled results with query
// (runLabelsQuery or sentenceRunLabelsQuery, which give them in order of
// sentence id).
func readRunLabels(ctx context.Context, tx *sql.Tx, query string, args ...any) (domain.AssistantLabels, error) {
	var sid int64
	var label sql.RawBytes
	var got domain.AssistantLabels
	err := queryRows(ctx, tx, query, func(rows *sql.Rows) error {
		if err := rows.Scan(&sid, &label); err != nil {
			return err
		}
		return got.AddBytes(sid, label)
	}, args...)
	return got, err
}

// assistLookupShare: a report that counts most assignments reads a run
// whole unless at most one in this many of its sentences still want a
// label, which it then looks up: a lookup costs about four times a row
// read in order (2 against 0.45 us on the goal shape).
const assistLookupShare = 4

// assistRunRead, when set by tests, is told of each run reportAssistant
// reads: whole or by looking up the sentences wanting a label.
var assistRunRead func(run int64, whole bool, wanting int)

// reportAssistantVia, when set by tests, chooses how each run's labels
// are read: "run" (whole) or "sentences" (those of the sentences wanting
// one), whatever the report counts.
var reportAssistantVia string

// sentenceRunLabelsQuery reads one run's labelled results of the
// sentences listed in ?2 from assist_outputs_labels alone.
const sentenceRunLabelsQuery = `SELECT o.sentence_id, o.label FROM assist_outputs o
			WHERE o.run_id = ?1 AND o.status = 'ok' AND o.label != '' AND o.sentence_id IN (SELECT value FROM json_each(?2))
			ORDER BY o.sentence_id`

// runLabelsQuery reads one run's labelled results from
// assist_outputs_labels alone.
const runLabelsQuery = `SELECT o.sentence_id, o.label FROM assist_outputs o
			WHERE o.run_id = ? AND o.status = 'ok' AND o.label != '' ORDER BY o.sentence_id`

// reportGoldSummaries reads the summary-level gold of the counted
// summaries. When they are named in a list (a round), it looks those up:
// joining every summary of the project found none among the 100,000 of
// the 1.5M-label project in 9 ms, a twentieth of its 2% round's report.
func reportGoldSummaries(ctx context.Context, tx *sql.Tx, args reportArgs, d *domain.ReportData) error {
	query := `SELECT g.summary_id, g.label FROM gold_summaries g JOIN summaries s ON s.id = g.summary_id
		WHERE s.project_id = ?1 AND g.provenance != 'unresolved' AND ?2 + ?3 >= 0`
	qargs := []any{args.project, args.round, args.submitted}
	if list, ok := keptListArgs(args, args.kept.summaries, &args.kept.list); ok {
		query = `SELECT g.summary_id, g.label FROM gold_summaries g
			WHERE g.summary_id IN (SELECT value FROM json_each(?4)) AND g.provenance != 'unresolved'`
		qargs = list
	}
	var sid int64
	var label string
	return queryRows(ctx, tx, query, func(rows *sql.Rows) error {
		if err := rows.Scan(&sid, &label); err != nil || !args.kept.summaries.has(sid) {
			return err
		}
		d.GoldSummaries[sid] = label
		return nil
	}, qargs...)
}
