package tasks

import (
	"context"
	"strconv"

	"annotate/internal/domain"
)

// ProjectUnitNames reads the names of every summary and sentence of a
// project.
func (s *Store) ProjectUnitNames(ctx context.Context, projectID int64) (*domain.UnitNames, error) {
	n := &domain.UnitNames{Summaries: map[int64]string{}, Sentences: map[int64]string{}, KeyFacts: map[int64]string{}}
	rows, err := s.reader(ctx).QueryContext(ctx, `
		SELECT s.id, json_array(d.external_id, s.external_id) FROM summaries s JOIN documents d ON d.id = s.document_id
		WHERE s.project_id = ?`, projectID)
	if err != nil {
		return nil, domain.Op("Store.ProjectUnitNames", err)
	}
	for rows.Next() {
		var id int64
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			rows.Close()
			return nil, domain.Op("Store.ProjectUnitNames", err)
		}
		n.Summaries[id] = name
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, domain.Op("Store.ProjectUnitNames", err)
	}
	rows, err = s.reader(ctx).QueryContext(ctx, `
		SELECT k.id, json_array(k.topic, k.idx) FROM key_facts k JOIN documents d ON d.id = k.document_id
		WHERE d.project_id = ?`, projectID)
	if err != nil {
		return nil, domain.Op("Store.ProjectUnitNames", err)
	}
	for rows.Next() {
		var id int64
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			rows.Close()
			return nil, domain.Op("Store.ProjectUnitNames", err)
		}
		n.KeyFacts[id] = name
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, domain.Op("Store.ProjectUnitNames", err)
	}
	rows, err = s.reader(ctx).QueryContext(ctx, `
		SELECT ss.id, ss.summary_id, coalesce(ss.source_index, ss.idx) FROM summary_sentences ss
		JOIN summaries s ON s.id = ss.summary_id WHERE s.project_id = ?`, projectID)
	if err != nil {
		return nil, domain.Op("Store.ProjectUnitNames", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, summary int64
		var num int
		if err := rows.Scan(&id, &summary, &num); err != nil {
			return nil, domain.Op("Store.ProjectUnitNames", err)
		}
		sum := n.Summaries[summary]
		n.Sentences[id] = sum[:len(sum)-1] + "," + strconv.Itoa(num) + "]"
	}
	return n, domain.Op("Store.ProjectUnitNames", rows.Err())
}
