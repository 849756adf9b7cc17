package tasks

import (
	"context"
	"testing"
)

// TestProjectLabelsUpTo: the bounded count of a project's sentence labels
// is the full count (UpdateSettingsPreview, counted here again by a query
// of its own) when the limit is above it, and the limit otherwise; the
// other project's labels do not count.
func TestProjectLabelsUpTo(t *testing.T) {
	s := labelScanStore(t, 3)
	ctx := context.Background()
	for _, slug := range []string{"big", "small"} {
		p, err := s.ProjectBySlug(ctx, slug)
		if err != nil {
			t.Fatal(err)
		}
		var want int
		if err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM sentence_labels WHERE assignment_id IN
			(SELECT a.id FROM assignments a JOIN rounds r ON r.id = a.round_id WHERE r.project_id = ?)`, p.ID).Scan(&want); err != nil {
			t.Fatal(err)
		}
		if want < 3 {
			t.Fatalf("%s: %d labels, too few for this test", slug, want)
		}
		if n, err := s.UpdateSettingsPreview(ctx, p.ID); err != nil || n != want {
			t.Fatalf("%s: UpdateSettingsPreview = %d, %v; want %d", slug, n, err, want)
		}
		for _, limit := range []int{1, want - 1, want, want + 1, 1 << 30} {
			n, err := s.ProjectLabelsUpTo(ctx, p.ID, limit)
			if err != nil || n != min(want, limit) {
				t.Fatalf("%s: ProjectLabelsUpTo(%d) = %d, %v; want %d", slug, limit, n, err, min(want, limit))
			}
		}
	}
}
