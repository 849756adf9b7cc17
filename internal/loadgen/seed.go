// Package loadgen seeds a large realistic project and plays many
// annotators against a running server over loopback, measuring latency
// per route and checking afterwards that every save the server
// acknowledged is in the database exactly once and under the right
// annotator.
package loadgen

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"

	"annotate/internal/domain"
	"annotate/internal/tasks"
)

// SeedOptions sizes a benchmark project.
type SeedOptions struct {
	Project    string // slug, default "bench"
	Documents  int    // default 2000
	MinWords   int    // default 800
	MaxWords   int    // default 1500
	Summaries  int    // per document, default 5
	Annotators int    // default 100
	PerItem    int    // annotators per summary, default 2
	Password   string // of every annotator and lead account
	Seed       uint64
	// Runs is the number of assistant runs with an output for every
	// sentence; -1 for none, 0 means the default 3.
	Runs int
	// Calibration is the number of summaries of an earlier calibration
	// round, labelled and submitted by CalibrationAnnotators annotators
	// (one sentence in seven split); -1 for no such round, 0 means the
	// default 200.
	Calibration           int
	CalibrationAnnotators int // default 3
	// Unresolved leaves the calibration round's summaries ready but not
	// resolved, as a database from before resolution at submission has
	// them; otherwise they are resolved into gold (unanimous, or waiting
	// for adjudication).
	Unresolved bool
	// Leads is the number of lead accounts (LeadName), default 3; -1 for
	// none.
	Leads int
}

func (o *SeedOptions) defaults() {
	if o.Project == "" {
		o.Project = "bench"
	}
	if o.Documents == 0 {
		o.Documents = 2000
	}
	if o.MinWords == 0 {
		o.MinWords = 800
	}
	if o.MaxWords < o.MinWords {
		o.MaxWords = max(o.MinWords, 1500)
	}
	if o.Summaries == 0 {
		o.Summaries = 5
	}
	if o.Annotators == 0 {
		o.Annotators = 100
	}
	if o.PerItem == 0 {
		o.PerItem = 2
	}
	if o.Password == "" {
		o.Password = "bench-password"
	}
	if o.Runs == 0 {
		o.Runs = 3
	}
	if o.Calibration == 0 {
		o.Calibration = 200
	}
	if o.CalibrationAnnotators == 0 {
		o.CalibrationAnnotators = 3
	}
	if o.Leads == 0 {
		o.Leads = 3
	}
}

// AnnotatorName is the username of the i-th benchmark annotator (from 1).
func AnnotatorName(i int) string { return fmt.Sprintf("bench%03d", i) }

// vocabulary of the generated council-meeting prose.
var vocabulary = strings.Fields(`council budget park street housing vote motion member resident public hearing
	approve amend fund program city district plan project report staff committee chair item agenda
	school library transit safety police fire water sewer permit zoning tax revenue grant contract
	community neighborhood business development support oppose discuss review recommend adopt
	million thousand year month week new old local regional state federal first second third final`)

func sentence(rng *rand.Rand, words int) string {
	w := make([]string, words)
	for i := range w {
		w[i] = vocabulary[rng.IntN(len(vocabulary))]
	}
	w[0] = strings.ToUpper(w[0][:1]) + w[0][1:]
	return strings.Join(w, " ") + "."
}

// Seed creates the benchmark project in an open store: documents of
// MinWords to MaxWords words in dialogue turns, summaries of 3 to 8
// sentences, key facts, the annotator and lead accounts, assistant runs,
// an earlier calibration round with its labels and gold, and a production
// round giving each summary to PerItem annotators.
func Seed(ctx context.Context, store *tasks.Store, o SeedOptions) error {
	o.defaults()
	rng := rand.New(rand.NewPCG(o.Seed, 7))
	p, err := store.CreateProject(ctx, domain.Project{Slug: o.Project, Name: "Load benchmark", Settings: domain.DefaultSettings()})
	if err != nil {
		return err
	}
	const batch = 100
	for start := 0; start < o.Documents; start += batch {
		var docs []domain.DocumentInput
		for d := start; d < min(start+batch, o.Documents); d++ {
			doc := domain.DocumentInput{ExternalID: fmt.Sprintf("doc-%05d", d), Kind: domain.KindDialogue, Domain: "synthetic"}
			words := o.MinWords + rng.IntN(o.MaxWords-o.MinWords+1)
			for words > 0 {
				n := min(words, 8+rng.IntN(30))
				doc.Turns = append(doc.Turns, domain.TurnInput{Speaker: fmt.Sprintf("Speaker %d", rng.IntN(6)), Text: sentence(rng, n)})
				words -= n
			}
			for k := 0; k < 4; k++ {
				doc.KeyFacts = append(doc.KeyFacts, domain.KeyFactInput{Topic: "Budget", Text: sentence(rng, 8), Category: "decision"})
			}
			for s := 0; s < o.Summaries; s++ {
				sum := domain.SummaryInput{ExternalID: fmt.Sprintf("doc-%05d-s%d", d, s), Topic: "Budget", Model: fmt.Sprintf("model_%d", s)}
				for n := 3 + rng.IntN(6); n > 0; n-- {
					sum.Sentences = append(sum.Sentences, domain.SentenceInput{Text: sentence(rng, 10+rng.IntN(12))})
				}
				doc.Summaries = append(doc.Summaries, sum)
			}
			docs = append(docs, doc)
		}
		if _, err := store.Import(ctx, p.ID, docs); err != nil {
			return err
		}
	}
	var users []int64
	for i := 1; i <= o.Annotators; i++ {
		u, err := store.CreateUser(ctx, AnnotatorName(i), "", o.Password, false)
		if err != nil {
			return err
		}
		if err := store.SetMember(ctx, p.ID, u.ID, domain.RoleAnnotator); err != nil {
			return err
		}
		users = append(users, u.ID)
	}
	ids, err := store.SummaryIDs(ctx, p.ID, nil)
	if err != nil {
		return err
	}
	for i := 1; i <= o.Leads; i++ {
		u, err := store.CreateUser(ctx, LeadName(i), "", o.Password, false)
		if err != nil {
			return err
		}
		if err := store.SetMember(ctx, p.ID, u.ID, domain.RoleLead); err != nil {
			return err
		}
	}
	if err := SeedRuns(ctx, store, p.ID, o.Runs); err != nil {
		return err
	}
	if o.Calibration > 0 {
		if err := seedCalibration(ctx, store, p.ID, ids[:min(o.Calibration, len(ids))], users[:min(o.CalibrationAnnotators, len(users))], !o.Unresolved); err != nil {
			return err
		}
	}
	_, err = store.CreateRound(ctx, p.ID, domain.RoundSpec{Name: "production-1", Kind: domain.RoundProduction, PerItem: o.PerItem, Annotators: users, Summaries: ids})
	return err
}
