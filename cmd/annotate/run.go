package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"

	"annotate/internal/tasks"
)

// errUsage marks an error whose message was already printed with usage.
var errUsage = errors.New("usage")

func exitCode(err error) int {
	if errors.Is(err, errUsage) {
		return 2
	}
	return 1
}

// env is the program's view of its environment, so tests can pass a map.
type env struct {
	getenv func(string) string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

// command is one subcommand.
type command struct {
	summary string
	run     func(ctx context.Context, e env, args []string) error
}

var commands map[string]command

func init() {
	commands = map[string]command{
		"serve":     {"run the web server", runServe},
		"demo":      {"create the demo project and its accounts (idempotent)", runDemo},
		"import":    {"import documents and summaries into a project", runImport},
		"user":      {"manage accounts: add, list, set-password, disable, enable, member, token", runUser},
		"version":   {"print the version", runVersion},
		"agreement": {"compute inter-annotator agreement for a ratings file", runAgreement},
		"assign":    {"start a calibration or production round and deal out its assignments", runAssign},
		"assist":    {"run the assistant over a project, export, import and judge its runs", runAssist},
		"export":    {"export gold labels, raw labels, TofuEval CSV or scores of a project", runExport},
		"backup":    {"write a consistent copy of a live database", runBackup},
		"keys":      {"rotate the server's secret keys, ending every session", runKeys},
		"project":   {"show or change a project's error-type taxonomy", runProject},
		"study":     {"create and show crowd studies", runStudy},
	}
}

// run is the whole program behind main: it parses args and runs a
// subcommand. Tests call it directly.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	e := env{getenv: getenv, stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				return c.run(ctx, e, []string{"-h"})
			}
		}
		printHelp(stdout)
		if len(args) == 0 {
			return errUsage
		}
		return nil
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "annotate: unknown command %q\n\n", args[0])
		printHelp(stderr)
		return errUsage
	}
	return c.run(ctx, e, args[1:])
}

func printHelp(w io.Writer) {
	fmt.Fprint(w, `annotate: human evaluation of LLM summaries, sentence by sentence.

Usage: annotate COMMAND [flags]

Commands:
`)
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprint(w, `
Run "annotate COMMAND -h" for a command's flags.
Every command takes --db PATH (default ./annotate.db, env ANNOTATE_DB).
serve, demo, import, user and project create it when it does not exist;
the others refuse a path where no database is.
`)
}

// newFlags makes a flag set whose -h prints the usage to stdout and whose
// errors go to stderr.
func newFlags(e env, name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: annotate %s\n\n", usage)
		fs.PrintDefaults()
	}
	return fs
}

// parse runs fs.Parse, printing help to stdout for -h.
func parse(e env, fs *flag.FlagSet, args []string) error {
	for _, a := range args {
		if a == "-h" || a == "--help" || a == "-help" {
			fs.SetOutput(e.stdout)
			fs.Usage()
			return flag.ErrHelp
		}
	}
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	return nil
}

// parseAnywhere parses flags given before, between or after positional
// arguments (annotate user member ann1 --project demo) and returns the
// positional ones; everything after "--" is positional.
func parseAnywhere(e env, fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := parse(e, fs, args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > 0 && len(rest) < len(args) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// dbFlag adds --db with its environment default.
func dbFlag(e env, fs *flag.FlagSet) *string {
	def := e.getenv("ANNOTATE_DB")
	if def == "" {
		def = "annotate.db"
	}
	return fs.String("db", def, "SQLite database file (env ANNOTATE_DB)")
}

// openExisting opens the database at path for a command that works on
// what it already holds: a path where no database exists is an error,
// and no empty file is left behind.
func openExisting(ctx context.Context, e env, path string) (*tasks.Store, error) {
	store, err := tasks.Open(ctx, path, tasks.Existing(), migrationNotice(e, path))
	if errors.Is(err, tasks.ErrNoDatabase) {
		return nil, fmt.Errorf("database %s does not exist (check --db or ANNOTATE_DB; \"annotate serve\", \"annotate demo\" and \"annotate import --create\" make one)", path)
	}
	return store, err
}

// migrationNotice says on standard error, before the schema of a database
// an older build made is brought up to date, that this happens and may
// take a while: the first open after an upgrade can remake large tables.
func migrationNotice(e env, path string) tasks.OpenOption {
	return tasks.WithMigrationNotice(func(from, to int) {
		fmt.Fprintf(e.stderr, "annotate: bringing %s from schema %d to %d, once; on a large database this takes a while\n", path, from, to)
	})
}

// helpOK turns flag.ErrHelp into success.
func helpOK(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	return err
}
