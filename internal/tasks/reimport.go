package tasks

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"annotate/internal/domain"
)

// Re-importing data whose ids are already in the project compares it with
// what is stored. Every difference becomes a Change; without Update none
// is written. Gold, labels and metadata are then applied as given. A
// change of document or summary text where annotators' labels exist is
// refused, since the labels would point at text nobody saw, unless Relabel
// asks to replace the text and delete those labels.

// unit is a stored document unit or summary sentence.
type unit struct {
	id                int64
	speaker, text, tr string
}

// diffDocument compares an imported document with the stored one.
func (im *importer) diffDocument(docID int64, kind, lang string, d *domain.DocumentInput) error {
	var oldKind, oldLang, oldDomain, oldTitle string
	if err := im.q.QueryRowContext(im.ctx, `SELECT kind, language, domain, title FROM documents WHERE id = ?`, docID).
		Scan(&oldKind, &oldLang, &oldDomain, &oldTitle); err != nil {
		return err
	}
	where := "document " + d.ExternalID
	for _, f := range []struct{ col, old, new string }{{"language", oldLang, d.Language}, {"domain", oldDomain, d.Domain}, {"title", oldTitle, d.Title}} {
		if f.new == "" || f.new == f.old {
			continue
		}
		im.change(domain.Change{Kind: domain.ChangeMetadata, Where: where + " " + f.col, Old: f.old, New: f.new})
		if im.opts.Update {
			if _, err := im.q.ExecContext(im.ctx, `UPDATE documents SET `+f.col+` = ? WHERE id = ?`, f.new, docID); err != nil {
				return err
			}
		}
	}
	if err := im.diffAnnotationID(docID, where, d.AnnotationID); err != nil {
		return err
	}
	old, err := im.units(`SELECT id, speaker, text, '' FROM document_units WHERE document_id = ? ORDER BY idx`, docID)
	if err != nil {
		return err
	}
	var nu []unit
	if kind == domain.KindDialogue {
		for _, t := range d.Turns {
			nu = append(nu, unit{speaker: t.Speaker, text: t.Text})
		}
	} else {
		for _, s := range d.Sentences {
			nu = append(nu, unit{text: s})
		}
	}
	if kind == oldKind && slices.EqualFunc(old, nu, func(a, b unit) bool { return a.speaker == b.speaker && a.text == b.text }) {
		return nil
	}
	c := domain.Change{Kind: domain.ChangeText, Where: where, Old: unitText(old), New: unitText(nu)}
	if kind != oldKind {
		c.Old, c.New = oldKind+": "+c.Old, kind+": "+c.New
	}
	apply, err := im.textChange(&c, `s.document_id = ?`, docID)
	if err != nil || !apply {
		return err
	}
	if _, err := im.q.ExecContext(im.ctx, `DELETE FROM document_units WHERE document_id = ?`, docID); err != nil {
		return err
	}
	if _, err := im.q.ExecContext(im.ctx, `UPDATE documents SET kind = ? WHERE id = ?`, kind, docID); err != nil {
		return err
	}
	return im.writeUnits(docID, kind, d)
}

// diffAnnotationID compares a document's study id with the stored one.
func (im *importer) diffAnnotationID(docID int64, where, id string) error {
	if id == "" {
		return nil
	}
	var cur string
	err := im.q.QueryRowContext(im.ctx, `SELECT annotation_id FROM document_refs WHERE document_id = ?`, docID).Scan(&cur)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if cur == id {
		return nil
	}
	if cur != "" {
		im.change(domain.Change{Kind: domain.ChangeMetadata, Where: where + " annotation_id", Old: cur, New: id})
		if !im.opts.Update {
			return nil
		}
	}
	_, err = im.q.ExecContext(im.ctx, `INSERT INTO document_refs (document_id, annotation_id) VALUES (?, ?)
		ON CONFLICT (document_id) DO UPDATE SET annotation_id = excluded.annotation_id`, docID, id)
	return err
}

