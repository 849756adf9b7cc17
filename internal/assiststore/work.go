package assiststore

import (
	"context"
	"regexp"
	"strconv"
	"strings"

	"annotate/internal/domain"
)

// AssistWork is everything a run of the assistant needs from a project: the
// project's error taxonomy and numbered guidelines, and every summary
// sentence with the document and summary it is judged against.
type AssistWork struct {
	ErrorTypes []domain.TaxonomyType
	// Guidelines are the numbered items of the project's guidelines; nil
	// when the guidelines have no numbered list, so that the engine uses
	// its defaults.
	Guidelines []string
	Sentences  []AssistSentence
}

// AssistSentence is one summary sentence to judge. Sentences of the same
// document share Units and KeyFacts, and those of the same summary share
// Summary; nothing may modify them.
type AssistSentence struct {
	SentenceID int64
	// DocumentID and SummaryID are external ids; Index is 1-based.
	DocumentID string
	SummaryID  string
	Index      int
	Units      []domain.Unit
	// Summary holds the texts of all sentences of the summary.
	Summary  []string
	Topic    string
	KeyFacts []domain.KeyFact
}

// Key identifies the sentence across databases by external ids:
// "document/summary/index". The engine derives the sentence's random seed
// from it, so a rerun asks exactly the same questions.
func (a AssistSentence) Key() string {
	return a.DocumentID + "/" + a.SummaryID + "/" + strconv.Itoa(a.Index)
}

// AssistWork loads a project's sentences for a run, in document, summary
// and sentence order.
func (s *Store) AssistWork(ctx context.Context, projectID int64) (*AssistWork, error) {
	p, err := s.tasks.ProjectByID(ctx, projectID)
	if err != nil {
		return nil, domain.Op("Store.AssistWork", err)
	}
	w := &AssistWork{ErrorTypes: p.Settings.ErrorTaxonomy(), Guidelines: NumberedItems(p.Guidelines)}
	units, err := s.projectUnits(ctx, projectID)
	if err != nil {
		return nil, domain.Op("Store.AssistWork", err)
	}
	facts, err := s.projectKeyFacts(ctx, projectID)
	if err != nil {
		return nil, domain.Op("Store.AssistWork", err)
	}
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, `
		SELECT sm.id, sm.document_id, d.external_id, sm.external_id, sm.topic, ss.id, ss.idx, ss.text
		FROM summaries sm
		JOIN documents d ON d.id = sm.document_id
		JOIN summary_sentences ss ON ss.summary_id = sm.id
		WHERE sm.project_id = ?
		ORDER BY d.id, sm.id, ss.idx`, projectID)
	if err != nil {
		return nil, domain.Op("Store.AssistWork", err)
	}
	defer rows.Close()
	var (
		curSummary int64 = -1
		first      int   // index in w.Sentences of the current summary's first sentence
		texts      []string
	)
	// closeSummary gives the sentences of the summary just read the full
	// list of its texts.
	closeSummary := func() {
		for i := first; i < len(w.Sentences); i++ {
			w.Sentences[i].Summary = texts
		}
	}
	for rows.Next() {
		var sumID, docID int64
		var x AssistSentence
		var text string
		if err := rows.Scan(&sumID, &docID, &x.DocumentID, &x.SummaryID, &x.Topic, &x.SentenceID, &x.Index, &text); err != nil {
			return nil, domain.Op("Store.AssistWork", err)
		}
		if sumID != curSummary {
			closeSummary()
			curSummary, first, texts = sumID, len(w.Sentences), nil
		}
		texts = append(texts, text)
		x.Units = units[docID]
		x.KeyFacts = factsFor(facts[docID], x.Topic)
		w.Sentences = append(w.Sentences, x)
	}
	closeSummary()
	return w, domain.Op("Store.AssistWork", rows.Err())
}

// projectUnits returns the units of every document of a project by
// document id.
func (s *Store) projectUnits(ctx context.Context, projectID int64) (map[int64][]domain.Unit, error) {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, `
		SELECT u.document_id, u.id, u.idx, u.speaker, u.text
		FROM document_units u JOIN documents d ON d.id = u.document_id
		WHERE d.project_id = ? ORDER BY u.document_id, u.idx`, projectID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64][]domain.Unit{}
	for rows.Next() {
		var doc int64
		var u domain.Unit
		if err := rows.Scan(&doc, &u.ID, &u.Index, &u.Speaker, &u.Text); err != nil {
			return nil, err
		}
		out[doc] = append(out[doc], u)
	}
	return out, rows.Err()
}

// projectKeyFacts returns the key facts of every document of a project by
// document id, in the order Store.KeyFacts uses.
func (s *Store) projectKeyFacts(ctx context.Context, projectID int64) (map[int64][]domain.KeyFact, error) {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, `
		SELECT k.document_id, k.id, k.idx, k.topic, k.text, k.category
		FROM key_facts k JOIN documents d ON d.id = k.document_id
		WHERE d.project_id = ? ORDER BY k.document_id, k.category, k.topic, k.idx`, projectID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64][]domain.KeyFact{}
	for rows.Next() {
		var doc int64
		var k domain.KeyFact
		if err := rows.Scan(&doc, &k.ID, &k.Index, &k.Topic, &k.Text, &k.Category); err != nil {
			return nil, err
		}
		out[doc] = append(out[doc], k)
	}
	return out, rows.Err()
}

// factsFor keeps the facts of a topic and those that have none.
func factsFor(all []domain.KeyFact, topic string) []domain.KeyFact {
	var out []domain.KeyFact
	for _, k := range all {
		if k.Topic == topic || k.Topic == "" {
			out = append(out, k)
		}
	}
	return out
}

var (
	numberedItem = regexp.MustCompile(`^ {0,3}\d{1,3}[.)][ \t]+(.*)$`)
	blockStart   = regexp.MustCompile(`^ {0,3}(#|[-*+][ \t]|>|` + "```" + `)`)
)

// NumberedItems returns the items of the numbered lists of a Markdown text,
// in order, each joined onto one line; nil when it has none. A guideline
// list is written as "1. …", "2. …" and agents cite guidelines by number,
// so only numbered items count.
func NumberedItems(markdown string) []string {
	var out []string
	open := false
	for _, line := range strings.Split(strings.ReplaceAll(markdown, "\r\n", "\n"), "\n") {
		if m := numberedItem.FindStringSubmatch(line); m != nil {
			out = append(out, strings.TrimSpace(m[1]))
			open = true
			continue
		}
		text := strings.TrimSpace(line)
		if text == "" || blockStart.MatchString(line) {
			open = false
			continue
		}
		if open {
			out[len(out)-1] = strings.TrimSpace(out[len(out)-1] + " " + text)
		}
	}
	return out
}
