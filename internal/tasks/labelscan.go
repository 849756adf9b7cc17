package tasks

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"

	"annotate/internal/domain"
)

// The report's labels of a project that holds most of the database are
// read by one pass over the sentence_labels table in row order, rather
// than through the (assignment_id, sentence_id) index, which costs a seek
// into the table for every label: on 1.5 million labels the pass takes
// about half the time. The pass yields the labels in the order they were
// written; they are then put in the order the index gives (the
// assignments as the report's join visits them, each assignment's labels
// by sentence) and their strings numbered in that order, so the report
// data is the same whichever way it was read.

// reportLabelsVia, when set by tests, chooses how the labels are read:
// "scan", "list" or "join", whatever the project's share of the database.
var reportLabelsVia string

// labelsWay says how the report's labels are best read: by a pass over
// the table ("scan") when the report counts most of the database's
// assignments (args.many), else by the list of the counted assignments
// ("list"), found through the (user_id, status) index or the rounds' (see
// assignmentsWay), when the round is known. The report's join ("join")
// reads every assignment row of the project's rounds to find the counted
// ones: on the 30x load corpus, 600 submitted of 600,600, that took 0.4 s
// twice (a count and the read).
func labelsWay(args reportArgs) string {
	switch {
	case reportLabelsVia != "":
		return reportLabelsVia
	case args.many:
		return "scan"
	case args.round >= 0:
		return "list"
	}
	return "join"
}

// fewAssignmentColumns are the columns reportFewAssignments reads.
const fewAssignmentColumns = `a.id, a.round_id, a.summary_id, a.user_id`

// reportFewAssignments returns the ids of the assignments the report
// counts, found as reportAssignmentRows finds them (through the
// (user_id, status) index or the rounds'), in the order the report's join
// visits them: the project's rounds by name (their unique index), then by
// summary and user (the assignments' unique index). ok is false when they
// are more than fewAssignmentsMax.
func reportFewAssignments(ctx context.Context, tx *sql.Tx, args reportArgs) ([]int64, bool, error) {
	rank := map[int64]int{}
	err := eachRow(ctx, tx, `SELECT id FROM rounds WHERE project_id = ?1 AND ?2 + ?3 >= 0 ORDER BY name`, args, func(rows *sql.Rows) error {
		var id int64
		err := rows.Scan(&id)
		rank[id] = len(rank)
		return err
	})
	if err != nil {
		return nil, false, err
	}
	type key struct {
		id, round, summary, user int64
	}
	var keys []key
	var k key
	from := reportCountedAssignments
	if assignmentsWay(args) == "user" {
		from = reportAssignmentsByUser(args)
	}
	err = eachRow(ctx, tx, `SELECT `+fewAssignmentColumns+` FROM `+from, args, func(rows *sql.Rows) error {
		if err := rows.Scan(&k.id, &k.round, &k.summary, &k.user); err != nil {
			return err
		}
		keys = append(keys, k)
		if len(keys) > fewAssignmentsMax {
			return errTooMany
		}
		return nil
	})
	if errors.Is(err, errTooMany) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(cmp.Compare(rank[a.round], rank[b.round]), cmp.Compare(a.summary, b.summary), cmp.Compare(a.user, b.user))
	})
	ids := make([]int64, len(keys))
	for i, k := range keys {
		ids[i] = k.id
	}
	return ids, true, nil
}

// fewAssignmentsMax is the most assignments whose labels are read by
// their list; a report that counts more reads them through the join.
// Tests lower it.
var fewAssignmentsMax = keptListMax

// errTooMany stops reading the counted assignments past fewAssignmentsMax.
var errTooMany = errors.New("more assignments than listed")