// diffSummary compares an imported summary with the stored one.
func (im *importer) diffSummary(sumID, docID int64, docLang string, s *domain.SummaryInput) error {
	where := "summary " + s.ExternalID
	var inDoc int64
	var topic, model, lang, original, edits string
	if err := im.q.QueryRowContext(im.ctx, `SELECT document_id, topic, model, language, original, edit_types FROM summaries WHERE id = ?`, sumID).
		Scan(&inDoc, &topic, &model, &lang, &original, &edits); err != nil {
		return err
	}
	if inDoc != docID {
		return domain.Errorf(domain.EInvalid, "%s: summary %s belongs to another document of the project; summary ids are unique across a project", im.source(s), s.ExternalID)
	}
	newEdits := ""
	if len(s.EditTypes) > 0 {
		b, _ := json.Marshal(s.EditTypes)
		newEdits = string(b)
	}
	for _, f := range []struct{ col, old, new string }{{"topic", topic, s.Topic}, {"model", model, s.Model}, {"language", lang, s.Language},
		{"original", original, s.Original}, {"edit_types", edits, newEdits}} {
		if f.new == "" || f.new == f.old {
			continue
		}
		im.change(domain.Change{Kind: domain.ChangeMetadata, Where: where + " " + f.col, Old: f.old, New: f.new})
		if im.opts.Update {
			if _, err := im.q.ExecContext(im.ctx, `UPDATE summaries SET `+f.col+` = ? WHERE id = ?`, f.new, sumID); err != nil {
				return err
			}
		}
	}
	old, err := im.units(`SELECT id, '', text, translation FROM summary_sentences WHERE summary_id = ? ORDER BY idx`, sumID)
	if err != nil {
		return err
	}
	texts := make([]string, len(s.Sentences))
	for i, sent := range s.Sentences {
		texts[i] = sent.Text
	}
	oldTexts := make([]string, len(old))
	for i, u := range old {
		oldTexts[i] = u.text
	}
	if !slices.Equal(texts, oldTexts) {
		c := domain.Change{Kind: domain.ChangeText, Where: where, Old: strings.Join(oldTexts, " | "), New: strings.Join(texts, " | ")}
		if strings.Join(strings.Fields(strings.Join(texts, " ")), " ") == strings.Join(strings.Fields(strings.Join(oldTexts, " ")), " ") {
			c.Kind = domain.ChangeSentences
		}
		apply, err := im.textChange(&c, `s.id = ?`, sumID)
		if err != nil || !apply {
			return err
		}
		if _, err := im.q.ExecContext(im.ctx, `DELETE FROM summary_sentences WHERE summary_id = ?`, sumID); err != nil {
			return err
		}
		if _, _, err := im.sentences(sumID, s); err != nil {
			return err
		}
		return im.diffSummaryGold(sumID, s)
	}
	for i, sent := range s.Sentences {
		sw := fmt.Sprintf("%s sentence %d", where, i+1)
		if sent.Translation != "" && sent.Translation != old[i].tr {
			im.change(domain.Change{Kind: domain.ChangeMetadata, Where: sw + " translation", Old: old[i].tr, New: sent.Translation})
			if im.opts.Update {
				if _, err := im.q.ExecContext(im.ctx, `UPDATE summary_sentences SET translation = ? WHERE id = ?`, sent.Translation, old[i].id); err != nil {
					return err
				}
			}
		}
		if sent.Gold != nil {
			if err := im.diffGold(old[i].id, sw, sent.Gold); err != nil {
				return err
			}
		}
	}
	return im.diffSummaryGold(sumID, s)
}

