package tasks

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"annotate/internal/domain"
)

// The summaries of an export are read like its cells (exportcells.go):
// one cursor over the summaries, one over their sentences with gold and
// one over the key-fact links of submitted assignments, each in export
// order, merged summary by summary. The counts a summary's scores come
// from are taken from its sentences as they pass, not from subqueries.
var summaryQueries = map[string]string{
	"summaries": `SELECT s.id, s.document_id, d.external_id, d.kind, d.language, d.domain, d.title,
			s.external_id, s.topic, s.model, s.language, s.original, s.edit_types,
			g.label, g.provenance, coalesce(g.decided_by, 0), coalesce(u.username, ''), g.decided_at, g.note,
			(SELECT count(*) FROM key_facts k WHERE k.document_id = s.document_id AND (k.topic = s.topic OR k.topic = '')),
			(SELECT count(*) FROM assignments a WHERE a.summary_id = s.id AND a.status = 'submitted' AND (?2 = 0 OR a.round_id = ?2))
		FROM ` + cellsFrom + ` LEFT JOIN gold_summaries g ON g.summary_id = s.id LEFT JOIN users u ON u.id = g.decided_by
		WHERE ` + cellsWhere + ` ORDER BY d.id, s.id`,
	// A sentence's gold comes as four columns (see exportGoldColumns),
	// NULL or empty for none. The decider's name is looked up on the
	// export's own transaction (see eachSummary): this query may run on a
	// second one, which must read only tables whose writes bump
	// report_versions.
	"sentences": `SELECT ss.summary_id, ss.id, ss.idx, coalesce(ss.source_index, ss.idx), ss.text, nullif(ss.translation, ''),
			` + exportGoldColumns + `
		FROM ` + cellsFrom + ` CROSS JOIN summary_sentences ss ON ss.summary_id = s.id
		LEFT JOIN gold_sentences g ON g.sentence_id = ss.id
		WHERE ` + cellsWhere + ` ORDER BY d.id, s.id, ss.idx`,
	// The key-fact links of the submitted assignments in scope, which
	// give the gold alignment (see ExportSummary.Scores).
	"links": `SELECT s.id, kl.key_fact_id, kl.sentence_id
		FROM ` + cellsFrom + ` CROSS JOIN assignments a ON a.summary_id = s.id AND a.status = 'submitted' AND (?2 = 0 OR a.round_id = ?2)
		CROSS JOIN keyfact_labels kl ON kl.assignment_id = a.id
		WHERE ` + cellsWhere + ` ORDER BY d.id, s.id`,
}

// EachSummary calls fn for every summary in scope, document by document in
// the order they were created, and each document's summaries in order.
func (r *ExportReader) EachSummary(ctx context.Context, fn func(*domain.ExportSummary) error) error {
	return domain.Op("ExportReader.EachSummary", r.eachSummary(ctx, func(s *domain.ExportSummary, _ []domain.ExportSentence) error { return fn(s) }))
}

// EachSummarySentences is EachSummary with each summary's sentences and
// their gold, in order. The slice is reused between calls.
func (r *ExportReader) EachSummarySentences(ctx context.Context, fn func(*domain.ExportSummary, []domain.ExportSentence) error) error {
	return domain.Op("ExportReader.EachSummarySentences", r.eachSummary(ctx, fn))
}

// link is a key fact linked to a sentence.
type link struct{ keyFact, sentence int64 }

