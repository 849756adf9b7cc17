// Command annotate is a web application for human evaluation of LLM
// summaries: linguists label every summary sentence as faithful or not,
// with an Advocate/Skeptic debate beside it, and leads measure agreement,
// adjudicate and export gold sets.
//
// Run "annotate help" for the subcommands.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	if err != nil {
		if !errors.Is(err, errUsage) {
			fmt.Fprintln(os.Stderr, "annotate:", err)
		}
		os.Exit(exitCode(err))
	}
}
