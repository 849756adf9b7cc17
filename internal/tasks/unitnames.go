package tasks

import (
	"context"
	"strconv"
)

// UnitNames names a project's summaries and sentences by what the imported
// files called them, so that rows written for other tools join back to the
// source. A name is a JSON array, unambiguous whatever characters the ids
// hold: ["DOCUMENT","SUMMARY"] for a summary (the external ids) and
// ["DOCUMENT","SUMMARY",N] for a sentence, N its number as exports give it
// (the source's own sentence number where the import kept one, else 1,
// 2, ...). A key fact is named ["TOPIC",N] within its document (its topic,
// "" for none, and its number in the topic's list, from 1).
type UnitNames struct {
	Summaries map[int64]string
	Sentences map[int64]string
	KeyFacts  map[int64]string
}

// ProjectUnitNames reads the names of every summary and sentence of a
// project.
func (s *Store) ProjectUnitNames(ctx context.Context, projectID int64) (*UnitNames, error) {
	n := &UnitNames{Summaries: map[int64]string{}, Sentences: map[int64]string{}, KeyFacts: map[int64]string{}}
	rows, err := s.reader(ctx).QueryContext(ctx, `
		SELECT s.id, json_array(d.external_id, s.external_id) FROM summaries s JOIN documents d ON d.id = s.document_id
		WHERE s.project_id = ?`, projectID)
	if err != nil {
		return nil, Op("Store.ProjectUnitNames", err)
	}
	for rows.Next() {
		var id int64
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			rows.Close()
			return nil, Op("Store.ProjectUnitNames", err)
		}
		n.Summaries[id] = name
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, Op("Store.ProjectUnitNames", err)
	}
	rows, err = s.reader(ctx).QueryContext(ctx, `
		SELECT k.id, json_array(k.topic, k.idx) FROM key_facts k JOIN documents d ON d.id = k.document_id
		WHERE d.project_id = ?`, projectID)
	if err != nil {
		return nil, Op("Store.ProjectUnitNames", err)
	}
	for rows.Next() {
		var id int64
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			rows.Close()
			return nil, Op("Store.ProjectUnitNames", err)
		}
		n.KeyFacts[id] = name
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, Op("Store.ProjectUnitNames", err)
	}
	rows, err = s.reader(ctx).QueryContext(ctx, `
		SELECT ss.id, ss.summary_id, coalesce(ss.source_index, ss.idx) FROM summary_sentences ss
		JOIN summaries s ON s.id = ss.summary_id WHERE s.project_id = ?`, projectID)
	if err != nil {
		return nil, Op("Store.ProjectUnitNames", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, summary int64
		var num int
		if err := rows.Scan(&id, &summary, &num); err != nil {
			return nil, Op("Store.ProjectUnitNames", err)
		}
		sum := n.Summaries[summary]
		n.Sentences[id] = sum[:len(sum)-1] + "," + strconv.Itoa(num) + "]"
	}
	return n, Op("Store.ProjectUnitNames", rows.Err())
}

// Sentence returns a sentence's name; false when n is nil or lacks it.
func (n *UnitNames) Sentence(id int64) (string, bool) {
	if n == nil {
		return "", false
	}
	s, ok := n.Sentences[id]
	return s, ok
}

// Summary returns a summary's name; false when n is nil or lacks it.
func (n *UnitNames) Summary(id int64) (string, bool) {
	if n == nil {
		return "", false
	}
	s, ok := n.Summaries[id]
	return s, ok
}

// SentenceKeyFact names the alignment of a key fact with a sentence: the
// sentence's name with the key fact's appended, as in
// ["DOCUMENT","SUMMARY",N,["TOPIC",K]]; false when n lacks either.
func (n *UnitNames) SentenceKeyFact(sentence, keyFact int64) (string, bool) {
	name, ok := n.Sentence(sentence)
	return n.withKeyFact(name, ok, keyFact)
}

// SummaryKeyFact names the alignment of a key fact with a summary, as in
// ["DOCUMENT","SUMMARY",["TOPIC",K]]; false when n lacks either.
func (n *UnitNames) SummaryKeyFact(summary, keyFact int64) (string, bool) {
	name, ok := n.Summary(summary)
	return n.withKeyFact(name, ok, keyFact)
}

func (n *UnitNames) withKeyFact(name string, ok bool, keyFact int64) (string, bool) {
	if !ok {
		return "", false
	}
	k, found := n.KeyFacts[keyFact]
	if !found {
		return "", false
	}
	return name[:len(name)-1] + "," + k + "]", true
}
