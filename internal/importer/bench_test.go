package importer_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/importer"
	"annotate/internal/tasks"
)

// benchNative writes a native file shaped like a labelled project's:
// documents of two sentences, each with five summaries of five sentences,
// every sentence labelled by three annotators (one in two in agreement),
// one sentence of each summary with gold, and summary labels.
func benchNative(docs int) []byte {
	var b bytes.Buffer
	for d := range docs {
		fmt.Fprintf(&b, `{"id":"doc-%06d","sentences":["The council met.","It voted."],"summaries":[`, d)
		for s := range 5 {
			if s > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"id":"doc-%06d-s%d","model":"m","sentences":[`, d, s)
			for i := range 5 {
				if i > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, `{"text":"Sentence %d."`, i+1)
				if i == s {
					b.WriteString(`,"gold":{"label":"faithful"}`)
				}
				b.WriteString(`,"labels":[`)
				for a := 1; a <= 3; a++ {
					if a > 1 {
						b.WriteByte(',')
					}
					if a == 3 && (d+s+i)%2 == 0 {
						fmt.Fprintf(&b, `{"annotator":"rater%03d","round":"production-1","label":"unfaithful","error_types":["extrinsic_information"]}`, a)
					} else {
						fmt.Fprintf(&b, `{"annotator":"rater%03d","round":"production-1","label":"faithful"}`, a)
					}
				}
				b.WriteString(`]}`)
			}
			b.WriteString(`],"labels":[`)
			for a := 1; a <= 3; a++ {
				if a > 1 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, `{"annotator":"rater%03d","round":"production-1","relevance":3,"topic_category":"main"}`, a)
			}
			b.WriteString(`]}`)
		}
		b.WriteString(`],"key_facts":[{"text":"The council voted."}]}` + "\n")
	}
	return b.Bytes()
}

// BenchmarkStreamNative imports a labelled native file (200 documents,
// 15,000 annotators' labels, about 1.3 MB; ANNOTATE_IMPORT_DOCS sets
// another number of documents: 20000 is the 1.5M-label, 165 MB file) into a new project of a new
// database, as annotate import --create does; b.SetBytes makes the
// figure a rate in MB/s. Profile it with
// go test ./internal/importer -run '^$' -bench StreamNative -cpuprofile cpu.out.
func BenchmarkStreamNative(b *testing.B) {
	docs := 200
	if v, err := strconv.Atoi(os.Getenv("ANNOTATE_IMPORT_DOCS")); err == nil && v > 0 {
		docs = v
	}
	data := benchNative(docs)
	b.SetBytes(int64(len(data)))
	ctx := context.Background()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		st, err := tasks.Open(ctx, filepath.Join(b.TempDir(), fmt.Sprintf("b%d.db", i)))
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		files := []importer.File{{Name: "bench.jsonl", R: bytes.NewReader(data), Size: int64(len(data))}}
		req := domain.ImportRequest{Create: &domain.Project{Slug: "bench", Settings: domain.DefaultSettings()}}
		_, stats, _, err := importer.Write(ctx, st, req, "", files, importer.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if stats.Labels != docs*5*5*3 {
			b.Fatalf("imported %d labels", stats.Labels)
		}
		b.StopTimer()
		st.Close()
		b.StartTimer()
	}
}

// TestBenchNativeImports keeps the benchmark's file importable.
func TestBenchNativeImports(t *testing.T) {
	data := benchNative(3)
	if n := strings.Count(string(data), "\n"); n != 3 {
		t.Fatalf("%d lines", n)
	}
	res, err := importer.Parse("", []importer.File{{Name: "bench.jsonl", R: bytes.NewReader(data)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Documents) != 3 {
		t.Fatalf("%d documents", len(res.Documents))
	}
}
