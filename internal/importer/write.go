package importer

import (
	"context"

	"annotate/internal/domain"
	"annotate/internal/tasks"
)

// InputError is a problem with the files of an import (see Errors for
// those that name a file, line and field), as opposed to one the database
// raised while writing.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }

// Unwrap returns the problem.
func (e *InputError) Unwrap() error { return e.Err }

// Write imports files into the store in one transaction, for the command
// line, the Import page and the API alike. Native files (format native,
// or detected as native) are streamed: each document is checked and
// written as its line is read (StreamNative), so that memory stays
// bounded by the largest document whatever the size of the files; the
// files are read and checked on one goroutine while the transaction
// writes on another. Other
// formats, which join several files, are parsed whole (Parse) and then
// written. Either way a problem anywhere writes nothing; problems with the
// files are *InputError. req.Documents, req.Labels, req.Scales and
// req.ErrorTaxonomy are filled from the files; with req.Create the project
// is made in the same transaction.
func Write(ctx context.Context, store *tasks.Store, req domain.ImportRequest, format string, files []File, opts Options) (*Result, domain.ImportStats, []domain.Change, error) {
	if Streamable(format, files) {
		var res *Result
		st, changes, err := store.ImportStream(ctx, req, func(w *tasks.ImportWriter) error {
			// The files are read and checked on another goroutine while
			// this one writes what was read before (see pipeSink).
			pipe := newPipeSink()
			var readErr error
			go func() {
				defer pipe.close()
				res, readErr = StreamNative(files, opts, pipe)
			}()
			if err := pipe.run(w); err != nil {
				return err // the writer's error, which came first in the files
			}
			if readErr != nil {
				return &InputError{readErr}
			}
			return nil
		})
		if err != nil {
			return nil, domain.ImportStats{}, nil, err
		}
		return res, st, changes, nil
	}
	res, err := ParseWith(format, files, opts)
	if err != nil {
		return nil, domain.ImportStats{}, nil, &InputError{err}
	}
	req.Documents, req.Labels, req.Scales, req.ErrorTaxonomy = res.Documents, res.Labels, res.Scales, res.ErrorTaxonomy
	st, changes, err := store.ImportWith(ctx, req)
	if err != nil {
		return nil, domain.ImportStats{}, nil, err
	}
	return res, st, changes, nil
}
