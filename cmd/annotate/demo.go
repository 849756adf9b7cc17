package main

import (
	"context"

	"annotate/internal/app"
	"annotate/internal/tasks"
)

func runDemo(ctx context.Context, e env, args []string) error {
	fs := newFlags(e, "demo", "demo [--db PATH]")
	db := dbFlag(e, fs)
	if err := parse(e, fs, args); err != nil {
		return helpOK(err)
	}
	store, err := tasks.Open(ctx, *db, migrationNotice(e, *db))
	if err != nil {
		return err
	}
	defer store.Close()
	return app.New(store).SetupDemo(ctx, e.stdout, e.stdout)
}
