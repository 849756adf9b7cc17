package main

import (
	"context"
	"fmt"
	"runtime"

	"annotate/internal/tasks"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func runVersion(ctx context.Context, e env, args []string) error {
	fs := newFlags(e, "version", "version")
	if err := parse(e, fs, args); err != nil {
		return helpOK(err)
	}
	fmt.Fprintf(e.stdout, "annotate %s (schema %d, %s)\n", version, tasks.CurrentSchemaVersion(), runtime.Version())
	return nil
}
