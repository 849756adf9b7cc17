package tasks

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"annotate/internal/domain"
)

// Import writes documents into a project in one transaction: all of it or,
// on any error, nothing. Documents and summaries are matched by external id,
// so importing the same data again adds nothing twice; key facts are
// matched by document, topic and text. Annotators' labels given inside the
// documents and in labels are written after the documents (see
// ImportRequest). Data that is already there and differs is an error
// (*ChangesError listing each difference) and nothing is written.
func (s *Store) Import(ctx context.Context, projectID int64, docs []domain.DocumentInput, labels ...domain.LabelRecord) (domain.ImportStats, error) {
	st, _, err := s.ImportWith(ctx, domain.ImportRequest{Project: projectID, Documents: docs, Labels: labels})
	return st, domain.Op("Store.Import", err)
}

// ImportWith runs an import request in one transaction. It returns what
// was written and, with Update, the changes it applied to data that was
// already there.
func (s *Store) ImportWith(ctx context.Context, req domain.ImportRequest) (domain.ImportStats, []domain.Change, error) {
	val1, val2, err := s.ImportStream(ctx, req, func(w *ImportWriter) error {
		if err := w.Begin(req.ErrorTaxonomy); err != nil {
			return err
		}
		if err := w.Scales(req.Scales); err != nil {
			return err
		}
		for i := range req.Documents {
			if err := w.Document(&req.Documents[i]); err != nil {
				return err
			}
		}
		return w.Labels(req.Labels)
	})
	return val1, val2, domain.Op("Store.ImportWith", err)
}

