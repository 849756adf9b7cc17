package tasks

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"annotate/internal/domain"
)

// labelWriter writes imported annotators' labels inside an import's
// transaction. It creates what the labels need: imported rounds (closed,
// marked as made by import), accounts for unknown annotators (disabled,
// with no password, marked as imported) and submitted assignments.
type labelWriter struct {
	im          *importer
	settings    domain.Settings
	users       map[string]int64
	rounds      map[string]int64
	summaries   map[string]int64
	sentences   map[int64][]int64 // summary id → sentence ids by index-1
	assignments map[[3]int64]int64
	// fresh holds the assignments the writer made (since the last
	// forget), and written the (assignment, sentence) labels it gave
	// them, sentence 0 for the summary label: a fresh assignment has no
	// label to compare with until the writer gives it one.
	fresh   map[int64]bool
	written map[[2]int64]bool
	// votes holds the sentence labels written on summaries the current
	// document made, by summary and sentence: the only labels those
	// summaries have, which their gold is resolved from.
	votes map[int64]map[int64][]importedVote
	// assignmentRows, labelRows, historyRows and summaryRows are new
	// assignments, sentence labels, their history rows and summary labels
	// waiting to be written (see flush), in that order: the labels refer
	// to the assignments. The writer gives new assignments their ids,
	// from nextAssignment on, as SQLite would (one after the largest), so
	// that labels can name them before they are written.
	assignmentRows, labelRows, historyRows, summaryRows *rowBatch
	nextAssignment                                      int64
	// firstAssignment is the id of the first assignment the writer made,
	// 0 while it has made none: the import marks their summaries' gold
	// stale from it (markImportDealtStale).
	firstAssignment int64
	// goldRows and goldHistoryRows are resolved gold waiting to be written
	// (see resolve).
	goldRows, goldHistoryRows *rowBatch
	// last is the summary of the label written last; pending holds the
	// summaries whose labels were written and that are not resolved yet,
	// when what the writer knew of them was dropped (see write).
	last    string
	pending map[int64]bool
	// positions holds the last queue position of each (round, user) the
	// writer gave an assignment, read once.
	positions map[[2]int64]int64
	newRounds []int64
	// firstLabel is the id the first sentence label the writer writes
	// gets (one after the largest there was), and labelledOld is set once
	// it writes a label into an assignment it did not make: the import
	// then marks the gold of the sentences it labelled stale once, at its
	// end (see markLabelledStale). Making an assignment marks the gold
	// of its summary's sentences stale already, and gold written later
	// marks itself (triggers the import keeps).
	firstLabel  int64
	labelledOld bool
	// activity is, per round and annotator, the stamp of the last label
	// written for them, for round_activity, whose triggers the import
	// holds.
	activity map[[2]int64]string
}

func newLabelWriter(im *importer) (*labelWriter, error) {
	var raw string
	if err := im.q.QueryRowContext(im.ctx, `SELECT settings FROM projects WHERE id = ?`, im.project).Scan(&raw); err != nil {
		return nil, err
	}
	set, err := decodeSettings(raw)
	if err != nil {
		return nil, err
	}
	var first int64
	if err := im.q.QueryRowContext(im.ctx, `SELECT coalesce(max(id), 0) + 1 FROM sentence_labels`).Scan(&first); err != nil {
		return nil, err
	}
	return &labelWriter{im: im, settings: set, firstLabel: first, users: map[string]int64{}, rounds: map[string]int64{},
		summaries: map[string]int64{}, sentences: map[int64][]int64{}, assignments: map[[3]int64]int64{},
		positions: map[[2]int64]int64{}, fresh: map[int64]bool{}, written: map[[2]int64]bool{}, activity: map[[2]int64]string{},
		votes: map[int64]map[int64][]importedVote{}, pending: map[int64]bool{},
		assignmentRows: newRowBatchOf(`INSERT INTO assignments (id, round_id, summary_id, user_id, position, status, started_at, submitted_at) VALUES `,
			`(?, ?, ?, ?, ?, 'submitted', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`, ``, 5),
		summaryRows: newRowBatchOf(`INSERT INTO summary_labels (assignment_id, relevance, non_summary, topic_category, comment, updated_at) VALUES `,
			`(?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`, `
		ON CONFLICT (assignment_id) DO UPDATE SET relevance = excluded.relevance, non_summary = excluded.non_summary,
			topic_category = excluded.topic_category, comment = excluded.comment, updated_at = excluded.updated_at`, 5),
		labelRows: newRowBatch(`INSERT INTO sentence_labels (assignment_id, sentence_id, label, error_types, explanation, ambiguous,
			ambiguity_type, ambiguity_note, unsure_note, updated_at) VALUES `, `
		ON CONFLICT (assignment_id, sentence_id) DO UPDATE SET label = excluded.label, error_types = excluded.error_types,
			explanation = excluded.explanation, ambiguous = excluded.ambiguous, ambiguity_type = excluded.ambiguity_type,
			ambiguity_note = excluded.ambiguity_note, unsure_note = excluded.unsure_note, updated_at = excluded.updated_at`, 10),
		historyRows: newRowBatch(`INSERT INTO sentence_label_history (assignment_id, sentence_id, user_id, data, created_at) VALUES `, ``, 5),
		goldRows: newRowBatch(`INSERT INTO gold_sentences (sentence_id, label, error_types, explanation, ambiguous, ambiguity_type, ambiguity_note,
			provenance, decided_by, decided_at, note, version) VALUES `, ``, 12),
		goldHistoryRows: newRowBatch(`INSERT INTO gold_history (sentence_id, data, decided_by, created_at) VALUES `, ``, 4)}, nil
}

