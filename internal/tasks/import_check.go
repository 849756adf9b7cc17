package tasks

import (
	"context"
	"database/sql"
	"errors"
)

// errCheckOnly rolls back the transaction of a checking import.
var errCheckOnly = errors.New("check only")

// CheckImport runs Import and rolls it back: the counts are what Import
// would add now, and an error is what it would refuse. Nothing is written.
func (s *Store) CheckImport(ctx context.Context, projectID int64, docs []DocumentInput) (ImportStats, error) {
	var st ImportStats
	err := s.tx(ctx, func(tx *sql.Tx) error {
		im := importer{ctx: ctx, tx: tx, project: projectID, stats: &st}
		for i := range docs {
			if err := im.document(&docs[i]); err != nil {
				return err
			}
		}
		return errCheckOnly
	})
	if !errors.Is(err, errCheckOnly) {
		return ImportStats{}, err
	}
	return st, nil
}
