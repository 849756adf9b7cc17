package app

import (
	"context"

	"annotate/internal/domain"
	"annotate/internal/importer"
)

// ImportRequest asks to import files into a project, or into a project
// the import makes.
type ImportRequest struct {
	// Project receives the files; with Create nil it must be set.
	Project *domain.Project
	// Create makes this project in the import's transaction: a refused
	// import leaves none behind. It takes the files' error taxonomy.
	Create  *domain.Project
	Format  string // "" detects it
	Files   []importer.File
	Options importer.Options
	// Update applies corrections to what is there; Relabel, with Update,
	// replaces changed text where annotators have labelled it.
	Update, Relabel bool
	// DryRun checks everything and writes nothing.
	DryRun bool
}

// Import checks and writes the files in one transaction: native files
// streamed, the published formats read whole (see importer.Write).
// Problems with the files are *importer.InputError naming file, line and
// field; differences with what is there, *tasks.ChangesError.
func (a *App) Import(ctx context.Context, req ImportRequest) (*importer.Result, domain.ImportStats, []domain.Change, error) {
	var c check
	if req.Relabel && !req.Update {
		c.add("relabel", "replacing labelled text needs update too")
	}
	if req.Project == nil && req.Create == nil {
		c.add("project", "name the project to import into")
	}
	if len(req.Files) == 0 {
		c.add("files", "give at least one file")
	}
	if err := c.err(); err != nil {
		return nil, domain.ImportStats{}, nil, domain.Op("App.Import", err)
	}
	tr := domain.ImportRequest{Update: req.Update, Relabel: req.Relabel, DryRun: req.DryRun}
	if req.Create != nil {
		tr.Create = req.Create
	} else {
		tr.Project = req.Project.ID
	}
	val1, val2, val3, err := importer.Write(ctx, a.store, tr, req.Format, req.Files, req.Options)
	return val1, val2, val3, domain.Op("App.Import", err)
}