// reportLabelsOfList reads the labels of the assignments ids (in the
// join's order) through the labels' (assignment_id, sentence_id) index,
// naming them in a JSON list, then orders and numbers them as reportLabels
// does.
func reportLabelsOfList(ctx context.Context, tx *sql.Tx, args reportArgs, ids []int64, d *domain.ReportData) error {
	if len(ids) == 0 {
		d.Labels = []domain.ReportLabel{}
		return nil
	}
	// The labels are not counted first to size the arrays: that read
	// every label's index entry twice (10 ms of a 2% round's 0.2 s on the
	// 1.5M-label project).
	list := JSONIDs(slices.Sorted(slices.Values(ids)))
	return readReportLabels(ctx, tx, args, ids, newSlotTable(ids), 0, `
		SELECT l.assignment_id, `+labelSentence+labelColumns+`
		FROM sentence_labels l WHERE l.assignment_id IN (SELECT value FROM json_each(?))`, []any{list}, d)
}

// reportAssignmentOrder returns the ids of the assignments whose labels
// the report reads, in the order its labels join visits them.
func reportAssignmentOrder(ctx context.Context, tx *sql.Tx, args reportArgs) ([]int64, error) {
	var ids []int64
	var id int64
	err := eachRow(ctx, tx, `SELECT a.id FROM `+reportJoin+` WHERE `+reportWhere, args, func(rows *sql.Rows) error {
		if err := rows.Scan(&id); err != nil {
			return err
		}
		ids = append(ids, id)
		return nil
	})
	return ids, err
}

// slotTable finds an assignment's place in the join's order: a dense
// table when the ids lie close together, else a map.
type slotTable struct {
	lo, hi int64
	dense  []int32
	sparse map[int64]int32
}

func newSlotTable(ids []int64) *slotTable {
	t := &slotTable{lo: slices.Min(ids), hi: slices.Max(ids)}
	if span := t.hi - t.lo + 1; span <= 4*int64(len(ids))+4096 {
		t.dense = make([]int32, span)
		for i := range t.dense {
			t.dense[i] = -1
		}
		for i, id := range ids {
			t.dense[id-t.lo] = int32(i)
		}
		return t
	}
	t.sparse = make(map[int64]int32, len(ids))
	for i, id := range ids {
		t.sparse[id] = int32(i)
	}
	return t
}

// of returns the assignment's place, or -1 if the report does not read it.
func (t *slotTable) of(id int64) int32 {
	if id < t.lo || id > t.hi {
		return -1
	}
	if t.dense != nil {
		return t.dense[id-t.lo]
	}
	if s, ok := t.sparse[id]; ok {
		return s
	}
	return -1
}

// labelIDSpan counts the row ids from the smallest sentence label's to
// the largest's. Each end is a subquery of its own: SQLite reads one end
// of the table's b-tree for a lone min() or max(), but a query that asks
// for both reads every row (0.27 s on 1.5 million labels, against
// 0.2 ms).
const labelIDSpan = `SELECT coalesce((SELECT max(id) FROM sentence_labels) - (SELECT min(id) FROM sentence_labels) + 1, 0)`

// reportLabelsByScan reads the labels of the assignments ids (in the
// join's order) by a pass over the whole table, then orders and numbers
// them as reportLabels does.
func reportLabelsByScan(ctx context.Context, tx *sql.Tx, args reportArgs, ids []int64, d *domain.ReportData) error {
	// The rows are sized by the span of the table's row ids rather than
	// the largest id: re-imports delete labels and write them again under
	// new ids, so the largest id climbs with each one while the span stays
	// near the rows there are.
	var span int64
	if err := tx.QueryRowContext(ctx, labelIDSpan).Scan(&span); err != nil {
		return err
	}
	slots := newSlotTable(ids)
	// NOT INDEXED keeps the pass a pass: the range on assignment_id
	// would otherwise send SQLite through the index and into the table
	// for each row.
	return readReportLabels(ctx, tx, args, ids, slots, int(span), `
		SELECT l.assignment_id, `+labelSentence+labelColumns+`
		FROM sentence_labels l NOT INDEXED
		WHERE l.assignment_id BETWEEN ?1 AND ?2`, []any{slots.lo, slots.hi}, d)
}

