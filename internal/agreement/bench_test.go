package agreement_test

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"

	"annotate/internal/agreement"
)

// benchFile is a generated ratings file of 1,000,000 sentences × 3
// annotators (3,000,000 rows, about 60 MB), built once.
var benchFile = sync.OnceValue(func() []byte {
	rng := rand.New(rand.NewPCG(5, 6))
	var b bytes.Buffer
	b.WriteString("unit,coder,value\n")
	coders := []string{"annotator-01", "annotator-02", "annotator-03"}
	for u := range 1_000_000 {
		unit := "doc" + strconv.Itoa(u/20) + "-s" + strconv.Itoa(u%20)
		truth := rng.IntN(5) + 1
		for _, c := range coders {
			v := truth
			if rng.Float64() < 0.3 {
				v = rng.IntN(5) + 1
			}
			b.WriteString(unit)
			b.WriteByte(',')
			b.WriteString(c)
			b.WriteByte(',')
			b.WriteString(strconv.Itoa(v))
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
})

// BenchmarkCSVOnly3M is the floor: encoding/csv reading the same file and
// doing nothing with the records.
func BenchmarkCSVOnly3M(b *testing.B) {
	data := benchFile()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		cr := csv.NewReader(bytes.NewReader(data))
		cr.ReuseRecord = true
		for {
			if _, err := cr.Read(); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkReadRatings3M(b *testing.B) {
	data := benchFile()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := agreement.ReadRatings(bytes.NewReader(data), "bench.csv"); err != nil {
			b.Fatal(err)
		}
	}
}

func benchCompute(b *testing.B, opts agreement.Options) {
	tab, err := agreement.ReadRatings(bytes.NewReader(benchFile()), "bench.csv")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := agreement.Compute(tab, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompute3M computes every statistic on the 3M-row table, without
// a bootstrap.
func BenchmarkCompute3M(b *testing.B) {
	benchCompute(b, agreement.Options{Level: "ordinal", Weights: "quadratic"})
}

// BenchmarkCompute3MBootstrap100 adds 100 bootstrap replicates of α; each
// replicate draws the table's 3M within-unit pairs.
func BenchmarkCompute3MBootstrap100(b *testing.B) {
	benchCompute(b, agreement.Options{Level: "ordinal", Weights: "quadratic", Bootstrap: 100, Seed: 1})
}

// sortedFile is 1,000,000 units × 3 coders numbered in order, as exports
// write them (units u0000001…, coders c1…c3, about 2% empty values, four
// categories; 52 MB), built once.
var sortedFile = sync.OnceValue(func() []byte {
	rng := rand.New(rand.NewPCG(1, 2))
	cats := []string{"yes", "no", "partly", "unclear"}
	var b bytes.Buffer
	b.WriteString("unit,coder,value\n")
	for u := 1; u <= 1_000_000; u++ {
		truth := rng.IntN(len(cats))
		for c := 1; c <= 3; c++ {
			v := ""
			if rng.Float64() >= 0.02 {
				v = cats[truth]
				if rng.Float64() < 0.3 {
					v = cats[rng.IntN(len(cats))]
				}
			}
			fmt.Fprintf(&b, "u%07d,c%d,%s\n", u, c, v)
		}
	}
	return b.Bytes()
})

// BenchmarkRatingsFile3M is what `annotate agreement --ratings FILE
// --format json` does with the file, from its bytes to the report.
func BenchmarkRatingsFile3M(b *testing.B) {
	data := sortedFile()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		tab, err := agreement.ReadRatings(bytes.NewReader(data), "bench.csv")
		if err != nil {
			b.Fatal(err)
		}
		rep, err := agreement.Compute(tab, agreement.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if err := rep.Write(io.Discard, "json"); err != nil {
			b.Fatal(err)
		}
	}
}