func (r *ExportReader) eachSummary(ctx context.Context, fn func(*domain.ExportSummary, []domain.ExportSentence) error) error {
	cur := map[string]*cursor{}
	defer func() {
		for _, c := range cur {
			c.close()
		}
	}()
	for _, n := range []string{"summaries", "links"} {
		rows, err := r.tx.QueryContext(ctx, r.scoped(summaryQueries[n]), r.scope.ProjectID, r.scope.RoundID)
		if err != nil {
			return fmt.Errorf("%s: %w", n, err)
		}
		cur[n] = &cursor{rows: rows}
	}
	// The sentences, most of the reading, on a second connection when
	// one is free (see openApart).
	sentences, err := openApart(ctx, r, "sentences", r.scoped(summaryQueries["sentences"]), scanSentences())
	if err != nil {
		return err
	}
	defer sentences.close()
	deciders := cachedNames{query: `SELECT username FROM users WHERE id = ?`}
	var linkSummary int64
	var ln link
	scanLink := func(rows *sql.Rows) error { return rows.Scan(&linkSummary, &ln.keyFact, &ln.sentence) }

	var sents []domain.ExportSentence
	votes := map[link]int{}
	sums := cur["summaries"]
	for sums.rows.Next() {
		var s domain.ExportSummary
		var edits string
		var gLabel, gProv, gAt, gNote sql.NullString
		var gBy int64
		var gByName string
		if err := sums.rows.Scan(&s.ID, &s.DocumentID, &s.Document, &s.DocumentKind, &s.DocumentLanguage, &s.DocumentDomain, &s.DocumentTitle,
			&s.External, &s.Topic, &s.Model, &s.Language, &s.Original, &edits,
			&gLabel, &gProv, &gBy, &gByName, &gAt, &gNote, &s.KeyFacts, &s.Alignments); err != nil {
			return err
		}
		s.EditTypes = decodeTypes(edits)
		if gLabel.Valid {
			s.Gold = &domain.ExportGold{GoldValues: domain.GoldValues{Label: gLabel.String, ErrorTypes: []string{}}, Provenance: gProv.String,
				DecidedByID: gBy, DecidedBy: gByName, DecidedAt: gAt.String, Note: gNote.String}
		}
		sents = sents[:0]
		for {
			row, ok, err := sentences.peek()
			if err != nil {
				return err
			}
			if !ok || row.summary != s.ID {
				break
			}
			sentences.take()
			if g := row.sent.Gold; g != nil && g.DecidedByID != 0 {
				if g.DecidedBy, err = deciders.name(ctx, r.tx, g.DecidedByID); err != nil {
					return fmt.Errorf("sentences: decider: %w", err)
				}
			}
			sents = append(sents, row.sent)
			countGold(&s, row.sent.Gold)
		}
		clear(votes)
		for {
			ok, err := cur["links"].next(scanLink)
			if err != nil {
				return err
			}
			if !ok || linkSummary != s.ID {
				break
			}
			cur["links"].ok = false
			votes[ln]++
		}
		align(&s, votes)
		if err := fn(&s, sents); err != nil {
			return err
		}
	}
	if err := sums.rows.Err(); err != nil {
		return err
	}
	if _, ok, err := sentences.peek(); err != nil {
		return err
	} else if ok {
		return fmt.Errorf("sentences: rows left after the last summary")
	}
	if c := cur["links"]; c.ok || (!c.done && c.rows.Next()) {
		return fmt.Errorf("links: rows left after the last summary")
	}
	return cur["links"].rows.Err()
}

// sentenceRow is one row of the sentences query: a sentence with its
// gold, whose decider is named by id only: eachSummary looks the name up
// on the export's own transaction.
type sentenceRow struct {
	summary int64
	sent    domain.ExportSentence
}

// exportGoldColumns are a sentence's gold (g, of gold_sentences) as four
// columns: its label, provenance and ambiguity as one number (NULL for no
// gold; see goldCodes), its decider's id, when it was decided, and its
// texts (error types, explanation, ambiguity type and note, note) packed
// as one (see packedText), NULL when every one is empty, as it is on most
// gold: agreement writes error types only where the annotators gave
// them, and nothing else. Packing every row's ten columns into one, as
// this query did, took half of its time on a project whose every
// sentence had gold (1.2 s of 500,000 rows, 2,208 of them with texts,
// against 0.8 s as these columns).
var exportGoldColumns = `CASE WHEN g.sentence_id IS NOT NULL THEN
		(CASE g.label WHEN '' THEN 0 WHEN 'faithful' THEN 1 WHEN 'unfaithful' THEN 2 WHEN 'borderline' THEN 3 ELSE 7 END)
		| (CASE g.provenance WHEN 'imported' THEN 0 WHEN 'unanimous' THEN 8 WHEN 'majority' THEN 16 WHEN 'adjudicated' THEN 24
			WHEN 'unresolved' THEN 32 ELSE 56 END)
		| (coalesce((g.ambiguous != 0) + 1, 0) << 6) END,
		g.decided_by, g.decided_at,
		CASE WHEN g.error_types != '[]' OR g.explanation != '' OR g.ambiguity_type != '' OR g.ambiguity_note != '' OR g.note != ''
		THEN ` + packedText("g.error_types", "g.explanation", "g.ambiguity_type", "g.ambiguity_note", "g.note") + ` END`

