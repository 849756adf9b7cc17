package tasks

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"annotate/internal/domain"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// Store is the SQLite database of annotate. Writes go through a pool of one
// connection (SQLite allows one writer at a time; queueing in Go is cheaper
// than busy-waiting in SQLite); reads use a wider pool, which WAL allows to
// run beside the writer.
type Store struct {
	write      *sql.DB
	read       *sql.DB
	readStmts  stmtCache
	writeStmts stmtCache
	path       string
	busy       time.Duration // how long a statement waits for a lock (WithBusyTimeout)
	now        func() time.Time
	// owner names this process in the leases of the assistant runs it
	// runs: host, process id and a random part.
	owner      string
	checkpoint *sql.DB       // one connection that checkpoints the WAL (checkpoint.go)
	stop       chan struct{} // closed by Close; ends the optimizer and checkpointer
	stopped    chan struct{}
	// reportApart lets one report or export reading at a time hold two
	// read connections (reportdata.go, exportlabels.go).
	reportApart chan struct{}
	// members keeps the adjudication queue's round members between
	// views (membership.go).
	members membershipCache
	// goldKick wakes KeepGoldIndexCurrent (gold_index_keeper.go).
	goldKick chan struct{}
}

// Ping checks that the database file answers a query, on the read pool:
// the one writer may rightly be busy with a long import, which is no
// reason to call the server unhealthy.
func (s *Store) Ping(ctx context.Context) error {
	var n int
	if err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema`).Scan(&n); err != nil {
		return fmt.Errorf("database: %w", err)
	}
	return nil
}

// SetClock replaces the store's clock, for tests that need time to pass
// without waiting for it.
func (s *Store) SetClock(now func() time.Time) { s.now = now }

// optimizeEvery is how often an open store runs PRAGMA optimize, which
// refreshes the planner's statistics of tables that changed a lot.
const optimizeEvery = time.Hour

// DefaultBusyTimeout is how long a statement waits for a lock held
// elsewhere before it fails as busy, unless [WithBusyTimeout] says
// otherwise.
const DefaultBusyTimeout = 10 * time.Second

// OpenOption is a choice [Open] takes.
type OpenOption func(*openConfig)

type openConfig struct {
	busy     time.Duration
	existing bool
	migrate  func(from, to int)
	// template: a new database file may be a copy of the tests' schema
	// template (see UseSchemaTemplateForTests); false when making it.
	template bool
}

// Existing makes [Open] refuse a path where no database file exists
// instead of creating one: commands that only read or change what a
// project holds use it, so that a mistyped --db fails with its name
// rather than leaving an empty database behind.
func Existing() OpenOption {
	return func(c *openConfig) { c.existing = true }
}

// WithBusyTimeout sets how long a statement waits for a lock another
// connection or process holds (another process's import, a backup)
// before it fails with a busy error, which the web answers with 503
// "busy, retry". SQLite counts it in whole milliseconds; it must be
// positive.
func WithBusyTimeout(d time.Duration) OpenOption {
	return func(c *openConfig) { c.busy = d }
}

// WithMigrationNotice has [Open] call notice before it brings a database
// made by an older build to this build's schema, with the two versions,
// so that a command can say why its start takes long: remaking a large
// table (migration 45 remakes the sentence labels') takes seconds per
// million rows. It is not called for a new database.
func WithMigrationNotice(notice func(from, to int)) OpenOption {
	return func(c *openConfig) { c.migrate = notice }
}

// Open opens (creating if needed, readable by its owner only) the database
// file at path and brings its schema up to date.
func Open(ctx context.Context, path string, opts ...OpenOption) (*Store, error) {
	cfg := openConfig{busy: DefaultBusyTimeout, template: true}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.busy < time.Millisecond {
		return nil, domain.Op("Open", fmt.Errorf("busy timeout %v is under a millisecond", cfg.busy))
	}
	if cfg.existing {
		if err := mustExist(path); err != nil {
			return nil, domain.Op("Open", err)
		}
	} else if created, err := createPrivate(path); err != nil {
		return nil, domain.Op("Open", err)
	} else if created && cfg.template {
		if err := copySchemaTemplate(ctx, path); err != nil {
			return nil, domain.Op("Open", err)
		}
	}
	write, err := openPool(path, true, cfg.busy)
	if err != nil {
		return nil, domain.Op("Open", err)
	}
	write.SetMaxOpenConns(1)
	write.SetMaxIdleConns(1)
	write.SetConnMaxLifetime(0)
	s := &Store{write: write, path: path, busy: cfg.busy, now: time.Now, reportApart: make(chan struct{}, 1), owner: processOwner(),
		goldKick: make(chan struct{}, 1)}
	if err := s.migrate(ctx, cfg.migrate); err != nil {
		write.Close()
		return nil, fmt.Errorf("database %s: %w", path, err)
	}
	read, err := openPool(path, false, cfg.busy)
	if err != nil {
		write.Close()
		return nil, domain.Op("Open", err)
	}
	read.SetMaxOpenConns(readConns())
	read.SetMaxIdleConns(readConns())
	s.read = read
	s.readStmts.db = read
	s.writeStmts.db = write
	// At open: analyze what has never been analyzed, with a bounded
	// effort (analysis_limit), so that a large database gets planner
	// statistics without a long pause. Analyzing writes: when another
	// process holds the write lock, it is left for the next open or the
	// optimizer's next round rather than waited for.
	if err := s.optimize(ctx, "PRAGMA optimize=0x10002"); err != nil {
		s.Close()
		return nil, fmt.Errorf("database %s: %w", path, err)
	}
	if s.checkpoint, err = openCheckpointer(path); err != nil {
		s.Close()
		return nil, domain.Op("Open", err)
	}
	s.stop, s.stopped = make(chan struct{}), make(chan struct{})
	go s.optimizeLoop()
	return s, nil
}

// optimize analyzes again the indexes whose statistics say they are empty
// but are not (reanalyzeEmpty), then runs pragma (a PRAGMA optimize).
// Analyzing writes, and it does not wait for a write lock another process
// holds (a long import): it gives up at once and succeeds, leaving the
// statistics for the optimizer's next round or the next open, so that
// opening the store and the server's writes never wait behind it.
func (s *Store) optimize(ctx context.Context, pragma string) error {
	conn, err := s.write.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA busy_timeout = 0"); err != nil {
		return err
	}
	err = analyze(ctx, conn, pragma)
	// The connection goes back to the pool with the store's timeout.
	if _, rerr := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", s.busy.Milliseconds())); rerr != nil {
		return rerr
	}
	if busyError(err) {
		return nil
	}
	return err
}

func analyze(ctx context.Context, conn *sql.Conn, pragma string) error {
	if _, err := conn.ExecContext(ctx, "PRAGMA analysis_limit=400"); err != nil {
		return err
	}
	if err := reanalyzeEmpty(ctx, conn); err != nil {
		return err
	}
	_, err := conn.ExecContext(ctx, pragma)
	return err
}

// reanalyzeEmpty analyzes again each index whose statistics say it was
// empty when it was analyzed. PRAGMA optimize judges a table by its row
// count, which the statistics of a partial index do not give:
// gold_sentences_unresolved, analyzed empty in a new database, kept
// statistics of "0 rows" after an import put 200,000 sentences in it,
// and the planner, trusting them, read that index whole where it was the
// worst choice (see pickDocumentsQuery). An index still empty, as some
// stay for good (the failed results' when no result failed), is left
// alone: its root page (dbstat) holds no entry. Analyzing it at every
// open wrote to the database each time a command opened it.
func reanalyzeEmpty(ctx context.Context, conn *sql.Conn) error {
	var have bool
	if err := conn.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE name = 'sqlite_stat1')`).Scan(&have); err != nil || !have {
		return err
	}
	var names []string
	err := queryRows(ctx, conn, `SELECT DISTINCT idx FROM sqlite_stat1 WHERE idx IS NOT NULL AND (stat = '0' OR stat LIKE '0 %')`, func(rows *sql.Rows) error {
		var n string
		err := rows.Scan(&n)
		names = append(names, n)
		return err
	})
	if err != nil {
		return err
	}
	for _, n := range names {
		var entries int
		err := conn.QueryRowContext(ctx, `SELECT ncell FROM dbstat WHERE name = ? AND path = '/'`, n).Scan(&entries)
		if err == nil && entries == 0 {
			continue
		}
		// Not known to be empty (or dbstat not there): analyzed.
		if _, err := conn.ExecContext(ctx, `ANALYZE "`+strings.ReplaceAll(n, `"`, `""`)+`"`); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) optimizeLoop() {
	defer close(s.stopped)
	t := time.NewTicker(optimizeEvery)
	defer t.Stop()
	c := time.NewTicker(checkpointEvery)
	defer c.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			s.optimize(context.Background(), "PRAGMA optimize") // a failure only leaves older statistics
		case <-c.C:
			s.checkpointWAL(context.Background()) // a failure leaves it to the next tick, or the writer
		}
	}
}

