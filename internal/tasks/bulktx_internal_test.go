package tasks

import (
	"context"
	"database/sql"
	"errors"
	"testing"
	"time"

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

// TestImportChecksForeignKeysUnlessItMakesItsProject checks that an import
// that makes its project runs without SQLite's foreign-key checks, every
// other import with them, that the writer has them back afterwards
// whether the import was written or refused, and that an import that
// makes its project refuses content given before the project is made.
func TestImportChecksForeignKeysUnlessItMakesItsProject(t *testing.T) {
	ctx := context.Background()
	s := openTempStore(t)
	p, err := s.CreateProject(ctx, domain.Project{Slug: "p", Settings: domain.DefaultSettings()})
	if err != nil {
		t.Fatal(err)
	}
	keys := func(q interface {
		QueryRowContext(context.Context, string, ...any) *sql.Row
	}) int {
		t.Helper()
		var v int
		if err := q.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	doc := func(id string) *domain.DocumentInput {
		return &domain.DocumentInput{ExternalID: id, Sentences: []string{"A."},
			Summaries: []domain.SummaryInput{{ExternalID: id + "-s", Sentences: []domain.SentenceInput{{Text: "A."}}}}}
	}
	refused := errors.New("refused")
	cases := []struct {
		name string
		req  domain.ImportRequest
		want int // PRAGMA foreign_keys during the import
	}{
		{"into a project", domain.ImportRequest{Project: p.ID}, 1},
		{"update", domain.ImportRequest{Project: p.ID, Update: true}, 1},
		{"making its project", domain.ImportRequest{Create: &domain.Project{Slug: "new", Settings: domain.DefaultSettings()}}, 0},
		{"making its project, update", domain.ImportRequest{Create: &domain.Project{Slug: "new2", Settings: domain.DefaultSettings()}, Update: true, Relabel: true}, 1},
	}
	for _, c := range cases {
		for _, fail := range []bool{true, false} {
			during := -1
			_, _, err := s.ImportStream(ctx, c.req, func(w *ImportWriter) error {
				if err := w.Begin(""); err != nil {
					return err
				}
				during = keys(w.im.tx)
				if fail {
					return refused
				}
				return w.Document(doc("d-" + c.name))
			})
			if fail != errors.Is(err, refused) || (!fail && err != nil) {
				t.Fatalf("%s, fail %v: err = %v", c.name, fail, err)
			}
			if during != c.want {
				t.Errorf("%s, fail %v: foreign_keys %d during the import, want %d", c.name, fail, during, c.want)
			}
			if after := keys(s.write); after != 1 {
				t.Errorf("%s, fail %v: foreign_keys %d after the import, want 1", c.name, fail, after)
			}
		}
	}

	// Content before the project it goes into is made is refused, and
	// nothing is written.
	for _, fill := range []func(w *ImportWriter) error{
		func(w *ImportWriter) error { return w.Document(doc("early")) },
		func(w *ImportWriter) error {
			return w.Scales([]domain.Scale{{Name: "support", Level: domain.LevelSentence, Categories: []string{"yes", "no"}}})
		},
		func(w *ImportWriter) error { return nil },
	} {
		_, _, err := s.ImportStream(ctx, domain.ImportRequest{Create: &domain.Project{Slug: "early", Settings: domain.DefaultSettings()}}, fill)
		if !errors.Is(err, errNotBegun) {
			t.Errorf("content before the project is made: %v, want errNotBegun", err)
		}
	}
	var n int
	if err := s.write.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM projects WHERE slug = 'early') + (SELECT count(*) FROM documents WHERE external_id = 'early')`).Scan(&n); err != nil || n != 0 {
		t.Errorf("refused imports wrote %d rows (%v)", n, err)
	}
}

// TestBulkTxPreparesWantedStatementsOnceItLetsTheWriterGo checks that a
// bulk transaction that ends while another transaction's statement waits
// to be prepared (see cachedTx) prepares it once it has given the
// writer's one connection back, rather than waiting for that connection
// while holding it until its context ends.
func TestBulkTxPreparesWantedStatementsOnceItLetsTheWriterGo(t *testing.T) {
	s := openTempStore(t)
	const query = `SELECT count(*) FROM projects`
	if st := s.writeStmts.lookup(query); st != nil {
		t.Fatal("the statement is prepared before any transaction ran it")
	}
	// A deadline the fixed code is far from, and that ends the wait of a
	// transaction that waits for itself.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := s.bulkTx(ctx, func(tx *sql.Tx) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if ctx.Err() != nil {
		t.Fatal("the bulk transaction returned only when its context ended: it waited for its own connection")
	}
	if st := s.writeStmts.lookup(query); st == nil {
		t.Error("the statement another transaction wanted is not prepared after the bulk transaction")
	}
}