// goldCodes are the labels and provenances of exportGoldColumns's number,
// by their code: the label in its lowest three bits, the provenance in the
// next three, then the ambiguity (0 not answered, 1 no, 2 yes).
var goldCodes = struct{ labels, provenances []string }{
	labels: []string{"", domain.LabelFaithful, domain.LabelUnfaithful, domain.LabelBorderline},
	provenances: []string{domain.ProvImported, domain.ProvUnanimous, domain.ProvMajority, domain.ProvAdjudicated,
		domain.ProvUnresolved},
}

// goldTexts is the number of texts exportGoldColumns packs.
const goldTexts = 5

// scanSentences returns the scanner of the sentences query's rows. Equal
// error-type lists (a few kinds recur on most gold) are decoded once and
// shared, clipped so that appending to one copies it.
func scanSentences() func(rows *sql.Rows, row *sentenceRow) error {
	types := map[string][]string{}
	typesOf := func(s string) []string {
		et, ok := types[s]
		if !ok {
			et = slices.Clip(domain.NonNil(decodeTypes(s)))
			types[strings.Clone(s)] = et
		}
		return et
	}
	noTypes := typesOf("[]")
	var code, by sql.NullInt64
	var at, packed sql.NullString
	var texts [goldTexts]string
	return func(rows *sql.Rows, row *sentenceRow) error {
		row.sent = domain.ExportSentence{}
		sent := &row.sent
		if err := rows.Scan(&row.summary, &sent.ID, &sent.Index, &sent.SourceIndex, &sent.Text, (*orEmpty)(&sent.Translation),
			&code, &by, &at, &packed); err != nil {
			return err
		}
		if !code.Valid {
			return nil
		}
		label, prov := int(code.Int64&7), int(code.Int64>>3&7)
		if label >= len(goldCodes.labels) || prov >= len(goldCodes.provenances) {
			return fmt.Errorf("gold of sentence %d: label or provenance not one of the known", sent.ID)
		}
		g := &domain.ExportGold{GoldValues: domain.GoldValues{Label: goldCodes.labels[label]},
			Provenance: goldCodes.provenances[prov], DecidedByID: by.Int64, DecidedAt: at.String}
		switch code.Int64 >> 6 {
		case 0:
		case 1:
			g.Ambiguous = new(bool)
		default:
			g.Ambiguous = new(bool)
			*g.Ambiguous = true
		}
		if !packed.Valid {
			g.ErrorTypes = noTypes
		} else {
			if err := unpackText(packed.String, texts[:]); err != nil {
				return fmt.Errorf("gold of sentence %d: %w", sent.ID, err)
			}
			g.ErrorTypes, g.Explanation, g.AmbiguityType, g.AmbiguityNote, g.Note = typesOf(texts[0]), texts[1], texts[2], texts[3], texts[4]
		}
		sent.Gold = g
		return nil
	}
}

// countGold adds a sentence with gold g (nil for none) to the counts of s.
func countGold(s *domain.ExportSummary, g *domain.ExportGold) {
	s.Sentences++
	if g == nil {
		return
	}
	if g.Provenance != domain.ProvUnresolved {
		if g.Label != "" {
			s.GoldSentences++
		}
		switch g.Label {
		case domain.LabelFaithful:
			s.FaithfulSentences++
		case domain.LabelUnfaithful:
			s.UnfaithfulSentences++
		}
	}
	s.ProvenanceRank = max(s.ProvenanceRank, domain.ProvRank[g.Provenance])
}

// align sets the gold alignment of s from the votes of its s.Alignments
// submitted assignments for each (key fact, sentence) link: a link is in
// it when a strict majority made it.
func align(s *domain.ExportSummary, votes map[link]int) {
	keyFacts, sentences := map[int64]bool{}, map[int64]bool{}
	for l, n := range votes {
		if n*2 > s.Alignments {
			keyFacts[l.keyFact], sentences[l.sentence] = true, true
		}
	}
	s.CoveredKeyFacts, s.CoveringSentences = len(keyFacts), len(sentences)
}
