package main

import (
	"context"
	"fmt"
)

const keysUsage = `keys rotate [--db PATH]

Replaces the server's secret keys with new random ones and ends every
session: everyone logs in again. Restart a running server afterwards so it
reads the new keys.`

func runKeys(ctx context.Context, e env, args []string) error {
	fs := newFlags(e, "keys", keysUsage)
	db := dbFlag(e, fs)
	pos, err := parseAnywhere(e, fs, args)
	if err != nil {
		return helpOK(err)
	}
	if len(pos) != 1 || pos[0] != "rotate" {
		fmt.Fprintf(e.stderr, "Usage: annotate %s\n", keysUsage)
		return errUsage
	}
	store, err := openExisting(ctx, e, *db)
	if err != nil {
		return err
	}
	defer store.Close()
	n, err := store.RotateSessionKeys(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "keys rotated; %d sessions ended\n", n)
	return nil
}
