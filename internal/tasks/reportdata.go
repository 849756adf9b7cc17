package tasks

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// ReportData is everything the agreement report of a project reads: the
// labels of every assignment that was not released, the sentences they
// label with their gold, the key facts of each summary and the assistant's
// tentative labels. It is loaded by [Store.ReportData] in a handful of
// queries on the read pool, whatever the size of the project. Labels are
// held coded, without pointers (see [ReportLabel]); the text of sentences
// is read on demand, for the few a report lists (see Details).
type ReportData struct {
	Rounds        []Round              // oldest first
	Assignments   []ReportAssignment   // not released, in id order
	Labels        []ReportLabel        // sentence labels of those assignments, each assignment's together
	SummaryLabels []ReportSummaryLabel // summary labels of those assignments
	KeyFactLinks  []ReportKeyFactLink  // key-fact alignments of those assignments
	Sentences     []ReportSentence     // sentences of the assigned summaries, by summary and index
	// Strings holds the distinct strings of the labels (labels, first
	// labels, ambiguity types), which labels name by index; Strings[0] is
	// "".
	Strings []string
	// TypeLists holds the distinct error-type lists of the labels, which
	// labels name by index; TypeLists[0] is the empty list. The lists are
	// shared: do not modify.
	TypeLists [][]string
	// SummaryKeyFacts lists, for each assigned summary, the ids of the key
	// facts an annotator could align (its document's, for its topic).
	SummaryKeyFacts map[int64][]int64
	// Assistant is the tentative label the assistant panel shows for a
	// sentence: from the newest run that is not a sample, else a sample run.
	Assistant map[int64]string
	// GoldSummaries holds summary-level gold labels where one was set.
	GoldSummaries map[int64]string
	// Scores are the values on the project's rating scales, by assignment.
	Scores map[int64][]ReportScore
	// Details reads the text and external ids of the given sentences of
	// the project (at most [MaxReportDetails] at a time); nil when there is
	// nothing to read them from. It reads after the rest, in a transaction
	// of its own.
	Details func(ids []int64) (map[int64]ReportSentenceDetail, error)
}

// ReportAssignment is one annotator's assignment of one summary in a round.
type ReportAssignment struct {
	ID, RoundID, SummaryID, UserID int64
	Username                       string
	Status                         string
}

// ReportLabel is the current label of one sentence in one assignment,
// coded: its strings are indexes into [ReportData.Strings] and its
// error types an index into [ReportData.TypeLists], so that millions of
// labels hold no pointer for the garbage collector to follow.
type ReportLabel struct {
	AssignmentID, SentenceID         int64
	Label, FirstLabel, AmbiguityType uint32 // indexes into Strings; 0 is ""
	ErrorTypes                       uint32 // index into TypeLists; 0 is none
	// Ambiguous is the ambiguity flag: AmbiguousUnanswered, AmbiguousNo
	// or AmbiguousYes.
	Ambiguous          int8
	AssistantVisible   bool
	ChangedAfterReveal bool
}

// Values of [ReportLabel.Ambiguous].
const (
	AmbiguousUnanswered int8 = iota
	AmbiguousNo
	AmbiguousYes
)

// ReportSummaryLabel is the summary-level label of one assignment.
type ReportSummaryLabel struct {
	AssignmentID  int64
	Relevance     *int // shared between labels: do not modify
	TopicCategory string
}

// ReportKeyFactLink says that, in one assignment, sentence SentenceID
// carries key fact KeyFactID.
type ReportKeyFactLink struct {
	AssignmentID, KeyFactID, SentenceID int64
}

// ReportSentence is a summary sentence with where it sits and its gold
// label, if any.
type ReportSentence struct {
	ID, SummaryID int64
	Index         int
	// Gold is nil when the sentence has no gold or its gold is unresolved.
	Gold *ReportGold
}

// ReportSentenceDetail is what a report shows of a sentence it lists:
// its text and the external ids of its summary and document.
type ReportSentenceDetail struct {
	Text             string
	SummaryExternal  string
	DocumentExternal string
}

// MaxReportDetails bounds the sentences one call of
// [ReportData.Details] reads.
const MaxReportDetails = 500

// ReportGold is the gold label of a sentence, shared between sentences
// with the same: do not modify.
type ReportGold struct {
	Label         string
	ErrorTypes    []string
	Ambiguous     *bool
	AmbiguityType string
}