// forget resolves the gold of the summaries the writer labelled and drops
// what it knows of them and their assignments; users and rounds, few, stay
// known.
func (w *labelWriter) forget() error {
	if err := w.flush(); err != nil {
		return err
	}
	if err := w.resolve(); err != nil {
		return err
	}
	clear(w.summaries)
	clear(w.sentences)
	clear(w.assignments)
	clear(w.fresh)
	clear(w.written)
	clear(w.votes)
	return nil
}

// shed writes the labels waiting and forgets the summaries labelled so
// far and their assignments, keeping them to resolve (see resolve).
func (w *labelWriter) shed() error {
	if err := w.flush(); err != nil {
		return err
	}
	for _, id := range w.summaries {
		w.pending[id] = true
	}
	clear(w.summaries)
	clear(w.sentences)
	clear(w.assignments)
	clear(w.fresh)
	clear(w.written)
	return nil
}

// flush writes the assignments and labels still waiting, assignments
// first: before the labels are read (compared, resolved), when a batch is
// full, and at the end.
func (w *labelWriter) flush() error {
	for _, b := range []*rowBatch{w.assignmentRows, w.labelRows, w.historyRows, w.summaryRows} {
		if err := b.flush(w.im.ctx, w.im.q); err != nil {
			return err
		}
	}
	return nil
}

// queue adds a row to one of the writer's batches, writing them all when
// it is full.
func (w *labelWriter) queue(b *rowBatch, row ...any) error {
	if b.push(row...) {
		return w.flush()
	}
	return nil
}

// reload reads the project's settings again, after the import defined
// scales.
func (w *labelWriter) reload() error {
	var raw string
	if err := w.im.q.QueryRowContext(w.im.ctx, `SELECT settings FROM projects WHERE id = ?`, w.im.project).Scan(&raw); err != nil {
		return err
	}
	set, err := decodeSettings(raw)
	w.settings = set
	return err
}

// write stores one label record, or notes how it differs from the label
// already there.
func (w *labelWriter) write(r *domain.LabelRecord) error {
	if len(w.im.created) == 0 && w.last != "" && r.Summary != w.last {
		// Labels given apart from documents (a raw export's rows) come
		// summary by summary: drop what the writer knows of the summaries
		// before, keeping their ids to resolve at the end, so that memory
		// does not grow with the labels.
		if err := w.shed(); err != nil {
			return err
		}
	}
	w.last = r.Summary
	user, round := r.Annotator()
	if err := domain.ValidateUsername(user); err != nil {
		return domain.Errorf(domain.EInvalid, "%s: annotator: %q: %s", r.Source, user, domain.ErrorMessage(err))
	}
	sumID, err := w.summary(r)
	if err != nil {
		return err
	}
	var sentID int64
	if r.Label != nil {
		sents := w.sentences[sumID]
		if r.Sentence < 1 || r.Sentence > len(sents) {
			return domain.Errorf(domain.EInvalid, "%s: summary %q has no sentence %d (it has %d)", r.Source, r.Summary, r.Sentence, len(sents))
		}
		sentID = sents[r.Sentence-1]
	}
	uid, err := w.user(user, r.Source)
	if err != nil {
		return err
	}
	rid, err := w.round(round)
	if err != nil {
		return err
	}
	aid, err := w.assignment(rid, sumID, uid, r.Summary)
	if err != nil {
		return err
	}
	if r.Label != nil {
		return w.sentenceLabel(r, rid, aid, uid, sentID, user, round)
	}
	return w.summaryLabel(r, aid, user, round)
}

