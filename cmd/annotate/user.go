package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"golang.org/x/term"

	"annotate/internal/authn"
	"annotate/internal/domain"
	"annotate/internal/tasks"
)

const userUsage = `user SUBCOMMAND [flags]

Subcommands:
  add NAME [--admin] [--display "Full Name"]   add an account; the password is read from stdin
  list                                         list accounts
  set-password NAME                            replace a password, read from stdin (ends the account's sessions)
  disable NAME | enable NAME                   stop (ending its sessions) or allow an account's logins
  member NAME --project SLUG --role ROLE       give NAME a role (lead, adjudicator, annotator) in a project
  token NAME [--name LABEL] [--expires DURATION] [--read-only] [--project a,b]
                                               print a new API token for NAME (only its hash is kept);
                                               DURATION is days (30d) or hours (12h), 90d by default

Flags may come before or after the username.
Passwords are never taken from the command line, where other users could read them.`

func runUser(ctx context.Context, e env, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintf(e.stdout, "Usage: annotate %s\n", userUsage)
		if len(args) == 0 {
			return errUsage
		}
		return nil
	}
	sub, rest := args[0], args[1:]
	fs := newFlags(e, "user "+sub, userUsage)
	db := dbFlag(e, fs)
	admin := fs.Bool("admin", false, "with add: make the account an administrator")
	display := fs.String("display", "", "with add: the name shown in pages")
	project := fs.String("project", "", "with member: the project slug")
	role := fs.String("role", "", "with member: lead, adjudicator or annotator")
	tokenName := fs.String("name", "", "with token: what the token is for, shown in the token list (default: cli)")
	expires := fs.String("expires", "", "with token: lifetime, days (30d) or a duration (12h); default 90d")
	readOnly := fs.Bool("read-only", false, "with token: the token can only read")
	pos, err := parseAnywhere(e, fs, rest)
	if err != nil {
		return helpOK(err)
	}
	name := ""
	if len(pos) > 0 {
		name = pos[0]
	}
	if sub != "list" && name == "" {
		fmt.Fprintf(e.stderr, "annotate user %s: a username is required\n", sub)
		return errUsage
	}
	if len(pos) > 1 || sub == "list" && len(pos) > 0 {
		fmt.Fprintf(e.stderr, "annotate user %s: unexpected argument %q\n", sub, pos[len(pos)-1])
		return errUsage
	}
	store, err := tasks.Open(ctx, *db, migrationNotice(e, *db))
	if err != nil {
		return err
	}
	defer store.Close()
	switch sub {
	case "add":
		pw, err := readPassword(e, "Password for "+name+": ")
		if err != nil {
			return err
		}
		u, err := store.CreateUser(ctx, name, *display, pw, *admin)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "added user %s (id %d)\n", u.Username, u.ID)
	case "list":
		users, err := store.Users(ctx)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "USERNAME\tNAME\tADMIN\tDISABLED\tCREATED")
		for _, u := range users {
			fmt.Fprintf(tw, "%s\t%s\t%v\t%v\t%s\n", u.Username, u.DisplayName, u.IsAdmin, u.Disabled, u.CreatedAt)
		}
		return tw.Flush()
	case "set-password":
		pw, err := readPassword(e, "New password for "+name+": ")
		if err != nil {
			return err
		}
		if err := store.SetPassword(ctx, name, pw); err != nil {
			return userErr(name, err)
		}
		fmt.Fprintf(e.stdout, "password of %s changed; its sessions ended\n", name)
	case "disable", "enable":
		if err := store.SetDisabled(ctx, name, sub == "disable"); err != nil {
			return userErr(name, err)
		}
		fmt.Fprintf(e.stdout, "%s %sd\n", name, sub)
	case "member":
		if *project == "" || *role == "" {
			return fmt.Errorf("user member: --project and --role are required")
		}
		p, err := store.ProjectBySlug(ctx, *project)
		if err != nil {
			return fmt.Errorf("project %q: %w", *project, err)
		}
		u, err := store.UserByName(ctx, name)
		if err != nil {
			return userErr(name, err)
		}
		if err := store.SetMember(ctx, p.ID, u.ID, *role); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s is now %s in %s\n", name, *role, p.Slug)
	case "token":
		return newToken(ctx, e, store, name, *tokenName, *expires, *readOnly, *project)
	default:
		fmt.Fprintf(e.stderr, "annotate user: unknown subcommand %q\n\nUsage: annotate %s\n", sub, userUsage)
		return errUsage
	}
	return nil
}

// newToken creates an API token for an account and prints it alone on
// stdout, so a script can capture it; what it allows goes to stderr.
func newToken(ctx context.Context, e env, store *tasks.Store, username, label, expires string, readOnly bool, projects string) error {
	u, err := store.UserByName(ctx, username)
	if err != nil {
		return userErr(username, err)
	}
	ttl, err := authn.ParseTokenTTL(expires)
	if err != nil {
		return err
	}
	if label == "" {
		label = "cli"
	}
	spec := authn.TokenSpec{Name: label, TTL: ttl, ReadOnly: readOnly}
	for _, slug := range splitList(projects) {
		p, err := store.ProjectBySlug(ctx, slug)
		if err != nil {
			return fmt.Errorf("project %q: %w", slug, err)
		}
		spec.Projects = append(spec.Projects, p.ID)
	}
	t, secret, err := authn.New(store).CreateToken(ctx, u.ID, spec)
	if err != nil {
		return err
	}
	scope := "every project of " + u.Username
	if projects != "" {
		scope = "projects " + strings.Join(splitList(projects), ", ")
	}
	access := "read and write"
	if t.ReadOnly {
		access = "read only"
	}
	fmt.Fprintf(e.stderr, "token %q for %s: %s, %s, expires %s; it is shown only now\n", t.Name, u.Username, scope, access, t.ExpiresAt.Format(time.RFC3339))
	fmt.Fprintln(e.stdout, secret)
	return nil
}

func userErr(name string, err error) error {
	if domain.ErrorCode(err) == domain.ENotFound {
		return fmt.Errorf("no user %q", name)
	}
	return err
}

// readPassword reads a password from the terminal without echo, or the
// first line of stdin when it is not a terminal.
func readPassword(e env, prompt string) (string, error) {
	if f, ok := e.stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprint(e.stderr, prompt)
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(e.stderr)
		if err != nil {
			return "", err
		}
		return string(b), nil
	}
	line, err := bufio.NewReader(e.stdin).ReadString('\n')
	if err != nil && line == "" {
		return "", errors.New("no password on standard input")
	}
	return strings.TrimRight(line, "\r\n"), nil
}
