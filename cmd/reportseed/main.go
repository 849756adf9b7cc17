// Command reportseed creates a project for measuring the agreement report:
//
//	reportseed --db big.db [--documents 20000 --annotators 3 --per-item 3 --runs 2 --key-facts 5 --links]
//
// 20,000 documents × 5 summaries × 5 sentences with 3 annotators per
// summary make 1.5 million sentence labels; a calibration round "cal1"
// repeats 2% of the summaries. --annotators 100 spreads the same label
// values over a pool of 100 annotators; --runs 2 adds two assistant runs
// with a result for every sentence (a million results, about a gigabyte);
// --key-facts 5 --links gives each document five key facts, which the
// annotators align with the sentences that carry them.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"annotate/internal/reportseed"
)

func main() {
	var o reportseed.Options
	db := flag.String("db", "big.db", "database file to create the project in")
	flag.StringVar(&o.Project, "project", "big", "project slug")
	flag.IntVar(&o.Documents, "documents", 20000, "documents")
	flag.IntVar(&o.Summaries, "summaries", 5, "summaries per document")
	flag.IntVar(&o.Sentences, "sentences", 5, "sentences per summary")
	flag.IntVar(&o.Annotators, "annotators", 3, "annotators in the pool")
	flag.IntVar(&o.PerItem, "per-item", 3, "annotators per summary")
	flag.IntVar(&o.Runs, "runs", 0, "assistant runs with a result for every sentence")
	flag.IntVar(&o.KeyFacts, "key-facts", 1, "key facts per document")
	flag.BoolVar(&o.Links, "links", false, "annotators align each key fact with the sentence that carries it")
	flag.Float64Var(&o.Calibrate, "calibrate", 0.02, "share of summaries also in calibration round cal1")
	flag.Uint64Var(&o.Seed, "seed", 1, "random seed")
	flag.Parse()
	n, err := reportseed.Seed(context.Background(), *db, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "reportseed:", err)
		os.Exit(1)
	}
	fmt.Printf("%s: project %s with %d sentence labels\n", *db, o.Project, n)
}
