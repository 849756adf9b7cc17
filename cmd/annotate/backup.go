package main

import (
	"context"
	"fmt"
)

const backupUsage = `backup --db PATH --out FILE

Writes a consistent copy of the database, safe while the server runs, to
FILE (which must not exist), readable by its owner only. To restore, stop
the server and put the copy in place of the database file (removing any
-wal and -shm files beside it).`

func runBackup(ctx context.Context, e env, args []string) error {
	fs := newFlags(e, "backup", backupUsage)
	db := dbFlag(e, fs)
	out := fs.String("out", "", "the backup file to write")
	if _, err := parseAnywhere(e, fs, args); err != nil {
		return helpOK(err)
	}
	if *out == "" {
		fmt.Fprintf(e.stderr, "annotate backup: --out is required\n\nUsage: annotate %s\n", backupUsage)
		return errUsage
	}
	store, err := openExisting(ctx, e, *db)
	if err != nil {
		return err
	}
	defer store.Close()
	if err := store.Backup(ctx, *out); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "backup of %s written to %s\n", *db, *out)
	return nil
}
