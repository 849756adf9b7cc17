package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"

	"annotate/internal/app"
	"annotate/internal/csvsafe"
	"annotate/internal/experiment"
	"annotate/internal/jsonindent"
	"annotate/internal/studies"
)

const studyUsage = `study create --project SLUG --name NAME --from study.json [--db PATH]
       annotate study show --project SLUG --name NAME [--url BASE] [--db PATH]
       annotate study close|open|new-link --project SLUG --name NAME [--db PATH]
       annotate study report --project SLUG --name NAME [--format json|csv] [--replicates N] [--db PATH]
       annotate study exclude|include --project SLUG --name NAME --participant N --reason TEXT [--db PATH]
       annotate study answers --project SLUG --name NAME [--db PATH]
       annotate study plan --plan plan.json [--participants 20,40,60] [--studies N]

plan estimates, for each number of participants, the power to detect
each condition's planted difference from none in accuracy by simulating
the plan (see docs/studies.md); it needs no project or database.

create makes a crowd study from a study definition (see docs/studies.md):
its round over the project's summaries when the round does not exist, a
seed and completion codes drawn where the definition leaves them out, and
a public entry link. show prints the study, its entry links for Prolific,
MTurk and other sources on the server at --url (default: env
ANNOTATE_PUBLIC_URL, as serve --public-url), and its participants by
phase; participants' platform ids are not printed. close stops new
entries and returns, open lets them in again, new-link replaces the entry
link so the old one leads nowhere. report gives the experiment report:
participants by outcome and, per condition, the figures against gold with
95% intervals from a bootstrap over participants and items, and each
condition's difference from none with its p-value (docs/studies.md).
exclude and include decide on participant N (as the study's page numbers
them) by hand, with the reason kept in the study's history. answers writes
the exit survey's answers as CSV (participant number, question, answer).`

// maxStudyFile bounds a study definition.
const maxStudyFile = 1 << 20

func runStudy(ctx context.Context, e env, args []string) error {
	fs := newFlags(e, "study", studyUsage)
	db := dbFlag(e, fs)
	slug := fs.String("project", "", "the project (its slug; required)")
	name := fs.String("name", "", "the study's name (required)")
	fs.StringVar(name, "study", "", "the study's name (the same as --name)")
	from := fs.String("from", "", "create: the study definition file (- for standard input)")
	base := fs.String("url", e.getenv("ANNOTATE_PUBLIC_URL"), "show: the address people reach the server at (env ANNOTATE_PUBLIC_URL)")
	format := fs.String("format", "json", "report: json or csv")
	replicates := fs.Int("replicates", 2000, "report: bootstrap replicates and permutations")
	participant := fs.Int("participant", 0, "exclude, include: the participant's number")
	reason := fs.String("reason", "", "exclude, include: why (kept in the study's history)")
	planFile := fs.String("plan", "", "plan: the plan file, JSON (see docs/studies.md)")
	sizes := fs.String("participants", "", "plan: numbers of participants to try, comma-separated (default 20,40,60,100,150)")
	simulated := fs.Int("studies", 200, "plan: simulated studies per number of participants")
	pos, err := parseAnywhere(e, fs, args)
	if err != nil {
		return helpOK(err)
	}
	if len(pos) == 1 && pos[0] == "plan" {
		return studyPlan(ctx, e, *planFile, *sizes, *simulated)
	}
	if len(pos) != 1 || !slices.Contains([]string{"create", "show", "close", "open", "new-link", "report", "exclude", "include", "answers"}, pos[0]) || *slug == "" || *name == "" || (pos[0] == "create" && *from == "") {
		fmt.Fprintf(e.stderr, "Usage: annotate %s\n", studyUsage)
		return errUsage
	}
	store, err := openExisting(ctx, e, *db)
	if err != nil {
		return err
	}
	defer store.Close()
	p, err := openProject(ctx, store, *slug)
	if err != nil {
		return err
	}
	ops := app.New(store)
	var st *studies.Study
	if pos[0] == "create" {
		var r io.Reader = e.stdin
		if *from != "-" {
			f, err := os.Open(*from)
			if err != nil {
				return err
			}
			defer f.Close()
			r = f
		}
		def, err := io.ReadAll(io.LimitReader(r, maxStudyFile+1))
		if err != nil {
			return err
		}
		if len(def) > maxStudyFile {
			return fmt.Errorf("%s: larger than %d bytes", *from, maxStudyFile)
		}
		if st, err = ops.CreateStudy(ctx, p, *name, def); err != nil {
			return fmt.Errorf("%s: %w", *from, err)
		}
		fmt.Fprintf(e.stdout, "created study %s\n", st.Name)
	} else if st, err = ops.Studies().ByName(ctx, p.ID, *name); err != nil {
		return fmt.Errorf("project %s has no study named %q", p.Slug, *name)
	}
	if pos[0] == "exclude" || pos[0] == "include" {
		if err := ops.SetExcluded(ctx, st, *participant, pos[0] == "exclude", *reason, 0); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "participant %d %sd\n", *participant, pos[0])
	}
	if pos[0] == "answers" {
		as, err := ops.Studies().Answers(ctx, st.ID)
		if err != nil {
			return err
		}
		cw := csvsafe.NewWriter(e.stdout)
		cw.Write([]string{"participant", "question", "answer"})
		for _, a := range as {
			cw.Write([]string{strconv.Itoa(a.Participant), a.Question, a.Answer})
		}
		cw.Flush()
		return cw.Error()
	}
	if pos[0] == "report" {
		if *replicates < 1 || *replicates > 100000 {
			return fmt.Errorf("--replicates: %d is not between 1 and 100000", *replicates)
		}
		rep, err := ops.ReportStudy(ctx, st, experiment.Options{Replicates: *replicates, Permutations: *replicates})
		if err != nil {
			return err
		}
		return writeStudyReport(e.stdout, rep, *format)
	}
	if pos[0] == "close" || pos[0] == "open" || pos[0] == "new-link" {
		open := pos[0] != "close" && (pos[0] == "open" || st.Open)
		if err := ops.SetStudyEntry(ctx, st, open, pos[0] == "new-link"); err != nil {
			return err
		}
		if st, err = ops.Studies().ByID(ctx, st.ID); err != nil {
			return err
		}
	}
	return printStudy(ctx, e.stdout, ops, st, *base)
}

