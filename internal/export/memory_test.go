package export_test

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"annotate/internal/domain"
	"annotate/internal/export"
	"annotate/internal/tasks"
)

// bigProject builds a project with n summary sentences: documents of five
// sentences, each with two summaries of five sentences carrying imported
// gold, and a calibration round giving every summary to one annotator.
func bigProject(tb testing.TB, n int) (*tasks.Store, *domain.Project) {
	tb.Helper()
	ctx := context.Background()
	s, err := tasks.Open(ctx, filepath.Join(tb.TempDir(), "big.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	p, err := s.CreateProject(ctx, domain.Project{Slug: "big", Name: "Big", Settings: domain.DefaultSettings()})
	if err != nil {
		tb.Fatal(err)
	}
	var docs []domain.DocumentInput
	for d := 0; d*10 < n; d++ {
		doc := domain.DocumentInput{ExternalID: fmt.Sprintf("doc-%06d", d)}
		for i := range 5 {
			doc.Sentences = append(doc.Sentences, fmt.Sprintf("Sentence %d of document %d says something about the harbour budget.", i, d))
		}
		for k := range 2 {
			sum := domain.SummaryInput{ExternalID: fmt.Sprintf("doc-%06d-s%d", d, k), Model: fmt.Sprintf("model_%c", 'A'+k)}
			for i := range 5 {
				label := domain.LabelFaithful
				if (d+i+k)%7 == 0 {
					label = domain.LabelUnfaithful
				}
				sum.Sentences = append(sum.Sentences, domain.SentenceInput{Text: fmt.Sprintf("Summary sentence %d of %d.", i, d),
					Gold: &domain.GoldInput{Label: label, Explanation: "as imported"}})
			}
			doc.Summaries = append(doc.Summaries, sum)
		}
		docs = append(docs, doc)
	}
	if _, err := s.Import(ctx, p.ID, docs); err != nil {
		tb.Fatal(err)
	}
	u, err := s.CreateUser(ctx, "ann", "", "a long enough password", false)
	if err != nil {
		tb.Fatal(err)
	}
	if err := s.SetMember(ctx, p.ID, u.ID, domain.RoleAnnotator); err != nil {
		tb.Fatal(err)
	}
	ids, err := s.SummaryIDs(ctx, p.ID, nil)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := s.CreateRound(ctx, p.ID, domain.RoundSpec{Name: "all", Kind: domain.RoundCalibration, Annotators: []int64{u.ID}, Summaries: ids}); err != nil {
		tb.Fatal(err)
	}
	return s, p
}

// countingWriter counts bytes and throws them away.
type countingWriter struct{ n int64 }

func (w *countingWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

// peakHeap runs an export and samples HeapInuse every millisecond; it
// returns the peak growth over the heap in use before the export.
func peakHeap(tb testing.TB, s *tasks.Store, p *domain.Project, opt export.Options) (growth uint64, written int64, took time.Duration) {
	tb.Helper()
	ctx := context.Background()
	e, err := export.New(ctx, s, p, opt)
	if err != nil {
		tb.Fatal(err)
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	var peak atomic.Uint64
	done := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	w := &countingWriter{}
	start := time.Now()
	err = e.Write(ctx, w)
	took = time.Since(start)
	close(done)
	<-sampled
	if err != nil {
		tb.Fatal(err)
	}
	if peak.Load() < base {
		return 0, w.n, took
	}
	return peak.Load() - base, w.n, took
}

// TestExportMemoryDoesNotGrowWithTheProject exports 4,000 and 40,000
// sentences and compares the peak heap growth: a streaming export's stays
// about the same, where one that loaded the project would grow tenfold.
// (BenchmarkExportGold100k has the larger project.)
func TestExportMemoryDoesNotGrowWithTheProject(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a database of 44,000 sentences")
	}
	small, sp := bigProject(t, 4_000)
	large, lp := bigProject(t, 40_000)
	for _, opt := range []export.Options{{What: export.Gold}, {What: export.Raw, Format: export.CSV}, {What: export.TofuEval}, {What: export.Scores}} {
		t.Run(opt.What, func(t *testing.T) {
			g10, n10, d10 := peakHeap(t, small, sp, opt)
			g100, n100, d100 := peakHeap(t, large, lp, opt)
			t.Logf("%s: 4k sentences: %d bytes written in %v, peak heap growth %d KiB; 40k: %d bytes in %v, peak heap growth %d KiB",
				opt.What, n10, d10.Round(time.Millisecond), g10>>10, n100, d100.Round(time.Millisecond), g100>>10)
			if n100 < 5*n10 {
				t.Fatalf("the large export wrote %d bytes against %d: not the larger project", n100, n10)
			}
			// Allow for GC timing; proportional growth would be 10×.
			if limit := 3*g10 + 4<<20; g100 > limit {
				t.Errorf("peak heap growth %d KiB for 40k sentences against %d KiB for 4k: the export does not stream", g100>>10, g10>>10)
			}
		})
	}
}

// BenchmarkExportGold100k reports time and allocations of a gold export of
// 100,000 sentences; allocations per sentence show the per-row cost.
func BenchmarkExportGold100k(b *testing.B) {
	s, p := bigProject(b, 100_000)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		e, err := export.New(ctx, s, p, export.Options{What: export.Gold})
		if err != nil {
			b.Fatal(err)
		}
		if err := e.Write(ctx, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100_000, "ns/sentence")
}
