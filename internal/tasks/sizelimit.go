package tasks

import (
	"context"
	"fmt"

	"annotate/internal/domain"
)

// LimitSize caps the database at about maxBytes: a write that would grow
// the file past it fails as it would on a full disk (an EUnavailable
// error), and nothing of it is written. Reads go on. A limit below the
// current size only stops growth. maxBytes 0 lifts the limit.
func (s *Store) LimitSize(ctx context.Context, maxBytes int64) error {
	var pageSize int64
	if err := s.write.QueryRowContext(ctx, "PRAGMA page_size").Scan(&pageSize); err != nil {
		return domain.Op("Store.LimitSize", err)
	}
	pages := int64(1<<31 - 2) // SQLite's own ceiling
	if maxBytes > 0 {
		pages = max(1, maxBytes/pageSize)
	}
	var got int64
	if err := s.write.QueryRowContext(ctx, fmt.Sprintf("PRAGMA max_page_count = %d", pages)).Scan(&got); err != nil {
		return domain.Op("Store.LimitSize", err)
	}
	return nil
}

// Size returns the database's size in bytes as SQLite counts it (pages
// times page size), without the write-ahead log.
func (s *Store) Size(ctx context.Context) (int64, error) {
	var pages, pageSize int64
	if err := s.reader(ctx).QueryRowContext(ctx, "PRAGMA page_count").Scan(&pages); err != nil {
		return 0, domain.Op("Store.Size", err)
	}
	if err := s.reader(ctx).QueryRowContext(ctx, "PRAGMA page_size").Scan(&pageSize); err != nil {
		return 0, domain.Op("Store.Size", err)
	}
	return pages * pageSize, nil
}