// ImportStream runs an import whose content arrives while it is written:
// fill hands scales, documents and labels to the writer in the order they
// are read, and everything happens in one transaction, committed only if
// fill and the checks of the request (see ImportWith) succeed. Nothing of
// a document needs to stay in memory once it is written. req.Documents,
// req.Labels and req.Scales are ignored.
func (s *Store) ImportStream(ctx context.Context, req domain.ImportRequest, fill func(*ImportWriter) error) (domain.ImportStats, []domain.Change, error) {
	var st domain.ImportStats
	var applied []domain.Change
	// An import that makes its project adds rows only, each pointing at
	// rows the import made or read in its transaction (the new project's
	// documents, summaries and sentences, its rounds and assignments, users
	// found or made by name), so SQLite's foreign-key checks, which cost
	// 14% of importing 1.5M labels, are off for it (see bulkTxKeys); the
	// project must then be made before anything is written into it (see
	// ImportWriter.Begin). Any other import may point at older rows or
	// delete some, and keeps them.
	checkKeys := req.Create == nil || req.Update || req.Relabel
	err := s.bulkTxKeys(ctx, checkKeys, func(tx *sql.Tx) error {
		// An import that may delete labels (Relabel) keeps the trigger
		// for each label's gold: markLabelledStale finds the import's
		// labels as those after the last one there was.
		//
		// Assignments the import makes mark the gold of their summaries
		// stale once, at its end (markImportDealtStale), rather than each
		// through dealtGoldTrigger: 1.5 s of importing 1.5M labels.
		gold := []string{dealtGoldTrigger}
		if !req.Relabel {
			gold = append(gold, labelGoldTrigger)
		}
		var firstSummary int64
		if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) + 1 FROM summaries`).Scan(&firstSummary); err != nil {
			return err
		}
		held, err := holdReportTriggers(ctx, tx, gold...)
		if err != nil {
			return err
		}
		q := &preparedTx{tx: tx}
		defer q.close()
		w := &ImportWriter{im: &importer{ctx: ctx, tx: tx, q: q, store: s, project: req.Project, stats: &st, opts: req, now: s.now}, needBegin: req.Create != nil}
		if err := fill(w); err != nil {
			return err
		}
		if w.needBegin {
			return errNotBegun
		}
		if w.labels != nil {
			if err := w.labels.finish(); err != nil {
				return err
			}
			if held.holds(labelGoldTrigger) && w.labels.labelledOld {
				if err := markLabelledStale(ctx, tx, w.labels.firstLabel); err != nil {
					return err
				}
			}
			if first := w.labels.firstAssignment; first != 0 {
				if err := markImportDealtStale(ctx, tx, first, firstSummary); err != nil {
					return err
				}
			}
		}
		im := w.im
		if im.changes.Total > 0 && !req.Update {
			return &domain.ChangesError{Changes: im.changes.Kept, Total: im.changes.Total}
		}
		if im.refused.Total > 0 {
			return &domain.ChangesError{Changes: im.refused.Kept, Total: im.refused.Total, Refused: true}
		}
		applied = im.changes.Kept
		st.Changes = im.changes.Total
		if req.DryRun {
			return errCheckOnly
		}
		q.close()
		return held.release(ctx, tx, im.project)
	})
	if err != nil && !errors.Is(err, errCheckOnly) {
		return domain.ImportStats{}, nil, domain.Op("Store.ImportStream", err)
	}
	if err == nil {
		// Tables an import made ten times larger get fresh planner
		// statistics now, not at the next hourly optimize: statistics
		// taken when a table was nearly empty make the planner scan it.
		s.optimize(ctx, "PRAGMA optimize") // a failure only leaves older statistics
		// Labelled data leaves the gold index many rows to rewrite.
		s.kickGoldIndex()
	}
	return st, applied, nil
}

// errNotBegun is the error of an import that makes its project and is
// given content before the project (ImportWriter.Begin).
var errNotBegun = errors.New("the project this import makes is not made yet (ImportWriter.Begin comes first)")

// ImportWriter writes the parts of one import inside its transaction.
type ImportWriter struct {
	im     *importer
	labels *labelWriter
	// needBegin is true while the project an import makes (Create) is
	// not made yet: until then nothing can be written.
	needBegin bool
}

// Begin starts the import once the error taxonomy of the input is known:
// with ImportRequest.Create it makes the project, using that taxonomy.
func (w *ImportWriter) Begin(errorTaxonomy string) error {
	c := w.im.opts.Create
	if c == nil {
		return nil
	}
	p := *c
	if errorTaxonomy != "" {
		p.Settings.ErrorPreset = errorTaxonomy
	}
	if err := domain.ValidateSlug(p.Slug); err != nil {
		return domain.Op("ImportWriter.Begin", err)
	}
	if p.Name == "" {
		p.Name = p.Slug
	}
	if err := p.Settings.Validate(); err != nil {
		return domain.Op("ImportWriter.Begin", err)
	}
	settings, err := json.Marshal(p.Settings)
	if err != nil {
		return domain.Op("ImportWriter.Begin", err)
	}
	id, err := insertProject(w.im.ctx, w.im.tx, p, settings)
	w.im.project = id
	w.needBegin = err != nil
	return domain.Op("ImportWriter.Begin", err)
}

// Scales defines rating scales in the project (see ImportRequest.Scales).
func (w *ImportWriter) Scales(scales []domain.Scale) error {
	if len(scales) == 0 {
		return nil
	}
	if w.needBegin {
		return domain.Op("ImportWriter.Scales", errNotBegun)
	}
	if err := w.im.scales(scales); err != nil {
		return domain.Op("ImportWriter.Scales", err)
	}
	if w.labels != nil {
		return domain.Op("ImportWriter.Scales", w.labels.reload())
	}
	return nil
}

// Document writes one document with its summaries, key facts, gold and
// the annotators' labels given inside it.
func (w *ImportWriter) Document(d *domain.DocumentInput) error {
	if w.needBegin {
		return domain.Op("ImportWriter.Document", errNotBegun)
	}
	if err := w.im.document(d); err != nil {
		return domain.Op("ImportWriter.Document", err)
	}
	if err := w.Labels(nestedLabels([]domain.DocumentInput{*d})); err != nil {
		return domain.Op("ImportWriter.Document", err)
	}
	if w.labels != nil {
		// Its summaries are done: resolve their gold, and keep memory
		// bounded.
		if err := w.labels.forget(); err != nil {
			return domain.Op("ImportWriter.Document", err)
		}
	}
	clear(w.im.created)
	return nil
}

// Labels writes annotators' labels of summaries already written.
func (w *ImportWriter) Labels(labels []domain.LabelRecord) error {
	if len(labels) == 0 {
		return nil
	}
	if w.needBegin {
		return domain.Op("ImportWriter.Labels", errNotBegun)
	}
	if w.labels == nil {
		lw, err := newLabelWriter(w.im)
		if err != nil {
			return domain.Op("ImportWriter.Labels", err)
		}
		w.labels = lw
	}
	for i := range labels {
		if err := w.labels.write(&labels[i]); err != nil {
			return domain.Op("ImportWriter.Labels", err)
		}
	}
	return nil
}

type importer struct {
	ctx     context.Context
	tx      *sql.Tx
	q       *preparedTx // tx, with each statement prepared once
	store   *Store
	project int64
	stats   *domain.ImportStats
	opts    domain.ImportRequest
	now     func() time.Time
	// changes are differences from data already there; refused are those
	// an update cannot apply.
	changes, refused domain.ChangeLog
	// created holds the summaries the current document made, by external
	// id, with their sentence ids by index-1: their labels need not look
	// them up, nor look for assignments or labels already there.
	created map[string]createdSummary
}

// createdSummary is a summary an import has just made, with the gold
// its sentences got from the input.
type createdSummary struct {
	id        int64
	sentences []int64
	gold      map[int64]domain.Gold
	// summaryGold is the summary's gold label the input gave, zero for
	// none.
	summaryGold domain.SummaryGoldLabel
}

// change notes a difference from data already there.
func (im *importer) change(c domain.Change) { im.changes.Add(c) }

func (im *importer) where(d *domain.DocumentInput) string {
	if d.Source != "" {
		return d.Source + ": "
	}
	return "document " + d.ExternalID + ": "
}

func (im *importer) document(d *domain.DocumentInput) error {
	if d.ExternalID == "" {
		return domain.Errorf(domain.EInvalid, "%sid: missing", im.where(d))
	}
	if err := checkDocumentText(im.where(d), d); err != nil {
		return err
	}
	kind := d.Kind
	if kind == "" {
		kind = domain.KindProse
	}
	if kind != domain.KindProse && kind != domain.KindDialogue {
		return domain.Errorf(domain.EInvalid, "%skind: %q is not prose or dialogue", im.where(d), kind)
	}
	lang := orDefault(d.Language, "en")
	var docID int64
	created := false
	err := im.q.QueryRowContext(im.ctx, `SELECT id FROM documents WHERE project_id = ? AND external_id = ?`, im.project, d.ExternalID).Scan(&docID)
	if errors.Is(err, sql.ErrNoRows) && d.NamedByContent {
		err = im.documentOfSummaries(d, &docID)
	}
	switch {
	case err == nil && d.Continuation:
		// More summaries of a document written before.
	case err == nil:
		im.stats.DocumentsExisting++
		if err := im.diffDocument(docID, kind, lang, d); err != nil {
			return err
		}
	case errors.Is(err, sql.ErrNoRows) && d.Continuation:
		return domain.Errorf(domain.EInvalid, "%sid: document %q has no content here and is not in the project", im.where(d), d.ExternalID)
	case errors.Is(err, sql.ErrNoRows):
		res, err := im.q.ExecContext(im.ctx, `INSERT INTO documents (project_id, external_id, kind, language, domain, title) VALUES (?, ?, ?, ?, ?, ?)`,
			im.project, d.ExternalID, kind, lang, d.Domain, d.Title)
		if err != nil {
			return err
		}
		if docID, err = res.LastInsertId(); err != nil {
			return err
		}
		created = true
		im.stats.Documents++
		if d.AnnotationID != "" {
			if _, err := im.q.ExecContext(im.ctx, `INSERT INTO document_refs (document_id, annotation_id) VALUES (?, ?)`, docID, d.AnnotationID); err != nil {
				return err
			}
		}
		if err := im.writeUnits(docID, kind, d); err != nil {
			return err
		}
	default:
		return err
	}
	for i := range d.Summaries {
		if err := im.summary(docID, lang, &d.Summaries[i]); err != nil {
			return err
		}
	}
	return im.keyFacts(docID, d.KeyFacts, created)
}

func (im *importer) writeUnits(docID int64, kind string, d *domain.DocumentInput) error {
	const insert = `INSERT INTO document_units (document_id, idx, speaker, text) VALUES (?, ?, ?, ?)`
	if kind == domain.KindDialogue {
		for i, t := range d.Turns {
			if _, err := im.q.ExecContext(im.ctx, insert, docID, i+1, t.Speaker, t.Text); err != nil {
				return err
			}
		}
		im.stats.Units += len(d.Turns)
		return nil
	}
	if len(d.Sentences) == 0 {
		return domain.Errorf(domain.EInvalid, "document %s: sentences: none (split the text before importing)", d.ExternalID)
	}
	for i, s := range d.Sentences {
		if _, err := im.q.ExecContext(im.ctx, insert, docID, i+1, "", s); err != nil {
			return err
		}
	}
	im.stats.Units += len(d.Sentences)
	return nil
}

func (im *importer) summary(docID int64, docLang string, s *domain.SummaryInput) error {
	if s.ExternalID == "" {
		return domain.Errorf(domain.EInvalid, "summary: id: missing")
	}
	var existing int64
	err := im.q.QueryRowContext(im.ctx, `SELECT id FROM summaries WHERE project_id = ? AND external_id = ?`, im.project, s.ExternalID).Scan(&existing)
	if err == nil {
		im.stats.SummariesExisting++
		return im.diffSummary(existing, docID, docLang, s)
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if len(s.Sentences) == 0 {
		return domain.Errorf(domain.EInvalid, "summary %s: sentences: none (split the text before importing)", s.ExternalID)
	}
	edits, _ := json.Marshal(domain.NonNil(s.EditTypes))
	res, err := im.q.ExecContext(im.ctx, `INSERT INTO summaries (project_id, document_id, external_id, topic, model, language, original, edit_types) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		im.project, docID, s.ExternalID, s.Topic, s.Model, orDefault(s.Language, docLang), s.Original, string(edits))
	if err != nil {
		return err
	}
	sumID, err := res.LastInsertId()
	if err != nil {
		return err
	}
	im.stats.Summaries++
	sents, gold, err := im.sentences(sumID, s)
	if err != nil {
		return err
	}
	if im.created == nil {
		im.created = map[string]createdSummary{}
	}
	g, err := im.summaryGold(sumID, s)
	if err != nil {
		return err
	}
	im.created[s.ExternalID] = createdSummary{id: sumID, sentences: sents, gold: gold, summaryGold: g}
	return nil
}