// summary finds the summary a record names and its sentences.
func (w *labelWriter) summary(r *domain.LabelRecord) (int64, error) {
	if id, ok := w.summaries[r.Summary]; ok {
		return id, nil
	}
	if c, ok := w.im.created[r.Summary]; ok {
		w.summaries[r.Summary] = c.id
		w.sentences[c.id] = c.sentences
		return c.id, nil
	}
	var id int64
	err := w.im.q.QueryRowContext(w.im.ctx, `SELECT id FROM summaries WHERE project_id = ? AND external_id = ?`, w.im.project, r.Summary).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, domain.Errorf(domain.EInvalid, "%s: summary %q is neither in this import nor in the project", r.Source, r.Summary)
	}
	if err != nil {
		return 0, err
	}
	rows, err := w.im.q.QueryContext(w.im.ctx, `SELECT id FROM summary_sentences WHERE summary_id = ? ORDER BY idx`, id)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var sents []int64
	for rows.Next() {
		var sid int64
		if err := rows.Scan(&sid); err != nil {
			return 0, err
		}
		sents = append(sents, sid)
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	w.summaries[r.Summary] = id
	w.sentences[id] = sents
	return id, nil
}

// user finds the account an imported label is credited to. A name that
// belongs to an account of this server is credited to it only when it is
// an annotator of the project: an import cannot give anyone work in a
// project they are not part of. A name that is no account's becomes an
// imported identity: disabled for login, with an empty password hash that
// no password matches, recorded per project in imported_users, and
// reused by later imports of that name. An imported identity never keeps
// a name from the server's accounts: an administrator who adds a user of
// that name moves the identity aside (see CreateUser).
func (w *labelWriter) user(name, source string) (int64, error) {
	if id, ok := w.users[name]; ok {
		return id, nil
	}
	var id int64
	var imported bool
	err := w.im.q.QueryRowContext(w.im.ctx, `SELECT u.id, EXISTS (SELECT 1 FROM imported_users i WHERE i.user_id = u.id)
		FROM users u WHERE u.username = ?`, name).Scan(&id, &imported)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		res, err := w.im.q.ExecContext(w.im.ctx, `INSERT INTO users (username, display_name, password_hash, disabled) VALUES (?, ?, x'', 1)`, name, name)
		if err != nil {
			return 0, err
		}
		if id, err = res.LastInsertId(); err != nil {
			return 0, err
		}
		if _, err := w.im.q.ExecContext(w.im.ctx, `INSERT INTO imported_users (user_id, project_id) VALUES (?, ?)`, id, w.im.project); err != nil {
			return 0, err
		}
		w.im.stats.Accounts++
	case err != nil:
		return 0, err
	case !imported:
		var role string
		err := w.im.q.QueryRowContext(w.im.ctx, `SELECT role FROM memberships WHERE project_id = ? AND user_id = ?`, w.im.project, id).Scan(&role)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return 0, err
		}
		if role != domain.RoleAnnotator {
			return 0, domain.Errorf(domain.EInvalid, "%s: annotator: %q is an account of this server but not an annotator of this project; add them to the project as an annotator first, or give these labels another annotator name", source, name)
		}
	}
	w.users[name] = id
	return id, nil
}

