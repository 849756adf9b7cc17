package tasks

import (
	"context"
	"database/sql"
	"database/sql/driver"

	"annotate/internal/domain"
)

// bulkTx runs fn in a write transaction as tx does, with the writer's
// temporary storage in memory for its duration (PRAGMA temp_store). An
// import writes hundreds of thousands of rows, most of them by statements
// that SQLite must be able to undo alone (several rows, or triggers, and
// foreign keys), so each keeps a statement journal of the pages it
// changes; once one statement's journal outgrows 64 KiB it becomes a
// temporary file for the rest of the transaction, and every later
// statement then writes its pages to that file, one system call each. In
// memory, a statement journal holds the pages of one statement only.
// Afterwards the setting is back to the default, so that the writer's
// large sorts and temporary tables still go to files.
func (s *Store) bulkTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	return s.bulkTxKeys(ctx, true, fn)
}

// bulkTxKeys is bulkTx; with checkKeys false, SQLite does not check the
// foreign keys of what fn writes, nor cascade its deletes. That is for a
// transaction that deletes nothing and writes only rows whose parents it
// made itself or read in the same transaction (an import that makes its
// project: see ImportStream), where a check can only find what the
// writing already knows. The checks are on again for the connection's
// next transaction; a connection that cannot have them back is closed.
func (s *Store) bulkTxKeys(ctx context.Context, checkKeys bool, fn func(tx *sql.Tx) error) error {
	err := s.bulkTxOn(ctx, checkKeys, fn)
	// The statements other transactions ran unprepared (see cachedTx) are
	// prepared once the writer's one connection is back in the pool:
	// preparing waits for a connection, and while bulkTxOn holds it, it
	// would wait for itself until ctx ends (for ever, for an import that
	// outlives its request), and every write of the server with it.
	s.writeStmts.prepareWanted(ctx)
	return err
}

// bulkTxOn is bulkTxKeys on a connection it holds until it returns.
func (s *Store) bulkTxOn(ctx context.Context, checkKeys bool, fn func(tx *sql.Tx) error) error {
	conn, err := s.write.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA temp_store = MEMORY"); err != nil {
		return err
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA temp_store = DEFAULT") // a failure leaves it in memory until the connection closes
	if !checkKeys {
		// The pragma cannot change inside a transaction: it is set on the
		// connection before the transaction begins, and set back after it
		// ends (deferred calls run last first).
		if _, err := conn.ExecContext(ctx, "PRAGMA foreign_keys = OFF"); err != nil {
			return err
		}
		defer func() {
			if _, err := conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA foreign_keys = ON"); err != nil {
				conn.Raw(func(any) error { return driver.ErrBadConn }) // closes it: no later write goes unchecked
			}
		}()
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return txErr(ctx, err)
	}
	return txErr(ctx, tx.Commit())
}

// BulkWriteTx is WriteTx for a transaction that writes many rows, such as
// an import: see bulkTx.
func (s *Store) BulkWriteTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	return domain.Op("Store.BulkWriteTx", s.bulkTx(ctx, fn))
}