// ReportFilter narrows the labels a report reads.
type ReportFilter struct {
	// Round is the name of the one round to read; "" reads every round.
	// An unknown round reads no assignment (the report then says so).
	Round string
	// SubmittedOnly reads only submitted assignments.
	SubmittedOnly bool
}

// The assignments a report counts: every assignment of the project that was
// not released (released work was handed to someone else), of round ?2
// unless it is 0, and submitted only when ?3 is 1. Their rows are reached
// by a join from the project's rounds, which reads each assignment's rows
// in place (each assignment's together) rather than through a list of all
// the assignments built first.
const (
	reportJoin  = `rounds r JOIN assignments a ON a.round_id = r.id`
	reportWhere = `r.project_id = ?1 AND (?2 = 0 OR r.id = ?2) AND a.status != 'released' AND (?3 = 0 OR a.status = 'submitted')`
	// reportRoundWhere selects the assignments of the round(s) whatever
	// their status: what the assignments index holds, so that no
	// assignment row is read. The rows of assignments the report does not
	// count are then left out as they come (see reportKept).
	reportRoundWhere = `r.project_id = ?1 AND (?2 = 0 OR r.id = ?2) AND ?3 >= 0`
)

// ReportData loads the labels of a project for its agreement report, so
// that the figures come from one version of the project: the sentence
// labels in one read transaction and the rest, at the same time, in
// another, kept only when both see the same version of the project's
// report data. Only the assignments f selects are read, with their labels
// and sentences; repeated strings (labels, error-type lists, names) are
// shared, not copied per label. The text of sentences is read later, by
// [ReportData.Details].
func (s *Store) ReportData(ctx context.Context, projectID int64, f ReportFilter) (*ReportData, error) {
	// The labels, most of the work, are read beside the rest in a second
	// transaction; the two agree when they see the same version of the
	// project's report data (see report_versions), else the reading is
	// done again, in the end in one transaction. One reading at a time
	// holds two connections, so that readings waiting for their second
	// cannot take up the whole pool; the others use one.
	select {
	case s.reportApart <- struct{}{}:
		defer func() { <-s.reportApart }()
		for range 3 {
			d, err := s.reportData(ctx, projectID, f, true)
			if !errors.Is(err, errReportMoved) {
				return d, err
			}
		}
	default:
	}
	return s.reportData(ctx, projectID, f, false)
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
func (s *Store) reportData(ctx context.Context, projectID int64, f ReportFilter, apart bool) (*ReportData, error) {
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
	d := &ReportData{SummaryKeyFacts: map[int64][]int64{}, Assistant: map[int64]string{}, GoldSummaries: map[int64]string{}}
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
	// The labels have an interner of their own, which numbers their
	// strings and error-type lists.
	largs := args
	largs.in = newInterner()
	labels := &ReportData{}
	steps := []func(context.Context, *sql.Tx, reportArgs, *ReportData) error{
		reportAssignmentRows, reportSummaryLabels,
		reportKeyFactLinks, reportSentences, reportKeyFacts, reportAssistant, reportGoldSummaries, reportScores,
	}
	var wg sync.WaitGroup
	var lerr error
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if apart {
		ltx, err := s.read.BeginTx(lctx, nil)
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
		})
	} else {
		if err := reportLabels(ctx, tx, largs, labels); err != nil {
			return nil, err
		}
	}
	for _, step := range steps {
		if err = step(ctx, tx, args, d); err != nil {
			cancel() // the labels are not needed
			break
		}
	}
	wg.Wait()
	if err != nil {
		return nil, err
	}
	if lerr != nil {
		return nil, lerr
	}
	d.Labels, d.Strings, d.TypeLists = labels.Labels, largs.in.labelStrs, largs.in.typeLists
	d.Details = func(ids []int64) (map[int64]ReportSentenceDetail, error) {
		return s.ReportSentenceDetails(ctx, projectID, ids)
	}
	return d, nil
}