// round finds a round of the project by name, or makes one marked as made
// by import. Imported rounds are closed: their labels are finished work.
func (w *labelWriter) round(name string) (int64, error) {
	if id, ok := w.rounds[name]; ok {
		return id, nil
	}
	var id int64
	err := w.im.q.QueryRowContext(w.im.ctx, `SELECT id FROM rounds WHERE project_id = ? AND name = ?`, w.im.project, name).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		res, err := w.im.q.ExecContext(w.im.ctx, `INSERT INTO rounds (project_id, name, kind, per_item, status, closed_at)
			VALUES (?, ?, 'production', 1, 'closed', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`, w.im.project, name)
		if err != nil {
			return 0, err
		}
		if id, err = res.LastInsertId(); err != nil {
			return 0, err
		}
		if _, err := w.im.q.ExecContext(w.im.ctx, `INSERT INTO imported_rounds (round_id) VALUES (?)`, id); err != nil {
			return 0, err
		}
		w.newRounds = append(w.newRounds, id)
		w.im.stats.Rounds++
	} else if err != nil {
		return 0, err
	}
	w.rounds[name] = id
	return id, nil
}

// assignment finds or makes the submitted assignment that holds a label.
// A summary the current document made has no assignment but those made
// here.
func (w *labelWriter) assignment(round, summary, user int64, summaryName string) (int64, error) {
	key := [3]int64{round, summary, user}
	if id, ok := w.assignments[key]; ok {
		return id, nil
	}
	var id int64
	err := sql.ErrNoRows
	if _, created := w.im.created[summaryName]; !created {
		err = w.im.q.QueryRowContext(w.im.ctx, `SELECT id FROM assignments WHERE round_id = ? AND summary_id = ? AND user_id = ?`, round, summary, user).Scan(&id)
	}
	if errors.Is(err, sql.ErrNoRows) {
		pos, err := w.position(round, user)
		if err != nil {
			return 0, err
		}
		if w.nextAssignment == 0 {
			if err := w.im.q.QueryRowContext(w.im.ctx, `SELECT coalesce(max(id), 0) + 1 FROM assignments`).Scan(&w.nextAssignment); err != nil {
				return 0, err
			}
			w.firstAssignment = w.nextAssignment
		}
		id = w.nextAssignment
		w.nextAssignment++
		if err := w.queue(w.assignmentRows, id, round, summary, user, pos); err != nil {
			return 0, err
		}
		w.fresh[id] = true
		w.im.stats.Assignments++
	} else if err != nil {
		return 0, err
	}
	w.assignments[key] = id
	return id, nil
}

// position returns the queue position of a new assignment of user in
// round: one after the last. The last is read once per (round, user) and
// then counted here, instead of by a max() on every insert.
func (w *labelWriter) position(round, user int64) (int64, error) {
	key := [2]int64{round, user}
	last, ok := w.positions[key]
	if !ok {
		if err := w.im.q.QueryRowContext(w.im.ctx, `SELECT coalesce(max(position), 0) FROM assignments WHERE round_id = ? AND user_id = ?`, round, user).Scan(&last); err != nil {
			return 0, err
		}
	}
	w.positions[key] = last + 1
	return last + 1, nil
}

// unlabelled reports whether the writer knows that an assignment has no
// label on the sentence (0: no summary label) yet, because it made the
// assignment and gave it none; it notes that a label comes now.
func (w *labelWriter) unlabelled(aid, sentID int64) bool {
	if !w.fresh[aid] {
		return false
	}
	key := [2]int64{aid, sentID}
	if w.written[key] {
		return false
	}
	w.written[key] = true
	return true
}

