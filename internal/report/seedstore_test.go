package report_test

import (
	"context"
	"path/filepath"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/reportseed"
	"annotate/internal/tasks"
)

// seededProject makes a reportseed project with opt in a new database and
// returns the open store (closed when the test ends) and project "big".
func seededProject(t *testing.T, opt reportseed.Options) (*tasks.Store, *domain.Project) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "seed.db")
	if _, err := reportseed.Seed(ctx, path, opt); err != nil {
		t.Fatal(err)
	}
	store, err := tasks.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	p, err := store.ProjectBySlug(ctx, "big")
	if err != nil {
		t.Fatal(err)
	}
	return store, p
}