// readReportLabels reads labels with query (its columns those of
// reportLabelsByScan's; queryArgs its arguments), keeps those of the
// assignments ids (in the join's order; slots finds their places), about
// size of them, orders them by the place of their assignment and then by
// sentence, and numbers their strings as the join's reading would have.
func readReportLabels(ctx context.Context, tx *sql.Tx, args reportArgs, ids []int64, slots *slotTable, size int, query string, queryArgs []any, d *domain.ReportData) error {
	sc, err := scanReportLabels(ctx, tx, slots, size, query, queryArgs)
	if err != nil {
		return err
	}
	sc.place(args, ids, d)
	return nil
}

// labelsRead are labels as a query gave them, with their assignment's
// place (at), their strings numbered by a decoder of their own until
// they are in order.
type labelsRead struct {
	read  []domain.ReportLabel
	at    []int32
	local labelDecoder
}

// scanReportLabels reads the labels of query, keeping those whose
// assignment slots finds a place for, or all of them, with no places,
// when slots is nil.
func scanReportLabels(ctx context.Context, tx *sql.Tx, slots *slotTable, size int, query string, queryArgs []any) (*labelsRead, error) {
	sc := &labelsRead{read: make([]domain.ReportLabel, 0, size), local: labelDecoder{in: newInterner(), extras: map[string][2]uint32{}}}
	if slots != nil {
		sc.at = make([]int32, 0, size)
	}
	var l domain.ReportLabel
	var packed int64
	var types, extra sql.NullString
	err := queryRows(ctx, tx, query, func(rows *sql.Rows) error {
		if err := rows.Scan(&l.AssignmentID, &packed, &types, &extra); err != nil {
			return err
		}
		slot := int32(0)
		if slots != nil {
			if slot = slots.of(l.AssignmentID); slot < 0 {
				return nil
			}
		}
		l.SentenceID = packed >> labelBitsWidth
		if err := sc.local.decode(&l, packed, types, extra); err != nil {
			return err
		}
		sc.read = append(sc.read, l)
		if slots != nil {
			sc.at = append(sc.at, slot)
		}
		return nil
	}, queryArgs...)
	return sc, err
}

// keep drops the labels whose assignment slots finds no place for, and
// notes the places of the others.
func (sc *labelsRead) keep(slots *slotTable) {
	sc.at = make([]int32, 0, len(sc.read))
	n := 0
	for _, l := range sc.read {
		if s := slots.of(l.AssignmentID); s >= 0 {
			sc.read[n] = l
			sc.at = append(sc.at, s)
			n++
		}
	}
	clear(sc.read[n:])
	sc.read = sc.read[:n]
}

// place orders the labels read by the place of their assignment among ids
// and then by sentence, numbers their strings in the report's interner
// in that order, and gives them to d.
func (sc *labelsRead) place(args reportArgs, ids []int64, d *domain.ReportData) {
	read, at, local := sc.read, sc.at, &sc.local
	sc.read, sc.at = nil, nil
	// Counting sort by place: each label is copied to its assignment's
	// next free slot of a second array. The copy is read in order and
	// written in as many runs as the table holds assignments out of
	// place; following the permutation's cycles in place instead read
	// and wrote at random over the whole array (0.24 s of 1.5M labels).
	// The second array lives only until the first is dropped, while the
	// data is read, below the report's peak, which comes while it is
	// built.
	start := make([]int, len(ids)+1)
	for _, s := range at {
		start[s+1]++
	}
	for i := 1; i < len(start); i++ {
		start[i] += start[i-1]
	}
	out := read
	if !slices.IsSorted(at) {
		out = make([]domain.ReportLabel, len(read))
		next := slices.Clone(start[:len(ids)])
		for i, s := range at {
			out[next[s]] = read[i]
			next[s]++
		}
	}
	read, at = nil, nil
	bySentence := func(a, b domain.ReportLabel) int { return cmp.Compare(a.SentenceID, b.SentenceID) }
	for i := range ids {
		if g := out[start[i]:start[i+1]]; !slices.IsSortedFunc(g, bySentence) {
			slices.SortFunc(g, bySentence)
		}
	}
	// Number the strings in the report's interner in this order, as the
	// join's reading would have: the error types, then the ambiguity
	// type and the first label.
	raw := make([]string, len(local.in.typeLists))
	for s, i := range local.in.typeOf {
		if i != 0 {
			raw[i] = s
		}
	}
	for i := range out {
		l := &out[i]
		if l.ErrorTypes != 0 {
			l.ErrorTypes = args.in.typeIndex(raw[l.ErrorTypes])
		}
		if l.AmbiguityType != 0 || l.FirstLabel >= uint32(len(reportLabelValues)) {
			l.AmbiguityType = args.in.labelIndex(local.in.labelStrs[l.AmbiguityType])
			l.FirstLabel = args.in.labelIndex(local.in.labelStrs[l.FirstLabel])
		}
	}
	d.Labels = out
}