// sentenceLabel writes a sentence label where the assignment has none;
// where it has one that differs, the difference is noted and applied only
// on update.
func (w *labelWriter) sentenceLabel(r *domain.LabelRecord, rid, aid, uid, sentID int64, user, round string) error {
	in := r.Label
	if len(in.Scores) > 0 {
		if err := w.scores(r, aid, sentID, domain.LevelSentence, in.Scores, fmt.Sprintf("summary %s sentence %d, %s in round %s", r.Summary, r.Sentence, user, round)); err != nil {
			return err
		}
	}
	if in.Label == "" && in.Ambiguous == nil && in.AmbiguityType == "" {
		return nil // scores only
	}
	l := domain.SentenceLabel{SentenceID: sentID, Label: in.Label, ErrorTypes: slices.Clone(in.ErrorTypes), Explanation: in.Explanation,
		Ambiguous: in.Ambiguous, AmbiguityType: in.AmbiguityType, AmbiguityNote: in.AmbiguityNote, UnsureNote: in.UnsureNote}
	if err := w.extendTaxonomy(l.ErrorTypes, r.Source); err != nil {
		return err
	}
	if err := l.Validate(w.settings); err != nil {
		return domain.Errorf(domain.EInvalid, "%s: %s", r.Source, domain.ErrorMessage(err))
	}
	var prev *domain.SentenceLabel
	if !w.unlabelled(aid, sentID) {
		if err := w.flush(); err != nil {
			return err
		}
		var err error
		if prev, err = loadSentenceLabel(w.im.ctx, w.im.q, aid, sentID); err != nil {
			return err
		}
	}
	if prev != nil {
		if sameSentenceLabel(prev, &l) {
			w.im.stats.LabelsExisting++
			return nil
		}
		w.im.change(domain.Change{Kind: domain.ChangeLabel, Where: fmt.Sprintf("summary %s sentence %d, %s in round %s", r.Summary, r.Sentence, user, round),
			Old: labelText(prev), New: labelText(&l)})
		if !w.im.opts.Update {
			return nil
		}
	}
	l.UpdatedAt = stamp(w.im.now())
	if !w.fresh[aid] {
		w.labelledOld = true
	}
	types, _ := json.Marshal(domain.NonNil(l.ErrorTypes))
	var amb any
	if l.Ambiguous != nil {
		amb = *l.Ambiguous
	}
	if err := w.queue(w.labelRows, aid, sentID, l.Label, string(types), l.Explanation, amb, l.AmbiguityType, l.AmbiguityNote,
		l.UnsureNote, l.UpdatedAt); err != nil {
		return err
	}
	if err := w.queue(w.historyRows, aid, sentID, uid, historyData(&l), l.UpdatedAt); err != nil {
		return err
	}
	if k := [2]int64{rid, uid}; l.UpdatedAt > w.activity[k] {
		w.activity[k] = l.UpdatedAt
	}
	if prev == nil {
		w.im.stats.Labels++
	}
	w.vote(r.Summary, uid, aid, &l)
	return nil
}

// summaryLabel writes a summary label like sentenceLabel.
func (w *labelWriter) summaryLabel(r *domain.LabelRecord, aid int64, user, round string) error {
	in := r.SummaryLabel
	if len(in.Scores) > 0 {
		if err := w.scores(r, aid, 0, domain.LevelSummary, in.Scores, fmt.Sprintf("summary %s, %s in round %s", r.Summary, user, round)); err != nil {
			return err
		}
	}
	if in.Relevance == nil && !in.NonSummary && in.TopicCategory == "" && in.Comment == "" {
		return nil // scores only
	}
	l := domain.SummaryLabel{NonSummary: in.NonSummary, TopicCategory: in.TopicCategory, Comment: in.Comment}
	if in.Relevance != nil {
		l.Relevance = *in.Relevance
		if l.Relevance < domain.RelevanceMin {
			return domain.Errorf(domain.EInvalid, "%s: relevance: must be between %d and %d", r.Source, domain.RelevanceMin, domain.RelevanceMax)
		}
	}
	if err := l.Validate(); err != nil {
		return domain.Errorf(domain.EInvalid, "%s: %s", r.Source, domain.ErrorMessage(err))
	}
	var prev domain.SummaryLabel
	var rel sql.NullInt64
	err := sql.ErrNoRows
	if !w.unlabelled(aid, 0) {
		if err := w.flush(); err != nil {
			return err
		}
		err = w.im.q.QueryRowContext(w.im.ctx, `SELECT relevance, non_summary, topic_category, comment FROM summary_labels WHERE assignment_id = ?`, aid).
			Scan(&rel, &prev.NonSummary, &prev.TopicCategory, &prev.Comment)
	}
	exists := err == nil
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	prev.Relevance = int(rel.Int64)
	if exists {
		if prev == l {
			w.im.stats.LabelsExisting++
			return nil
		}
		w.im.change(domain.Change{Kind: domain.ChangeLabel, Where: fmt.Sprintf("summary %s, %s in round %s", r.Summary, user, round),
			Old: fmt.Sprintf("%+v", prev), New: fmt.Sprintf("%+v", l)})
		if !w.im.opts.Update {
			return nil
		}
	}
	var relv any
	if l.Relevance > 0 {
		relv = l.Relevance
	}
	if err := w.queue(w.summaryRows, aid, relv, l.NonSummary, l.TopicCategory, l.Comment); err != nil {
		return err
	}
	if !exists {
		w.im.stats.SummaryLabels++
	}
	return nil
}

