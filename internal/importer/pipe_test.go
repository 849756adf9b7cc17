package importer_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/importer"
	"annotate/internal/tasks"
)

// A native import is read on one goroutine and written on another: when
// the writer refuses the first document (its labels name an account that
// is not an annotator of the project), that refusal is the error, not a
// problem of a line read after it, and nothing is kept, not even the
// project the import was to create.
func TestStreamWriterRefusalComesFirst(t *testing.T) {
	ctx := context.Background()
	st, err := tasks.Open(ctx, filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.CreateUser(ctx, "rater001", "", "a long enough password", false); err != nil {
		t.Fatal(err)
	}
	data := append(benchNative(300), []byte(`{"id":"broken",`+"\n")...)
	files := []importer.File{{Name: "big.jsonl", R: bytes.NewReader(data), Size: int64(len(data))}}
	req := domain.ImportRequest{Create: &domain.Project{Slug: "p", Settings: domain.DefaultSettings()}}
	_, _, _, err = importer.Write(ctx, st, req, "", files, importer.Options{})
	var in *importer.InputError
	if err == nil || errors.As(err, &in) || !strings.Contains(err.Error(), `"rater001" is an account of this server but not an annotator of this project`) {
		t.Fatalf("err = %v (input error: %v), want the writer's refusal", err, errors.As(err, &in))
	}
	if _, err := st.ProjectBySlug(ctx, "p"); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatalf("the refused import left its project: %v", err)
	}

	// Without the account, the broken last line is the error, naming it.
	st2, err := tasks.Open(ctx, filepath.Join(t.TempDir(), "t2.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	files[0].R = bytes.NewReader(data)
	_, _, _, err = importer.Write(ctx, st2, req, "", files, importer.Options{})
	if !errors.As(err, &in) || !strings.Contains(err.Error(), "big.jsonl:301") {
		t.Fatalf("err = %v, want an input error at big.jsonl:301", err)
	}
	if _, err := st2.ProjectBySlug(ctx, "p"); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatalf("the refused import left its project: %v", err)
	}
}
