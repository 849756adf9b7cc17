// Package reportseed fills a database with a project shaped for measuring
// the agreement report: many short documents, summaries of a few sentences,
// and labels from a chosen number of annotators per summary, drawn from a
// pool of annotators of any size. The same seed gives the same label values
// whatever the pool, so reports with 3 and with 100 annotators can be
// compared on the same labels.
package reportseed

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"

	"annotate/internal/domain"
	"annotate/internal/loadgen"
	"annotate/internal/tasks"
)

// Options sizes the project.
type Options struct {
	Project    string  // slug, default "big"
	Documents  int     // default 20,000
	Summaries  int     // per document, default 5
	Sentences  int     // per summary, default 5
	Annotators int     // pool of annotators, default 3
	PerItem    int     // annotators per summary, default 3 (at most Annotators)
	Calibrate  float64 // share of summaries also in calibration round "cal1", default 0.02
	Gold       float64 // share of sentences with gold, default 0.1
	// Runs is the number of assistant runs with a result for every
	// sentence (the shape and size of real ones), default none.
	Runs int
	// KeyFacts is the number of key facts of each document, default 1.
	KeyFacts int
	// Links, when set, has each annotator align each key fact with the
	// sentence of the summary that carries it (or none), as the
	// labelling page records: most key facts are carried by one
	// sentence, and an annotator mostly agrees on which. Without it no
	// key fact is linked.
	Links bool
	Seed  uint64
}

// check refuses sizes below zero and shares outside [0, 1] (zero means
// the default), naming the option, before anything is written.
func (o *Options) check() error {
	for _, c := range []struct {
		name string
		n    int
	}{{"documents", o.Documents}, {"summaries", o.Summaries}, {"sentences", o.Sentences}, {"annotators", o.Annotators},
		{"per-item", o.PerItem}, {"runs", o.Runs}, {"key-facts", o.KeyFacts}} {
		if c.n < 0 {
			return fmt.Errorf("%s: %d is below zero", c.name, c.n)
		}
	}
	for _, c := range []struct {
		name  string
		share float64
	}{{"calibrate", o.Calibrate}, {"gold", o.Gold}} {
		if !(c.share >= 0 && c.share <= 1) {
			return fmt.Errorf("%s: %v is not a share between 0 and 1", c.name, c.share)
		}
	}
	return nil
}

func (o *Options) defaults() {
	if o.Project == "" {
		o.Project = "big"
	}
	if o.Documents == 0 {
		o.Documents = 20000
	}
	if o.Summaries == 0 {
		o.Summaries = 5
	}
	if o.Sentences == 0 {
		o.Sentences = 5
	}
	if o.Annotators == 0 {
		o.Annotators = 3
	}
	if o.PerItem == 0 {
		o.PerItem = 3
	}
	o.PerItem = min(o.PerItem, o.Annotators)
	if o.Calibrate == 0 {
		o.Calibrate = 0.02
	}
	if o.Gold == 0 {
		o.Gold = 0.1
	}
	if o.KeyFacts == 0 {
		o.KeyFacts = 1
	}
}

var faith = []string{domain.LabelFaithful, domain.LabelUnfaithful, domain.LabelBorderline}

