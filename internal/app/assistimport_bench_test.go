package app_test

import (
	"bytes"
	"strings"
	"testing"

	"annotate/internal/app"
)

// BenchmarkImportAssistRuns imports 10,000 sentence results (two runs of
// 5,000, about 5 MB) into a project of 2,000 summaries, as annotate assist
// import does; b.SetBytes makes the figure a rate in MB/s. Each iteration
// adds two more runs to the same project. Profile it with
// go test ./internal/app -run '^$' -bench ImportAssistRuns -cpuprofile cpu.out.
func BenchmarkImportAssistRuns(b *testing.B) {
	ctx, s, p := resultsProject(b, 2000)
	// Results seldom quote a credential: these hold none, as the
	// assistant's usually do.
	data, _ := resultsFile(2000, func(_, _ int, line string) string {
		return strings.Replace(line, "Authorization: Bearer abc123XYZdef leaked", "nothing else", 1)
	})
	b.SetBytes(int64(len(data)))
	a := app.New(s)
	var out bytes.Buffer
	for b.Loop() {
		out.Reset()
		if err := a.ImportAssistRuns(ctx, p, "r.jsonl", strings.NewReader(data), "unnamed", false, &out); err != nil {
			b.Fatal(err)
		}
		if !strings.Contains(out.String(), "5000 sentence results") {
			b.Fatalf("printed %s", out.String())
		}
	}
}
