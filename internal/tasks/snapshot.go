package tasks

import (
	"context"
	"database/sql"

	"annotate/internal/domain"
)

// snapshotKey marks a context that carries a read transaction of a store.
type snapshotKey struct{}

type snapshot struct {
	store *Store
	tx    *sql.Tx
}

// Snapshot runs fn with a context whose reads, through this store, all
// come from one read transaction: one consistent state of the database,
// however many queries a page makes and whatever is written meanwhile (a
// decision landing between two reads cannot give a page old gold with a
// new version). Writes made inside fn go to the writer as usual and are
// not seen by its reads. The transaction ends when fn returns.
func (s *Store) Snapshot(ctx context.Context, fn func(ctx context.Context) error) error {
	if sn, ok := ctx.Value(snapshotKey{}).(*snapshot); ok && sn.store == s {
		return domain.Op("Store.Snapshot", fn(ctx)) // already inside one
	}
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return domain.Op("Store.Snapshot", err)
	}
	defer tx.Rollback() // also when fn panics
	err = fn(context.WithValue(ctx, snapshotKey{}, &snapshot{store: s, tx: tx}))
	tx.Rollback()
	s.readStmts.prepareWanted(ctx)
	return domain.Op("Store.Snapshot", err)
}

// snapshotTx returns the read transaction ctx carries for this store, or
// nil.
func (s *Store) snapshotTx(ctx context.Context) *sql.Tx {
	if sn, ok := ctx.Value(snapshotKey{}).(*snapshot); ok && sn.store == s {
		return sn.tx
	}
	return nil
}

// reader is what a read method queries: the snapshot's transaction when
// ctx carries one (see Snapshot), else the read pool.
func (s *Store) reader(ctx context.Context) querier {
	if tx := s.snapshotTx(ctx); tx != nil {
		return tx
	}
	return s.read
}