// sentences writes a summary's sentences with their gold, and returns
// their ids in order and the gold written, by sentence id.
func (im *importer) sentences(sumID int64, s *domain.SummaryInput) ([]int64, map[int64]domain.Gold, error) {
	ids := make([]int64, 0, len(s.Sentences))
	var gold map[int64]domain.Gold
	for i, sent := range s.Sentences {
		var source any
		if sent.SourceIndex > 0 {
			source = sent.SourceIndex
		}
		res, err := im.q.ExecContext(im.ctx, `INSERT INTO summary_sentences (summary_id, idx, text, translation, source_index) VALUES (?, ?, ?, ?, ?)`,
			sumID, i+1, sent.Text, sent.Translation, source)
		if err != nil {
			return nil, nil, err
		}
		im.stats.Sentences++
		sentID, err := res.LastInsertId()
		if err != nil {
			return nil, nil, err
		}
		ids = append(ids, sentID)
		if sent.Gold == nil {
			continue
		}
		g, err := im.gold(sentID, sent.Gold)
		if err != nil {
			return nil, nil, domain.Errorf(domain.EInvalid, "summary %s: sentences[%d].gold: %v", s.ExternalID, i, err)
		}
		if gold == nil {
			gold = map[int64]domain.Gold{}
		}
		gold[sentID] = g
	}
	return ids, gold, nil
}

