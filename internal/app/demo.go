package app

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"

	"annotate/internal/demo"
	"annotate/internal/domain"
	"annotate/internal/tasks"
)

// The demo's accounts: an administrator of the server (who manages
// accounts and is a member of no project), and the demo project's lead and
// three annotators.
var demoAccounts = []struct {
	username, display, role string
}{
	{"admin", "Demo Admin", "admin"},
	{"lead", "Demo Lead", domain.RoleLead},
	{"ann1", "Annotator One", domain.RoleAnnotator},
	{"ann2", "Annotator Two", domain.RoleAnnotator},
	{"ann3", "Annotator Three", domain.RoleAnnotator},
}

// DemoSlug is the demo project's slug.
const DemoSlug = "demo"

// SetupDemo creates the demo project, its accounts and its data, writing
// what it did to out and the new accounts' logins to logins. Running it
// again changes nothing: the project, accounts and records are matched by
// slug, username and external id.
func (a *App) SetupDemo(ctx context.Context, out, logins io.Writer) error {
	store := a.store
	p, err := store.ProjectBySlug(ctx, DemoSlug)
	if domain.ErrorCode(err) == domain.ENotFound {
		p, err = store.CreateProject(ctx, domain.Project{
			Slug:        DemoSlug,
			Name:        "Demo: city council meetings",
			Description: "Summaries of three MeetingBank city-council transcripts with TofuEval gold labels, key points and MADISSE ambiguity labels (TofuEval: MIT-0; MeetingBank transcripts: CC; MADISSE: Apache-2.0).",
			Settings:    domain.DefaultSettings(),
			Guidelines:  demo.Guidelines,
		})
	}
	if err != nil {
		return domain.Op("App.SetupDemo", err)
	}
	docs, err := demo.Documents()
	if err != nil {
		return fmt.Errorf("demo corpus: %w", err)
	}
	st, err := store.Import(ctx, p.ID, docs)
	if err != nil {
		return domain.Op("App.SetupDemo", err)
	}
	if st.Documents > 0 {
		fmt.Fprintf(out, "demo project %q: %d documents, %d summaries, %d sentences, %d key facts\n", p.Slug, st.Documents, st.Summaries, st.Sentences, st.KeyFacts)
	}
	if err := a.importSampleRun(ctx, p, demo.SampleRun(), out); err != nil {
		return fmt.Errorf("demo sample run: %w", err)
	}
	var created []string
	var annotators []int64
	for _, acc := range demoAccounts {
		u, err := store.UserByName(ctx, acc.username)
		if domain.ErrorCode(err) == domain.ENotFound {
			pw := newPassword()
			if u, err = store.CreateUser(ctx, acc.username, acc.display, pw, acc.role == "admin"); err != nil {
				return domain.Op("App.SetupDemo", err)
			}
			created = append(created, fmt.Sprintf("  %-6s %-16s password: %s", acc.username, "("+acc.role+")", pw))
		}
		if err != nil {
			return domain.Op("App.SetupDemo", err)
		}
		if acc.role == "admin" {
			continue
		}
		if err := store.SetMember(ctx, p.ID, u.ID, acc.role); err != nil {
			return domain.Op("App.SetupDemo", err)
		}
		if acc.role == domain.RoleAnnotator {
			annotators = append(annotators, u.ID)
		}
	}
	if err := demoRound(ctx, store, p, annotators, out); err != nil {
		return domain.Op("App.SetupDemo", err)
	}
	if len(created) > 0 {
		fmt.Fprintln(logins, "demo logins (shown once; reset with: annotate user set-password NAME):")
		for _, l := range created {
			fmt.Fprintln(logins, l)
		}
	} else {
		fmt.Fprintln(logins, "demo logins: the accounts admin, lead, ann1, ann2 and ann3 already exist (reset a password with: annotate user set-password NAME)")
	}
	return nil
}

// newPassword returns a random password of 16 base32 characters (80 bits).
func newPassword() string { return rand.Text()[:16] }

// demoRound starts a calibration round on the first summaries (those the
// demo imports without gold), so that a newcomer who logs in as an
// annotator can label at once.
func demoRound(ctx context.Context, store *tasks.Store, p *domain.Project, annotators []int64, out io.Writer) error {
	rounds, err := store.Rounds(ctx, p.ID)
	if err != nil || len(rounds) > 0 {
		return err
	}
	ids, err := store.SummaryIDs(ctx, p.ID, nil)
	if err != nil {
		return err
	}
	ids = ids[:min(len(ids), demo.CalibrationSummaries)]
	r, err := store.CreateRound(ctx, p.ID, domain.RoundSpec{Name: "calibration-1", Kind: domain.RoundCalibration, Annotators: annotators, Summaries: ids})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "demo round %q: %d summaries for each of %d annotators\n", r.Name, len(ids), len(annotators))
	return nil
}