// driverName is the database/sql driver the store opens; tests swap in a
// wrapper that records the queries.
var driverName = "sqlite"

func openPool(path string, writer bool, busy time.Duration) (*sql.DB, error) {
	q := url.Values{}
	// busy_timeout must come first so the pragmas after it wait for locks.
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busy.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "foreign_keys(ON)")
	q.Add("_pragma", "synchronous(NORMAL)")
	if writer {
		// Take the write lock at BEGIN, so a transaction never fails
		// half-way when it upgrades from reading to writing.
		q.Set("_txlock", "immediate")
		q.Add("_pragma", fmt.Sprintf("wal_autocheckpoint(%d)", writerCheckpointPages))
	} else {
		q.Add("_pragma", "query_only(ON)")
	}
	db, err := sql.Open(driverName, "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	return db, nil
}

// Close closes both pools.
func (s *Store) Close() error {
	if s.stop != nil {
		close(s.stop)
		<-s.stopped
		s.stop = nil
	}
	s.readStmts.close()
	s.writeStmts.close()
	if s.checkpoint != nil {
		s.checkpoint.Close()
	}
	err := s.write.Close()
	if s.read != nil {
		if rerr := s.read.Close(); err == nil {
			err = rerr
		}
	}
	return domain.Op("Store.Close", err)
}

