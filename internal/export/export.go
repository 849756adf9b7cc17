package export

import (
	"context"
	"io"
	"slices"
	"strings"
	"time"

	"annotate/internal/domain"
	"annotate/internal/studies"
	"annotate/internal/tasks"
)

// What an export holds.
const (
	Gold     = "gold"     // one record per summary: sentence gold with provenance, summary label, scores
	Raw      = "raw"      // one row per sentence × annotator
	TofuEval = "tofueval" // TofuEval's factual-consistency CSV columns
	Scores   = "scores"   // per summary and per model scores
	Stale    = "stale"    // labels given on a text a re-import replaced
)

// Output formats.
const (
	JSONL = "jsonl"
	CSV   = "csv"
)

// Kinds lists what can be exported, for flags and forms.
var Kinds = []string{Gold, Raw, TofuEval, Scores, Stale}

// NoGold is the provenance filter value that matches sentences (or, for
// scores, summaries) without any gold.
const NoGold = "none"

// formats lists the formats each kind can be written in, the default first.
var formats = map[string][]string{
	Gold:     {JSONL, CSV},
	Raw:      {JSONL, CSV},
	TofuEval: {CSV},
	Scores:   {CSV, JSONL},
	Stale:    {JSONL, CSV},
}

// Formats returns the formats a kind can be written in, the default first.
func Formats(what string) []string { return slices.Clone(formats[what]) }

// Options choose what an export holds.
type Options struct {
	What   string // Gold, Raw, TofuEval or Scores
	Format string // JSONL or CSV; "" picks the kind's default
	Round  string // a round's name; "" exports every round
	// Provenance keeps only gold of these provenances (tasks.GoldProvenances
	// or NoGold); empty keeps everything.
	Provenance []string
	// Anonymise replaces usernames by the project's pseudonyms
	// ("Annotator 1", ...; see tasks.Pseudonyms), the numbers the pages use.
	Anonymise bool
	// KeepFormulas writes CSV cells as stored. By default a cell beginning
	// with =, +, -, @, tab or carriage return (and not a number) gets a
	// leading apostrophe so that spreadsheets do not run it as a formula.
	KeepFormulas bool
	// Since keeps only what changed at or after it: labels saved or
	// submitted, summaries with gold decided. Zero keeps everything.
	Since time.Time
	Now   time.Time // the export time; zero means now
	// OneCore reads on one connection and writes on the reading
	// goroutine, for an export made while people work, which should leave
	// them the other processors (see report.Options.OneCore). It changes
	// no byte of the export.
	OneCore bool
}

// Header names what an export holds. It is the first line of a JSON Lines
// export; a CSV export carries it beside the file (FILE.meta.json) or in
// the response headers of a download.
type Header struct {
	Kind          string   `json:"kind"` // always "export"
	Version       int      `json:"export_version"`
	What          string   `json:"what"`
	Format        string   `json:"format"`
	Project       string   `json:"project"`
	ProjectName   string   `json:"project_name"`
	Round         string   `json:"round,omitempty"`
	Provenance    []string `json:"provenance,omitempty"`
	Anonymised    bool     `json:"anonymised,omitempty"`
	Since         string   `json:"since,omitempty"`
	ExportedAt    string   `json:"exported_at"`
	SchemaVersion int      `json:"schema_version"`
	Columns       []string `json:"columns,omitempty"`
}

// HeaderKind is Header.Kind, which tells the header from data records.
const HeaderKind = "export"

// formatVersion is Header.Version: bumped when a format changes shape.
const formatVersion = 2

// Export is a checked export, ready to write.
type Export struct {
	store *tasks.Store
	// studies maps participants of the project's studies to their study
	// and condition; nil when the project has no study.
	studies map[int64]studies.Membership
	checks  map[int64]bool // assignments that are attention checks
	// conditions maps study assignments to the assistance condition they
	// were dealt in (per item when a study randomises by item).
	conditions map[int64]string
	project    *domain.Project
	roundID    int64
	opt        Options
	header     Header
	records    int
	// reader is the snapshot Open started, until Write or Close ends it.
	reader *tasks.ExportReader
}

