package tasks

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
)

// Unit is one numbered unit of a document: a sentence or a dialogue turn.
type Unit struct {
	ID      int64
	Index   int // 1-based, as cited
	Speaker string
	Text    string
}

// Document is a source document with its units.
type Document struct {
	ID         int64
	ProjectID  int64
	ExternalID string
	Kind       string
	Language   string
	Domain     string
	Title      string
	Units      []Unit
}

// Sentence is one summary sentence: an annotation unit.
type Sentence struct {
	ID          int64
	Index       int // 1-based
	Text        string
	Translation string
}

// Summary is a summary with its sentences. Model must never reach an
// annotator's page.
type Summary struct {
	ID         int64
	ProjectID  int64
	DocumentID int64
	ExternalID string
	Topic      string
	Model      string
	Language   string
	Original   string
	EditTypes  []string
	Sentences  []Sentence
}

// KeyFact is one key fact of a document (and topic).
type KeyFact struct {
	ID       int64
	Index    int
	Topic    string
	Text     string
	Category string
}

// Document returns a document with its units.
func (s *Store) Document(ctx context.Context, id int64) (*Document, error) {
	var d Document
	err := s.queryRow(ctx, `SELECT id, project_id, external_id, kind, language, domain, title FROM documents WHERE id = ?`, id).
		Scan(&d.ID, &d.ProjectID, &d.ExternalID, &d.Kind, &d.Language, &d.Domain, &d.Title)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, Errorf(ENotFound, "document not found")
	}
	if err != nil {
		return nil, Op("Store.Document", err)
	}
	rows, err := s.query(ctx, `SELECT id, idx, speaker, text FROM document_units WHERE document_id = ? ORDER BY idx`, id)
	if err != nil {
		return nil, Op("Store.Document", err)
	}
	defer rows.Close()
	for rows.Next() {
		var u Unit
		if err := rows.Scan(&u.ID, &u.Index, &u.Speaker, &u.Text); err != nil {
			return nil, Op("Store.Document", err)
		}
		d.Units = append(d.Units, u)
	}
	return &d, Op("Store.Document", rows.Err())
}

// Summary returns a summary with its sentences.
func (s *Store) Summary(ctx context.Context, id int64) (*Summary, error) {
	var m Summary
	var edits string
	err := s.queryRow(ctx, `SELECT id, project_id, document_id, external_id, topic, model, language, original, edit_types FROM summaries WHERE id = ?`, id).
		Scan(&m.ID, &m.ProjectID, &m.DocumentID, &m.ExternalID, &m.Topic, &m.Model, &m.Language, &m.Original, &edits)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, Errorf(ENotFound, "summary not found")
	}
	if err != nil {
		return nil, Op("Store.Summary", err)
	}
	if err := json.Unmarshal([]byte(edits), &m.EditTypes); err != nil {
		return nil, Op("Store.Summary", err)
	}
	rows, err := s.query(ctx, `SELECT id, idx, text, translation FROM summary_sentences WHERE summary_id = ? ORDER BY idx`, id)
	if err != nil {
		return nil, Op("Store.Summary", err)
	}
	defer rows.Close()
	for rows.Next() {
		var x Sentence
		if err := rows.Scan(&x.ID, &x.Index, &x.Text, &x.Translation); err != nil {
			return nil, Op("Store.Summary", err)
		}
		m.Sentences = append(m.Sentences, x)
	}
	return &m, Op("Store.Summary", rows.Err())
}

// KeyFacts returns a document's key facts for a topic (the facts with no
// topic are included for every topic).
func (s *Store) KeyFacts(ctx context.Context, documentID int64, topic string) ([]KeyFact, error) {
	rows, err := s.query(ctx, `SELECT id, idx, topic, text, category FROM key_facts WHERE document_id = ? AND (topic = ? OR topic = '') ORDER BY category, topic, idx`, documentID, topic)
	if err != nil {
		return nil, Op("Store.KeyFacts", err)
	}
	defer rows.Close()
	var out []KeyFact
	for rows.Next() {
		var k KeyFact
		if err := rows.Scan(&k.ID, &k.Index, &k.Topic, &k.Text, &k.Category); err != nil {
			return nil, Op("Store.KeyFacts", err)
		}
		out = append(out, k)
	}
	return out, Op("Store.KeyFacts", rows.Err())
}