// Seed creates the project in the database at path (created if missing)
// and returns the number of sentence labels written. The documents go
// through the store's import; rounds, assignments and labels are written
// in one transaction of plain inserts, which is what makes millions of
// labels take seconds.
func Seed(ctx context.Context, path string, o Options) (int, error) {
	if err := o.check(); err != nil {
		return 0, err
	}
	o.defaults()
	store, err := tasks.Open(ctx, path)
	if err != nil {
		return 0, err
	}
	p, err := store.CreateProject(ctx, domain.Project{Slug: o.Project, Name: "Report benchmark", Settings: domain.DefaultSettings()})
	if err != nil {
		store.Close()
		return 0, err
	}
	set := p.Settings
	rng := rand.New(rand.NewPCG(o.Seed, 11))
	const batch = 500
	for start := 0; start < o.Documents; start += batch {
		var docs []domain.DocumentInput
		for d := start; d < min(start+batch, o.Documents); d++ {
			doc := domain.DocumentInput{ExternalID: fmt.Sprintf("doc-%06d", d), Sentences: []string{"The council met.", "It voted."}}
			doc.KeyFacts = []domain.KeyFactInput{{Text: "The council voted."}}
			for k := 1; k < o.KeyFacts; k++ {
				doc.KeyFacts = append(doc.KeyFacts, domain.KeyFactInput{Text: fmt.Sprintf("Key fact %d.", k+1)})
			}
			for s := range o.Summaries {
				sum := domain.SummaryInput{ExternalID: fmt.Sprintf("doc-%06d-s%d", d, s), Model: "m"}
				for i := range o.Sentences {
					sum.Sentences = append(sum.Sentences, domain.SentenceInput{Text: fmt.Sprintf("Sentence %d.", i+1)})
				}
				doc.Summaries = append(doc.Summaries, sum)
			}
			docs = append(docs, doc)
		}
		if _, err := store.Import(ctx, p.ID, docs); err != nil {
			store.Close()
			return 0, err
		}
	}
	var users []int64
	for i := 1; i <= o.Annotators; i++ {
		u, err := store.CreateUser(ctx, fmt.Sprintf("rater%03d", i), "", "report-seed-password", false)
		if err != nil {
			store.Close()
			return 0, err
		}
		if err := store.SetMember(ctx, p.ID, u.ID, domain.RoleAnnotator); err != nil {
			store.Close()
			return 0, err
		}
		users = append(users, u.ID)
	}
	if err := store.Close(); err != nil {
		return 0, err
	}
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(OFF)")
	if err != nil {
		return 0, err
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	n, err := fill(ctx, tx, p.ID, users, set.ErrorTaxonomy(), o, rng)
	if err != nil {
		return 0, err
	}
	if err := tx.Commit(); err != nil || o.Runs <= 0 {
		return n, err
	}
	if store, err = tasks.Open(ctx, path); err != nil {
		return 0, err
	}
	if err := loadgen.SeedRuns(ctx, store, p.ID, o.Runs); err != nil {
		store.Close()
		return 0, err
	}
	return n, store.Close()
}

func fill(ctx context.Context, tx *sql.Tx, project int64, users []int64, tax []domain.TaxonomyType, o Options, rng *rand.Rand) (int, error) {
	round := func(name, kind string) (int64, error) {
		res, err := tx.ExecContext(ctx, `INSERT INTO rounds (project_id, name, kind, per_item, status) VALUES (?, ?, ?, ?, 'closed')`, project, name, kind, o.PerItem)
		if err != nil {
			return 0, err
		}
		return res.LastInsertId()
	}
	cal, err := round("cal1", domain.RoundCalibration)
	if err != nil {
		return 0, err
	}
	prod, err := round("production-1", domain.RoundProduction)
	if err != nil {
		return 0, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT ss.id, ss.summary_id FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id
		WHERE s.project_id = ? ORDER BY ss.summary_id, ss.idx`, project)
	if err != nil {
		return 0, err
	}
	var sents []sentence
	for rows.Next() {
		var s sentence
		if err := rows.Scan(&s.id, &s.summary); err != nil {
			rows.Close()
			return 0, err
		}
		sents = append(sents, s)
	}
	rows.Close()
	insAssign, err := tx.PrepareContext(ctx, `INSERT INTO assignments (round_id, summary_id, user_id, position, status, submitted_at) VALUES (?, ?, ?, ?, 'submitted', '2026-01-01T00:00:00Z')`)
	if err != nil {
		return 0, err
	}
	insLabel, err := tx.PrepareContext(ctx, `INSERT INTO sentence_labels (assignment_id, sentence_id, label, error_types, ambiguous, ambiguity_type) VALUES (?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return 0, err
	}
	insSummary, err := tx.PrepareContext(ctx, `INSERT INTO summary_labels (assignment_id, relevance, topic_category) VALUES (?, ?, ?)`)
	if err != nil {
		return 0, err
	}
	insGold, err := tx.PrepareContext(ctx, `INSERT INTO gold_sentences (sentence_id, label, provenance) VALUES (?, ?, 'imported')`)
	if err != nil {
		return 0, err
	}
	links, err := newLinker(ctx, tx, project, o)
	if err != nil {
		return 0, err
	}
	labels := 0
	// The annotators of a summary are PerItem consecutive members of the
	// pool from a random start: the label values below depend only on
	// the rng, not on who gives them.
	for i := 0; i < len(sents); {
		sum := sents[i].summary
		j := i
		for j < len(sents) && sents[j].summary == sum {
			j++
		}
		start := rng.IntN(len(users))
		truth := make([]int, j-i)
		for k := range truth {
			truth[k] = rng.IntN(10)
			if truth[k] > 2 {
				truth[k] = 0
			}
			if rng.Float64() < o.Gold {
				if _, err := insGold.ExecContext(ctx, sents[i+k].id, faith[truth[k]]); err != nil {
					return 0, err
				}
			}
		}
		rounds := []int64{prod}
		if rng.Float64() < o.Calibrate {
			rounds = append(rounds, cal)
		}
		relevance := 1 + rng.IntN(5)
		carried := links.truth(sum, j-i)
		for _, rd := range rounds {
			for a := range o.PerItem {
				user := users[(start+a)%len(users)]
				res, err := insAssign.ExecContext(ctx, rd, sum, user, i)
				if err != nil {
					return 0, err
				}
				aid, _ := res.LastInsertId()
				for k := range truth {
					v := truth[k]
					if rng.Float64() < 0.25 {
						v = rng.IntN(3)
					}
					types := "[]"
					if v != 0 && len(tax) > 0 {
						types = `["` + tax[rng.IntN(min(3, len(tax)))].Code + `"]`
					}
					amb := rng.Float64() < 0.1
					ambType := ""
					if amb {
						ambType = domain.AmbiguityTypes[rng.IntN(3)].Code
					}
					if _, err := insLabel.ExecContext(ctx, aid, sents[i+k].id, faith[v], types, amb, ambType); err != nil {
						return 0, err
					}
					labels++
				}
				rel := relevance
				if rng.Float64() < 0.3 {
					rel = 1 + rng.IntN(5)
				}
				if _, err := insSummary.ExecContext(ctx, aid, rel, []string{"main", "marginal"}[rng.IntN(2)]); err != nil {
					return 0, err
				}
				if err := links.write(ctx, aid, carried, sents[i:j]); err != nil {
					return 0, err
				}
			}
		}
		i = j
	}
	return labels, nil
}

// sentence is a summary sentence of the seeded project.
type sentence struct{ id, summary int64 }

// linker writes the annotators' key-fact links when Options.Links is set,
// drawing from a random source of its own so that the labels are the
// same with and without links.
type linker struct {
	keyFacts map[int64][]int64 // by summary, when links are written
	rng      *rand.Rand
	ins      *sql.Stmt
}

func newLinker(ctx context.Context, tx *sql.Tx, project int64, o Options) (*linker, error) {
	l := &linker{}
	if !o.Links {
		return l, nil
	}
	l.keyFacts = map[int64][]int64{}
	l.rng = rand.New(rand.NewPCG(o.Seed, 13))
	rows, err := tx.QueryContext(ctx, `SELECT s.id, k.id FROM summaries s JOIN key_facts k ON k.document_id = s.document_id
		WHERE s.project_id = ? ORDER BY s.id, k.id`, project)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var s, k int64
		if err := rows.Scan(&s, &k); err != nil {
			return nil, err
		}
		l.keyFacts[s] = append(l.keyFacts[s], k)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	l.ins, err = tx.PrepareContext(ctx, `INSERT INTO keyfact_labels (assignment_id, key_fact_id, sentence_id) VALUES (?, ?, ?)`)
	return l, err
}

// truth draws, for each key fact of summary, the position of the one of
// its n sentences that carries it, −1 for none (three key facts in ten).
func (l *linker) truth(summary int64, n int) []int {
	if l.keyFacts == nil {
		return nil
	}
	out := make([]int, len(l.keyFacts[summary]))
	for k := range out {
		out[k] = -1
		if l.rng.Float64() < 0.7 {
			out[k] = l.rng.IntN(n)
		}
	}
	return out
}

// write links the key facts of the summary of sents for an assignment:
// each with the sentence that carries it, or in one case of five another
// sentence or none.
func (l *linker) write(ctx context.Context, assignment int64, carried []int, sents []sentence) error {
	if l.keyFacts == nil {
		return nil
	}
	for k, kf := range l.keyFacts[sents[0].summary] {
		at := carried[k]
		if l.rng.Float64() < 0.2 {
			at = l.rng.IntN(len(sents)+1) - 1
		}
		if at < 0 {
			continue
		}
		if _, err := l.ins.ExecContext(ctx, assignment, kf, sents[at].id); err != nil {
			return err
		}
	}
	return nil
}
