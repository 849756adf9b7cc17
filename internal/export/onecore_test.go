package export_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/export"
	"annotate/internal/importer"
	"annotate/internal/tasks"
)

// TestRawOneCoreWithScales exports, as a raw export, a project whose
// annotators gave rating-scale scores, once as a quiet server does and
// once on one core as a busy one does (Options.OneCore): the two must be
// the same bytes, scores included.
func TestRawOneCoreWithScales(t *testing.T) {
	ctx := context.Background()
	st, err := tasks.Open(ctx, filepath.Join(t.TempDir(), "sc.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var b strings.Builder
	b.WriteString(`{"scales":[{"name":"consistency","level":"summary","min":1,"max":5},` +
		`{"name":"support","level":"sentence","categories":["direct","inferred","absent"]}]}` + "\n")
	cats := []string{"direct", "inferred", "absent"}
	for i := range 40 {
		var labels, sent []string
		for j, r := range []string{"r1", "r2", "r3"} {
			labels = append(labels, fmt.Sprintf(`{"annotator":%q,"scores":{"consistency":%d}}`, r, 1+(i+j)%5))
			sent = append(sent, fmt.Sprintf(`{"annotator":%q,"label":"faithful","scores":{"support":%q}}`, r, cats[(i*j)%3]))
		}
		fmt.Fprintf(&b, `{"id":"d%d","text":"Doc %d.","summaries":[{"id":"s%d","sentences":[{"text":"Summary %d.","labels":[%s]}],"labels":[%s]}]}`+"\n",
			i, i, i, i, strings.Join(sent, ","), strings.Join(labels, ","))
	}
	data := b.String()
	files := []importer.File{{Name: "sc.jsonl", R: strings.NewReader(data), Size: int64(len(data))}}
	req := domain.ImportRequest{Create: &domain.Project{Slug: "sc", Settings: domain.DefaultSettings()}}
	if _, _, _, err := importer.Write(ctx, st, req, "", files, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	p, err := st.ProjectBySlug(ctx, "sc")
	if err != nil {
		t.Fatal(err)
	}
	write := func(oneCore bool) []byte {
		e, err := export.New(ctx, st, p, export.Options{What: export.Raw, OneCore: oneCore, Now: exportTime})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := e.Write(ctx, &buf); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	all, one := write(false), write(true)
	if n := bytes.Count(all, []byte(`"consistency":`)); n < 100 {
		t.Fatalf("%d consistency scores in the export, want 120", n)
	}
	if !bytes.Equal(all, one) {
		t.Fatalf("the export on one core differs:\n%s\nwant\n%s", one, all)
	}
}
