package importer_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/importer"
	"annotate/internal/tasks"
)

// A raw export streamed with the documents it labels is read after them,
// whatever the order of the files, its labels handed over row by row; a
// bad row at its end refuses everything, naming the file, line and field.
func TestStreamRawExportAfterDocuments(t *testing.T) {
	docs := `{"id":"d1","sentences":["A."],"summaries":[{"id":"s1","sentences":[{"text":"One."},{"text":"Two."}]}]}` + "\n" +
		`{"id":"d2","sentences":["B."],"summaries":[{"id":"s2","sentences":[{"text":"Three."}]}]}` + "\n"
	row := func(who, summary string, idx int, label string) string {
		return `{"round":"r1","annotator":"` + who + `","summary_id":"` + summary + `","sentence_idx":` + string(rune('0'+idx)) +
			`,"labelled":true,"label":"` + label + `","relevance":3}` + "\n"
	}
	raw := `{"kind":"export","export_version":1,"what":"raw","exported_at":"2026-01-01T00:00:00Z"}` + "\n" +
		row("w1", "s1", 1, "faithful") + row("w2", "s1", 1, "faithful") + row("w1", "s1", 2, "faithful") + row("w2", "s1", 2, "unfaithful") +
		row("w1", "s2", 1, "faithful") + row("w2", "s2", 1, "faithful")
	ctx := context.Background()
	run := func(t *testing.T, raw string) (domain.ImportStats, error) {
		st, err := tasks.Open(ctx, filepath.Join(t.TempDir(), "t.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		files := []importer.File{{Name: "raw.jsonl", R: strings.NewReader(raw)}, {Name: "docs.jsonl", R: strings.NewReader(docs)}}
		req := domain.ImportRequest{Create: &domain.Project{Slug: "p", Settings: domain.DefaultSettings()}}
		_, stats, _, err := importer.Write(ctx, st, req, "", files, importer.Options{})
		if err == nil {
			counts, err := st.RoundGoldCounts(ctx, 1)
			if err != nil || len(counts) != 1 || counts[0].Unanimous != 2 || counts[0].Pending != 1 {
				t.Errorf("gold after the import: %+v, %v; want 2 unanimous and 1 pending", counts, err)
			}
		}
		return stats, err
	}
	stats, err := run(t, raw)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Documents != 2 || stats.Labels != 6 || stats.SummaryLabels != 4 || stats.Assignments != 4 {
		t.Errorf("stats %+v", stats)
	}

	_, err = run(t, raw+row("w3", "s2", 2, "faithful"))
	var in *importer.InputError
	if !errors.As(err, &in) && domain.ErrorCode(err) != domain.EInvalid {
		t.Fatalf("a label on a sentence s2 lacks: %v", err)
	}
	if !strings.Contains(err.Error(), "raw.jsonl:8") {
		t.Errorf("the error does not name raw.jsonl:8: %v", err)
	}
}