// diffGold compares imported gold with a sentence's stored gold: new gold
// is added, different gold is a change.
func (im *importer) diffGold(sentID int64, where string, g *domain.GoldInput) error {
	var cur domain.Gold
	var types string
	var amb sql.NullBool
	err := im.q.QueryRowContext(im.ctx, `SELECT label, error_types, explanation, ambiguous, ambiguity_type, ambiguity_note, provenance
		FROM gold_sentences WHERE sentence_id = ?`, sentID).Scan(&cur.Label, &types, &cur.Explanation, &amb, &cur.AmbiguityType, &cur.AmbiguityNote, &cur.Provenance)
	if errors.Is(err, sql.ErrNoRows) {
		_, err := im.gold(sentID, g)
		return err
	}
	if err != nil {
		return err
	}
	_ = json.Unmarshal([]byte(types), &cur.ErrorTypes)
	if amb.Valid {
		cur.Ambiguous = &amb.Bool
	}
	want := domain.GoldValues{Label: g.Label, ErrorTypes: g.ErrorTypes, Explanation: g.Explanation, Ambiguous: g.Ambiguous,
		AmbiguityType: g.AmbiguityType, AmbiguityNote: g.AmbiguityNote}
	if cur.GoldValues.Equal(want) && (g.Provenance == "" || g.Provenance == cur.Provenance) {
		return nil
	}
	im.change(domain.Change{Kind: domain.ChangeGold, Where: where, Old: goldShown(cur.GoldValues, cur.Provenance), New: goldShown(want, orDefault(g.Provenance, domain.ProvImported))})
	if !im.opts.Update {
		return nil
	}
	by, err := im.decider(g.DecidedBy)
	if err != nil {
		return err
	}
	id, _ := by.(int64)
	_, err = im.store.writeGold(im.ctx, im.q, domain.Gold{SentenceID: sentID, GoldValues: want, Provenance: orDefault(g.Provenance, domain.ProvImported),
		DecidedBy: id, Note: g.Note}, false)
	return err
}

// diffSummaryGold compares a summary's imported gold label with the stored
// one.
func (im *importer) diffSummaryGold(sumID int64, s *domain.SummaryInput) error {
	if s.Gold == nil || s.Gold.Label == "" {
		return nil
	}
	var cur string
	err := im.q.QueryRowContext(im.ctx, `SELECT label FROM gold_summaries WHERE summary_id = ?`, sumID).Scan(&cur)
	if errors.Is(err, sql.ErrNoRows) {
		_, err := im.summaryGold(sumID, s)
		return err
	}
	if err != nil || cur == s.Gold.Label {
		return err
	}
	im.change(domain.Change{Kind: domain.ChangeGold, Where: "summary " + s.ExternalID, Old: cur, New: s.Gold.Label})
	if !im.opts.Update {
		return nil
	}
	_, err = im.q.ExecContext(im.ctx, `UPDATE gold_summaries SET label = ?, provenance = ?, decided_by = NULL,
		decided_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), note = ? WHERE summary_id = ?`,
		s.Gold.Label, orDefault(s.Gold.Provenance, domain.ProvImported), s.Gold.Note, sumID)
	return err
}

// textChange records a change of text on the summaries matching cond and
// says whether to apply it. Where annotators' labels exist on them, the
// change is refused unless Update and Relabel are both given; then the
// labels are deleted (and the change says so) before the text is replaced.
func (im *importer) textChange(c *domain.Change, cond string, arg int64) (bool, error) {
	var labels, people int
	if err := im.q.QueryRowContext(im.ctx, `SELECT count(*), count(DISTINCT a.user_id) FROM assignments a JOIN summaries s ON s.id = a.summary_id
		WHERE `+cond+` AND (EXISTS (SELECT 1 FROM sentence_labels l WHERE l.assignment_id = a.id)
			OR EXISTS (SELECT 1 FROM summary_labels l WHERE l.assignment_id = a.id)
			OR EXISTS (SELECT 1 FROM scale_scores l WHERE l.assignment_id = a.id))`, arg).Scan(&labels, &people); err != nil {
		return false, err
	}
	if labels == 0 {
		im.change(*c)
		return im.opts.Update, nil
	}
	if !im.opts.Update || !im.opts.Relabel {
		c.Reason = fmt.Sprintf("refused: %d %s already labelled it, and the labels would point at text nobody saw; --update --relabel replaces the text and deletes those labels",
			people, domain.Plural(people, "annotator has", "annotators have"))
		im.change(*c)
		if im.opts.Update {
			im.refused.Add(*c)
		}
		return false, nil
	}
	if err := im.keepStale(cond, arg, "the text of "+c.Where+" changed on re-import"); err != nil {
		return false, err
	}
	n, err := im.deleteLabels(cond, arg)
	if err != nil {
		return false, err
	}
	c.Reason = fmt.Sprintf("deleted %d labels of %d %s given on the old text (kept with that text in the stale labels export); their assignments wait to be labelled again",
		n, people, domain.Plural(people, "annotator", "annotators"))
	im.change(*c)
	return true, nil
}

