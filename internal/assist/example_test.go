package assist_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"annotate/internal/assist"
)

// Example shows how a caller wires the pieces: a Cache (in memory here; the
// application passes its SQLite one), a Client for the endpoint, a Sink that
// stores results and a Runner that judges the sentences.
func Example() {
	cache := assist.NewMemoryCache()
	client, err := assist.NewClient(assist.Config{
		BaseURL:     "http://localhost:8000/v1",
		Model:       "qwen2.5-32b-instruct",
		APIKey:      os.Getenv("ANNOTATE_LLM_KEY"),
		Temperature: 0.2,
		MaxTokens:   800,
		Timeout:     2 * time.Minute,
		Concurrency: 8,
	}, cache)
	if err != nil {
		fmt.Println(err)
		return
	}
	item := assist.Item{
		DocUnits: []assist.Unit{{Speaker: "Chair", Text: "The vote is postponed to next month."}},
		Summary:  []string{"The council voted on the proposal."},
		Target:   0,
	}
	sink := assist.NewMemorySink()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stats, err := assist.NewRunner(client).Run(ctx, []assist.ItemRef{{Key: "p1/d1/s1/0", Item: item}}, assist.RunOptions{
		Settings:    assist.Settings{Protocol: assist.ProtocolDebate, Ambiguity: true, Seed: 1},
		Concurrency: 4,
		Sink:        sink,
		Progress:    func(p assist.Progress) { fmt.Printf("%d/%d done, %d failed\n", p.Done, p.Total, p.Failed) },
	})
	fmt.Println(stats.Calls, stats.CacheHits, stats.PromptTokens, err)

	if r, ok := sink.Result("p1/d1/s1/0"); ok {
		enc := assist.NewEncoder(os.Stdout)
		enc.Encode(assist.ExportRecord{ProjectID: "p1", DocumentID: "d1", SummaryID: "s1", SentenceID: "0", Result: r})
	}
}