// Path returns the database file's path.
func (s *Store) Path() string { return s.path }

// SchemaVersion returns PRAGMA user_version of the open database.
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	err := s.reader(ctx).QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
	return v, domain.Op("Store.SchemaVersion", err)
}

// IntegrityCheck runs PRAGMA integrity_check and returns its first line
// ("ok" for a sound database).
func (s *Store) IntegrityCheck(ctx context.Context) (string, error) {
	var res string
	err := s.write.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&res)
	return res, domain.Op("Store.IntegrityCheck", err)
}

// tx runs fn in a write transaction and commits it when fn returns nil.
func (s *Store) tx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return txErr(ctx, err)
	}
	err = tx.Commit()
	s.writeStmts.prepareWanted(ctx)
	return txErr(ctx, err)
}

// txErr reports a transaction that database/sql rolled back because the
// request was cancelled (it then answers sql.ErrTxDone to what follows)
// as the cancellation it is, so that a client that went away is not
// logged as a server failure.
func txErr(ctx context.Context, err error) error {
	if errors.Is(err, sql.ErrTxDone) && ctx.Err() != nil {
		return fmt.Errorf("transaction rolled back: %w", ctx.Err())
	}
	return err
}

// stamp formats a time the way the schema's defaults do.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// processOwner names this process for run leases.
func processOwner() string {
	host, _ := os.Hostname()
	b := make([]byte, 4)
	rand.Read(b)
	return fmt.Sprintf("%s/%d/%x", host, os.Getpid(), b)
}

// Owner names this process (this open store) in the leases of the
// assistant runs it executes (see internal/assiststore).
func (s *Store) Owner() string { return s.owner }

// WriteTx runs fn in a write transaction of the store, committed when fn
// returns nil: for the stores of other parts of the application (such as
// studies) that share the database and its one writer.
func (s *Store) WriteTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	return domain.Op("Store.WriteTx", s.tx(ctx, fn))
}

// Querier runs read queries: the pool of read connections, or a
// snapshot's transaction.
type Querier interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
	QueryRowContext(context.Context, string, ...any) *sql.Row
}

// Reader is where the same stores read: the snapshot ctx carries, if any
// (see Snapshot), else the pool of read connections. A read inside a
// snapshot must use it: the snapshot holds a connection of the pool, and
// as many snapshots as the pool has connections, each waiting for a
// second one, would wait for each other until they time out.
func (s *Store) Reader(ctx context.Context) Querier { return s.reader(ctx) }

// Now is the store's clock (see SetClock), for sibling stores that stamp
// rows as this one does.
func (s *Store) Now() time.Time { return s.now() }

// Stamp writes a time as the database keeps times: UTC, milliseconds.
func Stamp(t time.Time) string { return stamp(t) }