// finish resolves the summaries still known and sets the
// annotators-per-summary of the rounds the import made to what they hold.
func (w *labelWriter) finish() error {
	if err := w.flush(); err != nil {
		return err
	}
	if err := w.resolve(); err != nil {
		return err
	}
	for k, at := range w.activity {
		if err := noteRoundActivity(w.im.ctx, w.im.q, k[0], k[1], at); err != nil {
			return err
		}
	}
	for _, id := range w.newRounds {
		if _, err := w.im.q.ExecContext(w.im.ctx, `UPDATE rounds SET per_item = (SELECT coalesce(max(n), 1) FROM
			(SELECT count(*) AS n FROM assignments WHERE round_id = ?1 GROUP BY summary_id)) WHERE id = ?1`, id); err != nil {
			return err
		}
	}
	return nil
}

// sameSentenceLabel compares the fields an import sets.
func sameSentenceLabel(a, b *domain.SentenceLabel) bool {
	return a.Label == b.Label && slices.Equal(domain.NonNil(a.ErrorTypes), domain.NonNil(b.ErrorTypes)) && a.Explanation == b.Explanation &&
		sameBool(a.Ambiguous, b.Ambiguous) && a.AmbiguityType == b.AmbiguityType && a.AmbiguityNote == b.AmbiguityNote && a.UnsureNote == b.UnsureNote
}

func sameBool(a, b *bool) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// labelText shows a label in a list of changes.
func labelText(l *domain.SentenceLabel) string {
	s := l.Label
	if s == "" {
		s = "(no label)"
	}
	if len(l.ErrorTypes) > 0 {
		s += fmt.Sprintf(" %v", l.ErrorTypes)
	}
	if l.Ambiguous != nil && *l.Ambiguous {
		s += ", ambiguous"
		if l.AmbiguityType != "" {
			s += " (" + l.AmbiguityType + ")"
		}
	}
	if l.Explanation != "" {
		s += fmt.Sprintf(", %q", l.Explanation)
	}
	return s
}

// errorCode is what an error type code may be: a letter, then letters,
// digits, '_' or '-', at most 64.
var errorCode = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,63}$`)

// extendTaxonomy keeps error types an annotator's imported label uses and
// the project's taxonomy lacks: they are added to it (a preset taxonomy
// becomes a custom one holding the preset's types and the new ones), said
// in the import's summary, and the label is kept as given. A type that is
// no code at all is refused, naming where.
func (w *labelWriter) extendTaxonomy(types []string, source string) error {
	known := map[string]bool{}
	for _, t := range w.settings.ErrorTaxonomy() {
		known[t.Code] = true
	}
	var added []string
	for _, c := range types {
		if known[c] || slices.Contains(added, c) {
			continue
		}
		if !errorCode.MatchString(c) {
			return domain.Errorf(domain.EInvalid, "%s: error_types: %q is not an error type code (a letter, then letters, digits, _ or -)", source, c)
		}
		added = append(added, c)
	}
	if len(added) == 0 {
		return nil
	}
	set := w.settings
	if set.ErrorPreset != "custom" {
		set.CustomErrors = slices.Clone(domain.ErrorPresets[set.ErrorPreset])
		set.ErrorPreset = "custom"
	}
	for _, c := range added {
		set.CustomErrors = append(set.CustomErrors, domain.TaxonomyType{Code: c, Name: c, Definition: "Added by an import whose labels used it."})
	}
	if err := set.Validate(); err != nil {
		return domain.Errorf(domain.EInvalid, "%s: error_types: adding %s to the project's taxonomy: %s", source, strings.Join(added, ", "), domain.ErrorMessage(err))
	}
	raw, err := json.Marshal(set)
	if err != nil {
		return err
	}
	if _, err := w.im.q.ExecContext(w.im.ctx, `UPDATE projects SET settings = ? WHERE id = ?`, string(raw), w.im.project); err != nil {
		return err
	}
	w.settings = set
	w.im.stats.ErrorTypesAdded = append(w.im.stats.ErrorTypesAdded, added...)
	return nil
}