// summaryGold writes the gold label of a whole summary, when given, and
// returns it as stored (zero when not given).
func (im *importer) summaryGold(sumID int64, s *domain.SummaryInput) (domain.SummaryGoldLabel, error) {
	if s.Gold == nil || s.Gold.Label == "" {
		return domain.SummaryGoldLabel{}, nil
	}
	by, err := im.decider(s.Gold.DecidedBy)
	if err != nil {
		return domain.SummaryGoldLabel{}, err
	}
	g := domain.SummaryGoldLabel{Label: s.Gold.Label, Provenance: orDefault(s.Gold.Provenance, domain.ProvImported)}
	if _, err := im.q.ExecContext(im.ctx, `INSERT INTO gold_summaries (summary_id, label, provenance, decided_by, decided_at, note)
		VALUES (?, ?, ?, ?, coalesce(?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), ?)`,
		sumID, g.Label, g.Provenance, by, nullString(s.Gold.DecidedAt), s.Gold.Note); err != nil {
		return domain.SummaryGoldLabel{}, domain.Errorf(domain.EInvalid, "summary %s: gold.label: %v", s.ExternalID, err)
	}
	im.stats.GoldSummaries++
	return g, nil
}

// decider finds the account a gold label names as its decider; a name
// this database does not know leaves the decision without one.
func (im *importer) decider(username string) (any, error) {
	if username == "" {
		return nil, nil
	}
	var id int64
	err := im.q.QueryRowContext(im.ctx, `SELECT id FROM users WHERE username = ?`, username).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return id, nil
}