// printStudy writes a study's settings, links and participants.
func printStudy(ctx context.Context, w io.Writer, ops *app.App, st *studies.Study, base string) error {
	d := st.Definition
	state := "open"
	if !st.Open {
		state = "closed"
	}
	fmt.Fprintf(w, "study %s (%s): round %s, %d items, k %d, %d items per participant\n", st.Name, state, st.RoundName, st.Items, d.K, d.ItemsPerParticipant)
	if d.Screening != nil {
		fmt.Fprintf(w, "screening test: %d summaries with gold, passed at %.0f%% right\n", d.Screening.Items, 100*d.Screening.Pass)
	}
	if st.Checks > 0 {
		fmt.Fprintf(w, "attention checks: %d summaries with gold, mixed in at %.0f%%, exclusion rule %q\n", st.Checks, 100*(*d.AttentionRate), d.Exclude)
	}
	fmt.Fprintf(w, "conditions %v, randomised by %s, seed %d\n", d.Conditions, d.Randomise, d.Seed)
	fmt.Fprintf(w, "completion codes: completed %s, no consent %s, screened out %s\n", d.Completion.Completed, d.Completion.NoConsent, d.Completion.ScreenedOut)
	if d.TimeLimit.Duration > 0 {
		fmt.Fprintf(w, "time limit: %s per participant from their first entry\n", d.TimeLimit.Duration)
	}
	if base == "" {
		fmt.Fprintln(w, "entry links: give --url BASE (or set ANNOTATE_PUBLIC_URL) to print them")
	} else {
		l := app.Links(base, st)
		fmt.Fprintf(w, "Prolific study URL: %s\nMTurk external question URL: %s\nother sources: %sPARTICIPANT_ID\n", l.Prolific, l.MTurk, l.Other)
	}
	counts, err := ops.StudyCounts(ctx, st)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "participants: %d in consent, %d reading instructions, %d in screening, %d training, %d labelling, %d in the survey, %d completed, %d declined consent, %d screened out\n",
		counts[studies.PhaseConsent], counts[studies.PhaseInstructions], counts[studies.PhaseScreening], counts[studies.PhaseTraining],
		counts[studies.PhaseWork], counts[studies.PhaseSurvey], counts[studies.PhaseCompleted], counts[studies.PhaseNoConsent], counts[studies.PhaseScreenedOut])
	return nil
}

// writeStudyReport writes an experiment report as JSON, or as CSV with one
// row per condition and figure.
func writeStudyReport(w io.Writer, rep *app.StudyReport, format string) error {
	switch format {
	case "json":
		return jsonindent.Encode(w, rep)
	case "csv":
		cw := csv.NewWriter(w)
		cw.Write([]string{"condition", "figure", "value", "ci_low", "ci_high", "vs_none", "vs_none_low", "vs_none_high", "p"})
		if rep.Analysis != nil {
			for _, c := range rep.Analysis.Conditions {
				for _, f := range experiment.Figures {
					e := c.Figures[f]
					row := []string{c.Name, f.String(), num4(e.Value), num4(e.CI[0]), num4(e.CI[1]), "", "", "", ""}
					if d, ok := c.VsBaseline[f]; ok {
						row[5], row[6], row[7], row[8] = num4(d.Value), num4(d.CI[0]), num4(d.CI[1]), num4(d.P)
					}
					cw.Write(row)
				}
			}
		}
		cw.Flush()
		return cw.Error()
	}
	return fmt.Errorf("--format: %q is not json or csv", format)
}

// num4 writes a figure for CSV: empty when undefined.
func num4(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return ""
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// studyPlan prints, for each number of participants, the power to detect
// each condition's planted difference from none in accuracy.
func studyPlan(ctx context.Context, e env, file, sizes string, studies int) error {
	if file == "" {
		fmt.Fprintf(e.stderr, "Usage: annotate %s\n", studyUsage)
		return errUsage
	}
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxStudyFile))
	if err != nil {
		return err
	}
	plan, err := app.ReadPlanForPower(b)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	ns, err := app.ParsePlanSizes(sizes)
	if err != nil {
		return fmt.Errorf("--%w", err)
	}
	rows, err := app.PlanStudy(ctx, plan, ns, studies)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	fmt.Fprintf(e.stdout, "power to detect each condition's planted difference from none in accuracy (%d simulated studies each, permutation test at 0.05)\n", studies)
	for _, r := range rows {
		fmt.Fprintf(e.stdout, "%4d participants:", r.Participants)
		for _, p := range r.Power {
			fmt.Fprintf(e.stdout, "  %s %.2f", p.Condition, p.Power)
		}
		fmt.Fprintln(e.stdout)
	}
	return nil
}