// ReportSentenceDetails reads the text and external ids of sentences of a
// project, at most [MaxReportDetails]; ids of other projects' sentences
// or of none are left out.
func (s *Store) ReportSentenceDetails(ctx context.Context, projectID int64, ids []int64) (map[int64]ReportSentenceDetail, error) {
	if len(ids) > MaxReportDetails {
		return nil, Errorf(EInvalid, "at most %d sentences at a time (got %d)", MaxReportDetails, len(ids))
	}
	out := map[int64]ReportSentenceDetail{}
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
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var x ReportSentenceDetail
		if err := rows.Scan(&id, &x.Text, &x.SummaryExternal, &x.DocumentExternal); err != nil {
			return nil, err
		}
		out[id] = x
	}
	return out, rows.Err()
}

// reportArgs are the parameters of the report's queries: ?1 the project,
// ?2 the round (0 for all), ?3 whether only submitted work counts.
type reportArgs struct {
	project, round int64
	submitted      int
	in             *interner
	kept           *reportKept
}

// reportKept is what the report counts, known once the assignments are
// read: their ids and their summaries.
type reportKept struct {
	assignments, summaries map[int64]bool
}

func (k *reportKept) fill(as []ReportAssignment) {
	k.assignments, k.summaries = make(map[int64]bool, len(as)), map[int64]bool{}
	for _, a := range as {
		k.assignments[a.ID], k.summaries[a.SummaryID] = true, true
	}
}

// interner shares the strings and error-type lists that repeat across
// labels, and numbers those of sentence labels.
type interner struct {
	strs      map[string]string
	types     map[string][]string
	labelStr  map[string]uint32 // index into labelStrs
	labelStrs []string
	typeOf    map[string]uint32 // raw column → index into typeLists
	typeLists [][]string
}

// reportLabelValues are the values a sentence label can take (see the
// CHECK on sentence_labels.label), coded 0–3 in the labels query and
// numbered so in the interner's strings.
var reportLabelValues = []string{"", LabelFaithful, LabelUnfaithful, LabelBorderline}

func newInterner() *interner {
	in := &interner{strs: map[string]string{}, types: map[string][]string{}, labelStr: map[string]uint32{},
		typeOf: map[string]uint32{"": 0, "[]": 0}, typeLists: [][]string{nil}}
	for _, v := range reportLabelValues {
		in.labelIndex(v)
	}
	return in
}

func (in *interner) str(s string) string {
	if v, ok := in.strs[s]; ok {
		return v
	}
	in.strs[s] = s
	return s
}

// labelIndex numbers a string of a sentence label.
func (in *interner) labelIndex(s string) uint32 {
	if i, ok := in.labelStr[s]; ok {
		return i
	}
	i := uint32(len(in.labelStrs))
	in.labelStr[s] = i
	in.labelStrs = append(in.labelStrs, s)
	return i
}

// typeIndex numbers the error-type list of an error_types column, decoded
// once per distinct value; a malformed value or an empty list is 0.
func (in *interner) typeIndex(raw string) uint32 {
	if i, ok := in.typeOf[raw]; ok {
		return i
	}
	var i uint32
	if ts := decodeTypes(raw); len(ts) > 0 {
		i = uint32(len(in.typeLists))
		in.typeLists = append(in.typeLists, ts)
	}
	in.typeOf[raw] = i
	return i
}

// errorTypes decodes an error_types column once per distinct value; the
// lists are shared and must not be modified.
func (in *interner) errorTypes(raw string) []string {
	if v, ok := in.types[raw]; ok {
		return v
	}
	v := decodeTypes(raw)
	in.types[raw] = v
	return v
}