// nullString makes "" NULL, so that a column default applies.
func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// gold writes a sentence's gold as given and returns it as stored.
func (im *importer) gold(sentID int64, g *domain.GoldInput) (domain.Gold, error) {
	types, _ := json.Marshal(domain.NonNil(g.ErrorTypes))
	var amb any
	if g.Ambiguous != nil {
		amb = *g.Ambiguous
		im.stats.AmbiguityLabels++
	}
	by, err := im.decider(g.DecidedBy)
	if err != nil {
		return domain.Gold{}, err
	}
	stored := domain.Gold{SentenceID: sentID, GoldValues: domain.GoldValues{Label: g.Label, ErrorTypes: domain.NonNil(g.ErrorTypes), Explanation: g.Explanation,
		Ambiguous: g.Ambiguous, AmbiguityType: g.AmbiguityType, AmbiguityNote: g.AmbiguityNote}, Provenance: orDefault(g.Provenance, domain.ProvImported)}
	if id, ok := by.(int64); ok {
		stored.DecidedBy = id
	}
	_, err = im.q.ExecContext(im.ctx, `INSERT INTO gold_sentences (sentence_id, label, error_types, explanation, ambiguous, ambiguity_type, ambiguity_note,
			provenance, decided_by, decided_at, note)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, coalesce(?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), ?)`, sentID, g.Label, string(types), g.Explanation, amb,
		g.AmbiguityType, g.AmbiguityNote, orDefault(g.Provenance, domain.ProvImported), by, nullString(g.DecidedAt), g.Note)
	if err == nil && g.Label != "" {
		im.stats.GoldSentences++
	}
	return stored, err
}

// keyFacts adds the document's key facts it does not have yet. A document
// made by this call has none but those added here, counted in memory.
func (im *importer) keyFacts(docID int64, facts []domain.KeyFactInput, created bool) error {
	type fact struct{ topic, text string }
	var seen map[fact]bool
	var last map[string]int
	if created {
		seen, last = map[fact]bool{}, map[string]int{}
	}
	for _, f := range facts {
		text := strings.TrimSpace(f.Text)
		if text == "" {
			continue
		}
		if created {
			k := fact{f.Topic, text}
			if seen[k] {
				continue
			}
			seen[k] = true
			last[f.Topic]++
			if _, err := im.q.ExecContext(im.ctx, `INSERT INTO key_facts (document_id, topic, idx, text, category) VALUES (?, ?, ?, ?, ?)`,
				docID, f.Topic, last[f.Topic], text, f.Category); err != nil {
				return err
			}
			im.stats.KeyFacts++
			continue
		}
		var n int
		if err := im.q.QueryRowContext(im.ctx, `SELECT count(*) FROM key_facts WHERE document_id = ? AND topic = ? AND text = ?`, docID, f.Topic, text).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			continue
		}
		if _, err := im.q.ExecContext(im.ctx, `INSERT INTO key_facts (document_id, topic, idx, text, category)
			VALUES (?, ?, (SELECT coalesce(max(idx), 0) + 1 FROM key_facts WHERE document_id = ? AND topic = ?), ?, ?)`,
			docID, f.Topic, docID, f.Topic, text, f.Category); err != nil {
			return err
		}
		im.stats.KeyFacts++
	}
	return nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// documentOfSummaries finds the project's document that holds one of d's
// summaries, for a document named by its content whose content changed;
// sql.ErrNoRows when none does.
func (im *importer) documentOfSummaries(d *domain.DocumentInput, docID *int64) error {
	for _, s := range d.Summaries {
		err := im.q.QueryRowContext(im.ctx, `SELECT document_id FROM summaries WHERE project_id = ? AND external_id = ?`, im.project, s.ExternalID).Scan(docID)
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
	}
	return sql.ErrNoRows
}
