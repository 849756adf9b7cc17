package tasks

import (
	"context"
	"database/sql"
	"errors"
	"testing"

	"annotate/internal/domain"
)

// TestImportKeepsTemporaryStorageInMemoryForItsTransaction checks that an
// import's transaction has the writer's temporary storage in memory, and
// that the writer has it back at the default afterwards, whether the
// import was written or refused.
func TestImportKeepsTemporaryStorageInMemoryForItsTransaction(t *testing.T) {
	ctx := context.Background()
	s := openTempStore(t)
	p, err := s.CreateProject(ctx, domain.Project{Slug: "p", Settings: domain.DefaultSettings()})
	if err != nil {
		t.Fatal(err)
	}
	tempStore := func(q interface {
		QueryRowContext(context.Context, string, ...any) *sql.Row
	}) int {
		t.Helper()
		var v int
		if err := q.QueryRowContext(ctx, "PRAGMA temp_store").Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	refused := errors.New("refused")
	for _, fail := range []bool{false, true} {
		var during int
		_, _, err := s.ImportStream(ctx, domain.ImportRequest{Project: p.ID}, func(w *ImportWriter) error {
			during = tempStore(w.im.tx)
			if fail {
				return refused
			}
			return w.Document(&domain.DocumentInput{ExternalID: "d", Sentences: []string{"A."},
				Summaries: []domain.SummaryInput{{ExternalID: "s", Sentences: []domain.SentenceInput{{Text: "A."}}}}})
		})
		if fail != errors.Is(err, refused) {
			t.Fatalf("fail %v: err = %v", fail, err)
		}
		if during != 2 {
			t.Errorf("fail %v: temp_store %d during the import, want 2 (memory)", fail, during)
		}
		if after := tempStore(s.write); after != 0 {
			t.Errorf("fail %v: temp_store %d after the import, want 0 (the default)", fail, after)
		}
	}
}