// eachRow runs a query and calls scan for every row.
func eachRow(ctx context.Context, tx *sql.Tx, query string, a reportArgs, scan func(*sql.Rows) error) error {
	rows, err := tx.QueryContext(ctx, query, a.project, a.round, a.submitted)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

func reportRounds(ctx context.Context, tx *sql.Tx, a reportArgs, d *ReportData) error {
	return eachRow(ctx, tx, `SELECT `+roundColumns+` FROM rounds WHERE project_id = ?1 AND ?2 + ?3 >= 0 ORDER BY id`, a, func(rows *sql.Rows) error {
		r, err := scanRound(rows)
		if err == nil {
			d.Rounds = append(d.Rounds, *r)
		}
		return err
	})
}

func reportAssignmentRows(ctx context.Context, tx *sql.Tx, args reportArgs, d *ReportData) error {
	// Integers only, sorted here: the status as a code (the CHECK on
	// assignments.status lists them) and the user's name read once per
	// user below.
	statuses := []string{StatusPending, StatusInProgress, StatusSubmitted}
	users := map[int64]string{}
	err := eachRow(ctx, tx, `
		SELECT a.id, a.round_id, a.summary_id, a.user_id,
			CASE a.status WHEN 'pending' THEN 0 WHEN 'in_progress' THEN 1 WHEN 'submitted' THEN 2 ELSE -1 END
		FROM `+reportJoin+`
		WHERE `+reportWhere, args, func(rows *sql.Rows) error {
		var a ReportAssignment
		var status int
		if err := rows.Scan(&a.ID, &a.RoundID, &a.SummaryID, &a.UserID, &status); err != nil {
			return err
		}
		if status < 0 {
			return fmt.Errorf("assignment %d: unknown status", a.ID)
		}
		a.Status = statuses[status]
		users[a.UserID] = ""
		d.Assignments = append(d.Assignments, a)
		return nil
	})
	if err != nil {
		return err
	}
	slices.SortFunc(d.Assignments, func(a, b ReportAssignment) int { return cmp.Compare(a.ID, b.ID) })
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

func reportLabels(ctx context.Context, tx *sql.Tx, args reportArgs, d *ReportData) error {
	// Counting first sizes the slice exactly: millions of labels are not
	// copied as it grows.
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM `+reportJoin+` JOIN sentence_labels l ON l.assignment_id = a.id WHERE `+reportWhere,
		args.project, args.round, args.submitted).Scan(&n); err != nil {
		return err
	}
	d.Labels = make([]ReportLabel, 0, n)
	// Each label is four columns, two of them integers: the sentence id
	// with, in its low byte, the label (one of four values: see the CHECK
	// on sentence_labels.label), the first label when it is a label value,
	// the ambiguity flag and the assistant's flags; the error types unless
	// there are none; and the ambiguity type and first label where one is
	// neither empty nor a label value, each preceded by its length in
	// bytes. The strings are NULL otherwise, which costs no string. Few
	// columns and little computed per row are what make millions of rows
	// quick to read.
	var maxID int64
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) FROM summary_sentences`).Scan(&maxID); err != nil {
		return err
	}
	sentence := `(l.sentence_id << 8) | `
	if maxID >= 1<<54 { // no room in the sentence id: a column of its own
		sentence = `l.sentence_id, `
	}
	in := args.in
	extras := map[string][2]uint32{}
	return eachRow(ctx, tx, `
		SELECT l.assignment_id, `+sentence+`(CASE l.label WHEN '' THEN 0 WHEN 'faithful' THEN 1 WHEN 'unfaithful' THEN 2 ELSE 3 END)
			| (CASE l.first_label WHEN '' THEN 0 WHEN 'faithful' THEN 4 WHEN 'unfaithful' THEN 8 WHEN 'borderline' THEN 12 ELSE 0 END)
			| (coalesce((l.ambiguous != 0) + 1, 0) << 4)
			| ((l.assistant_visible != 0) << 6)
			| ((l.changed_after_reveal != 0) << 7),
			CASE WHEN length(l.error_types) > 2 THEN l.error_types END,
			CASE WHEN l.ambiguity_type != '' OR (l.first_label != '' AND l.first_label NOT IN ('faithful', 'unfaithful', 'borderline'))
			THEN length(CAST(l.ambiguity_type AS BLOB)) || ',' || l.ambiguity_type || l.first_label END
		FROM `+reportJoin+` JOIN sentence_labels l ON l.assignment_id = a.id
		WHERE `+reportWhere, args, func(rows *sql.Rows) error {
		var l ReportLabel
		var packed int64
		var types, extra sql.NullString
		var err error
		if maxID >= 1<<54 {
			err = rows.Scan(&l.AssignmentID, &l.SentenceID, &packed, &types, &extra)
		} else {
			err = rows.Scan(&l.AssignmentID, &packed, &types, &extra)
			l.SentenceID = packed >> 8
		}
		if err != nil {
			return err
		}
		l.Label, l.FirstLabel = uint32(packed&3), uint32(packed>>2&3)
		l.Ambiguous = int8(packed >> 4 & 3)
		l.AssistantVisible, l.ChangedAfterReveal = packed&64 != 0, packed&128 != 0
		if types.Valid {
			l.ErrorTypes = in.typeIndex(types.String)
		}
		if extra.Valid {
			x, ok := extras[extra.String]
			if !ok {
				if x, err = in.labelExtras(extra.String); err != nil {
					return err
				}
				extras[extra.String] = x
			}
			l.AmbiguityType = x[0]
			if x[1] != 0 {
				l.FirstLabel = x[1]
			}
		}
		d.Labels = append(d.Labels, l)
		return nil
	})
}

// labelExtras numbers the ambiguity type and first label of the labels
// query's last column: the ambiguity type's length in bytes and a comma,
// then the two strings.
func (in *interner) labelExtras(s string) ([2]uint32, error) {
	j := strings.IndexByte(s, ',')
	n, err := strconv.Atoi(s[:max(j, 0)])
	if j < 0 || err != nil || n < 0 || n > len(s)-j-1 {
		return [2]uint32{}, fmt.Errorf("report labels: malformed strings %q", s)
	}
	rest := s[j+1:]
	return [2]uint32{in.labelIndex(rest[:n]), in.labelIndex(rest[n:])}, nil
}

// relevances are the values of summary_labels.relevance (see its CHECK),
// shared by every summary label that gives one.
var relevances = [6]int{0, 1, 2, 3, 4, 5}

func reportSummaryLabels(ctx context.Context, tx *sql.Tx, args reportArgs, d *ReportData) error {
	// Two integer columns: the relevance (0 for none) and the topic
	// category as a code, both as their CHECKs allow them.
	topics := []string{"", "main", "marginal"}
	return eachRow(ctx, tx, `
		SELECT l.assignment_id,
			coalesce(l.relevance, 0) | (CASE l.topic_category WHEN '' THEN 0 WHEN 'main' THEN 8 ELSE 16 END)
		FROM `+reportJoin+` JOIN summary_labels l ON l.assignment_id = a.id
		WHERE `+reportRoundWhere, args, func(rows *sql.Rows) error {
		var l ReportSummaryLabel
		var packed int64
		if err := rows.Scan(&l.AssignmentID, &packed); err != nil || !args.kept.assignments[l.AssignmentID] {
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
		d.SummaryLabels = append(d.SummaryLabels, l)
		return nil
	})
}

func reportKeyFactLinks(ctx context.Context, tx *sql.Tx, args reportArgs, d *ReportData) error {
	return eachRow(ctx, tx, `
		SELECT k.assignment_id, k.key_fact_id, k.sentence_id
		FROM `+reportJoin+` JOIN keyfact_labels k ON k.assignment_id = a.id
		WHERE `+reportRoundWhere, args, func(rows *sql.Rows) error {
		var k ReportKeyFactLink
		if err := rows.Scan(&k.AssignmentID, &k.KeyFactID, &k.SentenceID); err != nil || !args.kept.assignments[k.AssignmentID] {
			return err
		}
		d.KeyFactLinks = append(d.KeyFactLinks, k)
		return nil
	})
}

// assignedSummaries holds the summaries the report's assignments cover,
// and those of the round's assignments it does not count, which are left
// out as they come (see reportKept). Choosing the round on the rounds
// (r.id) rather than on the assignments reads only that round's
// assignments.
const assignedSummaries = `SELECT a.summary_id FROM ` + reportJoin + ` WHERE ` + reportRoundWhere

func reportSentences(ctx context.Context, tx *sql.Tx, args reportArgs, d *ReportData) error {
	// The gold label, where there is one, is one column: the ambiguity
	// flag as n, y or f, the lengths in bytes of the label and the error
	// types, each with a comma, then the label, error types and ambiguity
	// type. Equal gold labels share one ReportGold.
	golds := map[string]*ReportGold{}
	return eachRow(ctx, tx, `
		SELECT ss.id, ss.summary_id, ss.idx,
			CASE WHEN g.sentence_id IS NOT NULL THEN
				(CASE WHEN g.ambiguous IS NULL THEN 'n' WHEN g.ambiguous THEN 'y' ELSE 'f' END)
				|| length(CAST(g.label AS BLOB)) || ',' || length(CAST(g.error_types AS BLOB)) || ','
				|| g.label || g.error_types || g.ambiguity_type END
		FROM summary_sentences ss
		LEFT JOIN gold_sentences g ON g.sentence_id = ss.id AND g.provenance != 'unresolved'
		WHERE ss.summary_id IN (`+assignedSummaries+`)
		ORDER BY ss.summary_id, ss.idx`, args, func(rows *sql.Rows) error {
		var x ReportSentence
		var gold sql.NullString
		if err := rows.Scan(&x.ID, &x.SummaryID, &x.Index, &gold); err != nil || !args.kept.summaries[x.SummaryID] {
			return err
		}
		if gold.Valid {
			g, ok := golds[gold.String]
			if !ok {
				var err error
				if g, err = args.in.gold(gold.String); err != nil {
					return fmt.Errorf("gold of sentence %d: %w", x.ID, err)
				}
				golds[gold.String] = g
			}
			x.Gold = g
		}
		d.Sentences = append(d.Sentences, x)
		return nil
	})
}

var (
	reportTrue  = true
	reportFalse = false
)

// gold reads the gold column of the sentences query.
func (in *interner) gold(s string) (*ReportGold, error) {
	bad := fmt.Errorf("malformed gold %q", s)
	if s == "" {
		return nil, bad
	}
	g := &ReportGold{}
	switch s[0] {
	case 'y':
		g.Ambiguous = &reportTrue
	case 'f':
		g.Ambiguous = &reportFalse
	case 'n':
	default:
		return nil, bad
	}
	rest := s[1:]
	var n [2]int
	for i := range n {
		j := strings.IndexByte(rest, ',')
		v, err := strconv.Atoi(rest[:max(j, 0)])
		if j < 0 || err != nil || v < 0 {
			return nil, bad
		}
		n[i], rest = v, rest[j+1:]
	}
	if n[0]+n[1] > len(rest) {
		return nil, bad
	}
	g.Label, g.ErrorTypes, g.AmbiguityType = in.str(rest[:n[0]]), in.errorTypes(rest[n[0]:n[0]+n[1]]), in.str(rest[n[0]+n[1]:])
	return g, nil
}

func reportKeyFacts(ctx context.Context, tx *sql.Tx, args reportArgs, d *ReportData) error {
	// The same key facts the labelling page offers: the document's, for
	// the summary's topic or for no topic.
	return eachRow(ctx, tx, `
		SELECT s.id, k.id FROM summaries s
		JOIN key_facts k ON k.document_id = s.document_id AND (k.topic = s.topic OR k.topic = '')
		WHERE s.id IN (`+assignedSummaries+`)
		ORDER BY s.id, k.id`, args, func(rows *sql.Rows) error {
		var sum, kf int64
		if err := rows.Scan(&sum, &kf); err != nil || !args.kept.summaries[sum] {
			return err
		}
		d.SummaryKeyFacts[sum] = append(d.SummaryKeyFacts[sum], kf)
		return nil
	})
}

func reportAssistant(ctx context.Context, tx *sql.Tx, args reportArgs, d *ReportData) error {
	// The order matches AssistPanel: real runs before samples, newest first.
	return eachRow(ctx, tx, `
		SELECT o.sentence_id, o.label FROM assist_outputs o JOIN assist_runs r ON r.id = o.run_id
		WHERE r.project_id = ?1 AND o.status = 'ok' AND o.label != '' AND ?2 + ?3 >= 0
		ORDER BY o.sentence_id, r.sample, r.id DESC`, args, func(rows *sql.Rows) error {
		var sid int64
		var label string
		if err := rows.Scan(&sid, &label); err != nil {
			return err
		}
		if _, seen := d.Assistant[sid]; !seen {
			d.Assistant[sid] = label
		}
		return nil
	})
}

func reportGoldSummaries(ctx context.Context, tx *sql.Tx, args reportArgs, d *ReportData) error {
	return eachRow(ctx, tx, `
		SELECT g.summary_id, g.label FROM gold_summaries g JOIN summaries s ON s.id = g.summary_id
		WHERE s.project_id = ?1 AND g.provenance != 'unresolved' AND ?2 + ?3 >= 0`, args, func(rows *sql.Rows) error {
		var sid int64
		var label string
		err := rows.Scan(&sid, &label)
		d.GoldSummaries[sid] = label
		return err
	})
}

// decodeTypes reads an error_types column; a malformed value counts as no
// types rather than failing the whole report.
func decodeTypes(raw string) []string {
	var out []string
	if raw == "" || json.Unmarshal([]byte(raw), &out) != nil {
		return nil
	}
	return out
}