// keepStale copies the annotators' sentence labels of the summaries
// matching cond into stale_labels, with the sentence text they were given
// on, before a re-import replaces that text.
func (im *importer) keepStale(cond string, arg int64, reason string) error {
	_, err := im.q.ExecContext(im.ctx, `INSERT INTO stale_labels (project_id, document, summary, sentence, sentence_text, user_id, round, data, saved_at, reason)
		SELECT s.project_id, d.external_id, s.external_id, coalesce(ss.source_index, ss.idx), ss.text, a.user_id, r.name,
			json_object('label', l.label, 'error_types', json(l.error_types), 'explanation', l.explanation,
				'ambiguous', CASE WHEN l.ambiguous IS NULL THEN NULL WHEN l.ambiguous THEN json('true') ELSE json('false') END,
				'ambiguity_type', l.ambiguity_type, 'ambiguity_note', l.ambiguity_note, 'unsure_note', l.unsure_note, 'status', a.status),
			l.updated_at, ?2
		FROM sentence_labels l
		JOIN assignments a ON a.id = l.assignment_id
		JOIN rounds r ON r.id = a.round_id
		JOIN summaries s ON s.id = a.summary_id
		JOIN documents d ON d.id = s.document_id
		JOIN summary_sentences ss ON ss.id = l.sentence_id
		WHERE `+strings.Replace(cond, "?", "?1", 1)+`
		ORDER BY a.id, ss.idx`, arg, reason)
	return err
}

// deleteLabels removes the annotators' labels of the summaries matching
// cond, and gold that was resolved or decided from them. Assignments of
// rounds made by import go (the import brings the new labels); the others
// wait to be labelled again.
func (im *importer) deleteLabels(cond string, arg int64) (int, error) {
	var n int
	if err := im.q.QueryRowContext(im.ctx, `SELECT count(*) FROM sentence_labels l JOIN assignments a ON a.id = l.assignment_id
		JOIN summaries s ON s.id = a.summary_id WHERE `+cond, arg).Scan(&n); err != nil {
		return 0, err
	}
	assignments := `SELECT a.id FROM assignments a JOIN summaries s ON s.id = a.summary_id WHERE ` + cond
	for _, q := range []string{
		`DELETE FROM sentence_labels WHERE assignment_id IN (` + assignments + `)`,
		`DELETE FROM summary_labels WHERE assignment_id IN (` + assignments + `)`,
		`DELETE FROM keyfact_labels WHERE assignment_id IN (` + assignments + `)`,
		`DELETE FROM scale_scores WHERE assignment_id IN (` + assignments + `)`,
		`DELETE FROM gold_sentences WHERE provenance != 'imported' AND sentence_id IN
			(SELECT ss.id FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id WHERE ` + cond + `)`,
		`DELETE FROM assignments WHERE round_id IN (SELECT round_id FROM imported_rounds) AND id IN (` + assignments + `)`,
		`UPDATE assignments SET status = 'pending', submitted_at = NULL, version = version + 1
			WHERE status != 'released' AND id IN (` + assignments + `)`,
	} {
		if _, err := im.q.ExecContext(im.ctx, q, arg); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// units loads stored units or sentences.
func (im *importer) units(query string, id int64) ([]unit, error) {
	rows, err := im.q.QueryContext(im.ctx, query, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []unit
	for rows.Next() {
		var u unit
		if err := rows.Scan(&u.id, &u.speaker, &u.text, &u.tr); err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, rows.Err()
}

// source locates a summary for messages.
func (im *importer) source(s *domain.SummaryInput) string {
	if s.Source != "" {
		return s.Source
	}
	return "summary " + s.ExternalID
}

// unitText joins units for a change.
func unitText(us []unit) string {
	parts := make([]string, len(us))
	for i, u := range us {
		parts[i] = u.text
		if u.speaker != "" {
			parts[i] = u.speaker + ": " + u.text
		}
	}
	return strings.Join(parts, " | ")
}

// goldShown shows gold in a change.
func goldShown(v domain.GoldValues, prov string) string {
	l := domain.SentenceLabel{Label: v.Label, ErrorTypes: v.ErrorTypes, Explanation: v.Explanation, Ambiguous: v.Ambiguous, AmbiguityType: v.AmbiguityType}
	return labelText(&l) + " (" + prov + ")"
}