// New checks the options against the project: a known kind and format,
// known provenances and, when given, a round of the project. Problems are
// tasks errors naming the field (EInvalid, or ENotFound for the round).
func New(ctx context.Context, store *tasks.Store, project *domain.Project, opt Options) (*Export, error) {
	allowed, ok := formats[opt.What]
	if !ok {
		return nil, domain.Errorf(domain.EInvalid, "what: %q is not one of %s", opt.What, strings.Join(Kinds, ", "))
	}
	if opt.Format == "" {
		opt.Format = allowed[0]
	}
	if !slices.Contains(allowed, opt.Format) {
		return nil, domain.Errorf(domain.EInvalid, "format: a %s export is written as %s, not %q", opt.What, strings.Join(allowed, " or "), opt.Format)
	}
	var provs []string
	for _, p := range opt.Provenance {
		if p = strings.ToLower(strings.TrimSpace(p)); p == "" || slices.Contains(provs, p) {
			continue
		}
		if !slices.Contains(domain.GoldProvenances, p) && p != NoGold {
			return nil, domain.Errorf(domain.EInvalid, "provenance: %q is not one of %s, %s", p, strings.Join(domain.GoldProvenances, ", "), NoGold)
		}
		provs = append(provs, p)
	}
	opt.Provenance = provs
	e := &Export{store: store, project: project, opt: opt}
	if opt.What == Raw {
		ps, err := studies.New(store).ProjectParticipants(ctx, project.ID)
		if err != nil {
			return nil, err
		}
		if len(ps) > 0 {
			e.studies = ps
			if e.checks, err = studies.New(store).ProjectChecks(ctx, project.ID); err != nil {
				return nil, err
			}
			if e.conditions, err = studies.New(store).ItemConditions(ctx, project.ID); err != nil {
				return nil, err
			}
		}
	}
	if opt.Round != "" {
		r, err := store.RoundByName(ctx, project.ID, opt.Round)
		if err != nil {
			if domain.ErrorCode(err) == domain.ENotFound {
				return nil, domain.Errorf(domain.ENotFound, "round: project %s has no round named %q", project.Slug, opt.Round)
			}
			return nil, err
		}
		e.roundID = r.ID
	}
	v, err := store.SchemaVersion(ctx)
	if err != nil {
		return nil, err
	}
	now := opt.Now
	if now.IsZero() {
		now = time.Now()
	}
	e.header = Header{Kind: HeaderKind, Version: formatVersion, What: opt.What, Format: opt.Format, Project: project.Slug, ProjectName: project.Name,
		Round: opt.Round, Provenance: provs, Anonymised: opt.Anonymise, ExportedAt: now.UTC().Format(time.RFC3339), SchemaVersion: v}
	if !opt.Since.IsZero() {
		e.header.Since = opt.Since.UTC().Format(time.RFC3339Nano)
	}
	if opt.Format == CSV {
		e.header.Columns = e.columns()
	}
	return e, nil
}

// Header returns what the export will say about itself.
func (e *Export) Header() Header { return e.header }

// Filename suggests a file name: project, kind, round and time.
func (e *Export) Filename() string {
	parts := []string{e.project.Slug, e.opt.What}
	if e.opt.Round != "" {
		parts = append(parts, safeName(e.opt.Round))
	}
	t, _ := time.Parse(time.RFC3339, e.header.ExportedAt)
	parts = append(parts, t.Format("20060102T150405Z"))
	return strings.Join(parts, "-") + "." + e.opt.Format
}

// ContentType is the media type of the export.
func (e *Export) ContentType() string {
	if e.opt.Format == CSV {
		return "text/csv; charset=utf-8"
	}
	return "application/jsonl; charset=utf-8"
}

// safeName keeps letters, digits, dots, dashes and underscores.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, s)
}

// Open starts the export's read of the database (its snapshot), so that a
// database that cannot serve it now fails before anything is sent: the
// error is EUnavailable when no read connection frees up in time. Write
// opens it itself when Open was not called; Write or Close ends it.
func (e *Export) Open(ctx context.Context) error {
	if e.reader != nil {
		return nil
	}
	r, err := e.store.BeginExport(ctx, domain.ExportScope{ProjectID: e.project.ID, RoundID: e.roundID, OneConnection: e.opt.OneCore})
	if err != nil {
		return err
	}
	e.reader = r
	return nil
}

// Close ends the read Open started, when Write has not.
func (e *Export) Close() error {
	if e.reader == nil {
		return nil
	}
	r := e.reader
	e.reader = nil
	return r.Close()
}

// Write streams the export to w. It reads one snapshot of the database; an
// error part-way leaves w with what was written so far.
func (e *Export) Write(ctx context.Context, w io.Writer) error {
	if err := e.Open(ctx); err != nil {
		return err
	}
	r := e.reader
	defer e.Close()
	var err error
	x := &run{Export: e, r: r}
	if x.names, err = e.names(ctx, r); err != nil {
		return err
	}
	out, err := newSink(w, e.opt.Format, e.header, e.columns(), e.opt.KeepFormulas)
	if err != nil {
		return err
	}
	x.out = out
	switch e.opt.What {
	case Gold:
		err = x.gold(ctx)
	case Raw:
		err = x.raw(ctx)
	case TofuEval:
		err = x.tofueval(ctx)
	case Scores:
		err = x.scores(ctx)
	case Stale:
		err = x.stale(ctx)
	}
	if err != nil {
		return err
	}
	if err := out.end(); err != nil {
		return err
	}
	e.records = out.count()
	return nil
}

// Records is the number of data records (JSON Lines) or rows (CSV, not
// counting the column names) the last complete Write wrote.
func (e *Export) Records() int { return e.records }

// run is one export being written.
type run struct {
	*Export
	r     *tasks.ExportReader
	out   sink
	names map[int64]string // pseudonyms by user id, when anonymising
}

// names numbers the people of the export when anonymising.
func (e *Export) names(ctx context.Context, r *tasks.ExportReader) (map[int64]string, error) {
	if !e.opt.Anonymise {
		return nil, nil
	}
	ids, err := r.People(ctx)
	if err != nil {
		return nil, err
	}
	aliases, err := r.Pseudonyms(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]string, len(ids))
	for _, id := range ids {
		out[id] = aliases.ID(id)
	}
	return out, nil
}

// person is how the export names a user.
func (x *run) person(id int64, username string) string {
	if x.names == nil || id == 0 {
		return username
	}
	return x.names[id]
}

// keep reports whether gold of provenance prov (NoGold for none) passes
// the provenance filter.
func (x *run) keep(prov string) bool {
	if prov == "" {
		prov = NoGold
	}
	return len(x.opt.Provenance) == 0 || slices.Contains(x.opt.Provenance, prov)
}

// goldProv is the provenance of a possibly missing gold label.
func goldProv(g *domain.ExportGold) string {
	if g == nil {
		return NoGold
	}
	return g.Provenance
}
