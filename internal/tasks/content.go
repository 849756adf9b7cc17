package tasks

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"

	"annotate/internal/domain"
)

// Document returns a document with its units.
func (s *Store) Document(ctx context.Context, id int64) (*domain.Document, error) {
	var d domain.Document
	err := s.queryRow(ctx, `SELECT id, project_id, external_id, kind, language, domain, title FROM documents WHERE id = ?`, id).
		Scan(&d.ID, &d.ProjectID, &d.ExternalID, &d.Kind, &d.Language, &d.Domain, &d.Title)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, domain.Errorf(domain.ENotFound, "document not found")
	}
	if err != nil {
		return nil, domain.Op("Store.Document", err)
	}
	rows, err := s.query(ctx, `SELECT id, idx, speaker, text FROM document_units WHERE document_id = ? ORDER BY idx`, id)
	if err != nil {
		return nil, domain.Op("Store.Document", err)
	}
	defer rows.Close()
	for rows.Next() {
		var u domain.Unit
		if err := rows.Scan(&u.ID, &u.Index, &u.Speaker, &u.Text); err != nil {
			return nil, domain.Op("Store.Document", err)
		}
		d.Units = append(d.Units, u)
	}
	return &d, domain.Op("Store.Document", rows.Err())
}

// Summary returns a summary with its sentences.
func (s *Store) Summary(ctx context.Context, id int64) (*domain.Summary, error) {
	var m domain.Summary
	var edits string
	err := s.queryRow(ctx, `SELECT id, project_id, document_id, external_id, topic, model, language, original, edit_types FROM summaries WHERE id = ?`, id).
		Scan(&m.ID, &m.ProjectID, &m.DocumentID, &m.ExternalID, &m.Topic, &m.Model, &m.Language, &m.Original, &edits)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, domain.Errorf(domain.ENotFound, "summary not found")
	}
	if err != nil {
		return nil, domain.Op("Store.Summary", err)
	}
	if err := json.Unmarshal([]byte(edits), &m.EditTypes); err != nil {
		return nil, domain.Op("Store.Summary", err)
	}
	rows, err := s.query(ctx, `SELECT id, idx, text, translation FROM summary_sentences WHERE summary_id = ? ORDER BY idx`, id)
	if err != nil {
		return nil, domain.Op("Store.Summary", err)
	}
	defer rows.Close()
	for rows.Next() {
		var x domain.Sentence
		if err := rows.Scan(&x.ID, &x.Index, &x.Text, &x.Translation); err != nil {
			return nil, domain.Op("Store.Summary", err)
		}
		m.Sentences = append(m.Sentences, x)
	}
	return &m, domain.Op("Store.Summary", rows.Err())
}

// KeyFacts returns a document's key facts for a topic (the facts with no
// topic are included for every topic).
func (s *Store) KeyFacts(ctx context.Context, documentID int64, topic string) ([]domain.KeyFact, error) {
	rows, err := s.query(ctx, `SELECT id, idx, topic, text, category FROM key_facts WHERE document_id = ? AND (topic = ? OR topic = '') ORDER BY category, topic, idx`, documentID, topic)
	if err != nil {
		return nil, domain.Op("Store.KeyFacts", err)
	}
	defer rows.Close()
	var out []domain.KeyFact
	for rows.Next() {
		var k domain.KeyFact
		if err := rows.Scan(&k.ID, &k.Index, &k.Topic, &k.Text, &k.Category); err != nil {
			return nil, domain.Op("Store.KeyFacts", err)
		}
		out = append(out, k)
	}
	return out, domain.Op("Store.KeyFacts", rows.Err())
}
