// Package app holds annotate's operations as the command line, the pages
// and the JSON API all perform them: start a round, import files, build a
// report for a reader, import the assistant's runs, set up the demo. Each
// checks its request and the project's rules once, here,
// and answers with errors that name the field at fault (see Invalid), so
// the three front ends only parse their input and render the answer.
package app

import (
	"context"
	"errors"
	"strings"
	"time"

	"annotate/internal/assiststore"
	"annotate/internal/domain"
	"annotate/internal/studies"
	"annotate/internal/tasks"
)

// App performs the operations on one store. Rounds, reports and studies
// reach the store only through the small interfaces below, so their rules
// can be exercised on values held in memory; imports and the demo write
// through the SQLite store itself.
type App struct {
	store   *tasks.Store
	rounds  roundStore
	reports reportStore
	work    workStore
	studies *studies.Store
	assists *assiststore.Store
	now     func() time.Time
}

// roundStore is what starting a round needs: the project's members, to
// check who may be dealt work, and the store's dealing.
type roundStore interface {
	Members(ctx context.Context, projectID int64) ([]domain.Member, error)
	StartRound(ctx context.Context, projectID int64, req domain.RoundRequest) (*domain.Round, error)
}

// reportStore is what a report for a reader needs: the project's report
// data and its pseudonyms.
type reportStore interface {
	ReportData(ctx context.Context, projectID int64, f domain.ReportFilter) (*domain.ReportData, error)
	Pseudonyms(ctx context.Context, projectID int64) (domain.Pseudonyms, error)
}

// workStore is what a study reads of the project's rounds and labels.
type workStore interface {
	ProjectByID(ctx context.Context, id int64) (*domain.Project, error)
	Queue(ctx context.Context, projectID, userID int64) ([]domain.Assignment, error)
	RoundSummaryIDs(ctx context.Context, roundID int64) ([]int64, error)
	RoundByName(ctx context.Context, projectID int64, name string) (*domain.Round, error)
	SentenceLabels(ctx context.Context, assignmentID int64) (map[int64]domain.SentenceLabel, error)
	Summary(ctx context.Context, id int64) (*domain.Summary, error)
	SummaryGold(ctx context.Context, summaryID int64) (map[int64]domain.Gold, error)
	SummaryIDs(ctx context.Context, projectID int64, documents []string) ([]int64, error)
}

// New returns the operations on store.
func New(store *tasks.Store) *App {
	return &App{store: store, rounds: store, reports: store, work: store,
		studies: studies.New(store), assists: assiststore.New(store), now: time.Now}
}

// SetClock makes now the operations' clock (time.Now by default), for the
// server's injectable clock and tests of time limits.
func (a *App) SetClock(now func() time.Time) {
	if now != nil {
		a.now = now
	}
}

// FieldError is one field of a request at fault and what is wrong with it,
// in words a person reads.
type FieldError struct {
	Field   string // as the API names it: "name", "annotators[2]"
	Message string
}

// Invalid is a request refused for its fields; nothing was written. It
// counts as a tasks.EInvalid error.
type Invalid struct {
	Fields []FieldError
}

func (e *Invalid) Error() string {
	parts := make([]string, len(e.Fields))
	for i, f := range e.Fields {
		parts[i] = f.Field + ": " + f.Message
	}
	return strings.Join(parts, "; ")
}

// Unwrap lets errors.Is and tasks.ErrorCode see an EInvalid error.
func (e *Invalid) Unwrap() error { return domain.Errorf(domain.EInvalid, "%s", e.Error()) }

// AsInvalid returns err's field errors when it is an *Invalid.
func AsInvalid(err error) (*Invalid, bool) {
	var in *Invalid
	ok := errors.As(err, &in)
	return in, ok
}

// check collects field errors.
type check struct{ fields []FieldError }

func (c *check) add(field, msg string) { c.fields = append(c.fields, FieldError{field, msg}) }

func (c *check) err() error {
	if len(c.fields) == 0 {
		return nil
	}
	return &Invalid{Fields: c.fields}
}