// assignmentOrder hands the labels' reader, on a connection of its own,
// the counted assignments once the report's other reader has read them
// (see reportData), so that the pass over the labels does not read the
// assignments a second time (0.31 s of 306,075 assignments on the
// 1.5M-label project). The labels' reader puts them in the join's order
// itself, off the other reader's longer path.
type assignmentOrder struct {
	done   chan struct{}
	rounds []domain.Round
	as     []domain.ReportAssignment
}

func newAssignmentOrder() *assignmentOrder { return &assignmentOrder{done: make(chan struct{})} }

// give hands over the project's rounds and the counted assignments, which
// nothing writes afterwards.
func (o *assignmentOrder) give(rounds []domain.Round, as []domain.ReportAssignment) {
	o.rounds, o.as = rounds, as
	close(o.done)
}

// wait returns the counted assignments' ids in the join's order once they
// are given, or the context's error.
func (o *assignmentOrder) wait(ctx context.Context) ([]int64, error) {
	select {
	case <-o.done:
		return joinOrder(o.rounds, o.as), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// joinOrder returns the ids of as in the order the report's join visits
// them, as reportAssignmentOrder reads them: their rounds by name (the
// rounds' unique index; SQLite compares the names byte by byte, as Go
// does), then by summary and user (the assignments' unique index).
func joinOrder(rounds []domain.Round, as []domain.ReportAssignment) []int64 {
	byName := slices.Clone(rounds)
	slices.SortFunc(byName, func(a, b domain.Round) int { return strings.Compare(a.Name, b.Name) })
	rank := make(map[int64]int, len(byName))
	for i, r := range byName {
		rank[r.ID] = i
	}
	type key struct {
		rank              int
		summary, user, id int64
	}
	keys := make([]key, len(as))
	for i, a := range as {
		keys[i] = key{rank[a.RoundID], a.SummaryID, a.UserID, a.ID}
	}
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(a.summary, b.summary), cmp.Compare(a.user, b.user))
	})
	ids := make([]int64, len(keys))
	for i, k := range keys {
		ids[i] = k.id
	}
	return ids
}

// reportLabelsByScanLater is reportLabelsByScan for a reader on a
// connection of its own, which learns the counted assignments (order)
// from the report's other reader while it reads: it keeps every label of
// the table, then those of the counted assignments. It is used when the
// report counts most of the database's assignments, whose labels are
// then most of the table's.
func reportLabelsByScanLater(ctx context.Context, tx *sql.Tx, args reportArgs, order *assignmentOrder, d *domain.ReportData) error {
	var span int64
	if err := tx.QueryRowContext(ctx, labelIDSpan).Scan(&span); err != nil {
		return err
	}
	sc, err := scanReportLabels(ctx, tx, nil, int(span), `
		SELECT l.assignment_id, `+labelSentence+labelColumns+`
		FROM sentence_labels l NOT INDEXED`, nil)
	if err != nil {
		return err
	}
	ids, err := order.wait(ctx)
	if err != nil {
		return err
	}
	if len(ids) == 0 {
		d.Labels = []domain.ReportLabel{}
		return nil
	}
	sc.keep(newSlotTable(ids))
	sc.place(args, ids, d)
	return nil
}
