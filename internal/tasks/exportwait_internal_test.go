package tasks

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"annotate/internal/domain"
)

// TestBeginExportWaitsBoundedlyForAConnection: while every read
// connection is held elsewhere, BeginExport gives up after exportConnWait
// with an EUnavailable error instead of waiting until its caller does;
// once a connection is free it starts.
func TestBeginExportWaitsBoundedlyForAConnection(t *testing.T) {
	ctx := context.Background()
	s := openTempStore(t)
	p, err := s.CreateProject(ctx, domain.Project{Slug: "p", Settings: domain.DefaultSettings()})
	if err != nil {
		t.Fatal(err)
	}
	defer func(d time.Duration) { exportConnWait = d }(exportConnWait)
	exportConnWait = 50 * time.Millisecond
	var held []*sql.Conn
	for range s.ReadConns() {
		c, err := s.read.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	// The bound of the test, far past exportConnWait: a BeginExport that
	// waits for its caller fails here with the context's error.
	bounded, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	r, err := s.BeginExport(bounded, domain.ExportScope{ProjectID: p.ID})
	if err == nil {
		r.Close()
		t.Fatal("an export began with every read connection held")
	}
	if domain.ErrorCode(err) != domain.EUnavailable || bounded.Err() != nil {
		t.Fatalf("err = %v (code %q), want EUnavailable before the caller's context ends", err, domain.ErrorCode(err))
	}
	held[0].Close()
	r, err = s.BeginExport(bounded, domain.ExportScope{ProjectID: p.ID})
	if err != nil {
		t.Fatalf("with a free connection: %v", err)
	}
	r.Close()
	for _, c := range held[1:] {
		c.Close()
	}
}
