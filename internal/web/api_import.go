package web

import (
	"errors"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"annotate/internal/app"
	"annotate/internal/domain"
	"annotate/internal/importer"
)

// apiImportResult is what an import added, or with dry_run would add.
type apiImportResult struct {
	DryRun bool `json:"dry_run"`
	domain.ImportStats
	Warnings []string `json:"warnings"`
}

// maxFieldErrors bounds the errors one import problem lists.
const maxFieldErrors = 200

// apiImport imports files into a project as the Import page does: the same
// formats (format or detected), every file checked whole before anything
// is written, and nothing written on any error. The files come as
// multipart form fields named files; dry_run=true only checks them.
func (s *Server) apiImport(c echo.Context) error {
	a, err := s.apiAccess(c, true)
	if err != nil {
		return err
	}
	// Files past uploadMemory are spooled to temporary files, which
	// removeUploads deletes after the request.
	err = c.Request().ParseMultipartForm(uploadMemory)
	var form *multipart.Form
	if err == nil {
		form, err = c.MultipartForm()
	}
	var he *echo.HTTPError
	var mbe *http.MaxBytesError
	if errors.As(err, &he) && he.Code == http.StatusRequestEntityTooLarge || errors.As(err, &mbe) {
		return problemf(http.StatusRequestEntityTooLarge, "too-large", "The upload is larger than this server accepts (%d MiB); split the file and import the parts.", s.cfg.MaxUploadBytes>>20)
	}
	if err != nil {
		return invalidParam("files", "send the files as multipart/form-data fields named files: %v", err)
	}
	dryRun := false
	if v := form.Value["dry_run"]; len(v) > 0 && v[0] != "" {
		if dryRun, err = strconv.ParseBool(v[0]); err != nil {
			return invalidParam("dry_run", "dry_run must be true or false")
		}
	}
	format := ""
	if v := form.Value["format"]; len(v) > 0 {
		format = v[0]
	}
	headers := form.File["files"]
	if len(headers) == 0 {
		return invalidParam("files", "send at least one file in a field named files")
	}
	files, closeFiles, err := openUploads(headers)
	if err != nil {
		return err
	}
	defer closeFiles()
	// The Import page's import: native files streamed, the others read
	// whole; a dry run rolls it back.
	partial := false
	if v := form.Value["partial"]; len(v) > 0 && v[0] != "" {
		if partial, err = strconv.ParseBool(v[0]); err != nil {
			return invalidParam("partial", "partial must be true or false")
		}
	}
	// The same operation as `annotate import` and the Import page.
	res, st, _, err := s.app.Import(c.Request().Context(), app.ImportRequest{Project: a.project, DryRun: dryRun, Format: format, Files: files,
		Options: importer.Options{Partial: partial, SkipDocuments: importer.IDList(strings.Join(form.Value["skip_documents"], ","))}})
	var in *importer.InputError
	if errors.As(err, &in) {
		return importProblem(in.Err)
	}
	var ce *domain.ChangesError
	if errors.As(err, &ce) {
		p := problemf(http.StatusUnprocessableEntity, "invalid-import", "The files differ from what the project holds; nothing was written.")
		for _, ch := range ce.Changes[:min(len(ce.Changes), maxFieldErrors)] {
			p.Errors = append(p.Errors, FieldError{Field: ch.Where, Message: ch.String()})
		}
		if more := ce.All() - len(p.Errors); more > 0 {
			p.Errors = append(p.Errors, FieldError{Message: strconv.Itoa(more) + " more differences are not listed"})
		}
		return p
	}
	if err != nil {
		if domain.ErrorCode(err) == domain.EInvalid {
			return importProblem(err)
		}
		return err
	}
	out := apiImportResult{DryRun: dryRun, ImportStats: st, Warnings: res.Warnings}
	if out.Warnings == nil {
		out.Warnings = []string{}
	}
	return c.JSON(http.StatusOK, out)
}

// importProblem lists what is wrong with an import, one entry per problem
// with its file, line and field where known.
func importProblem(err error) *Problem {
	p := problemf(http.StatusUnprocessableEntity, "invalid-import", "The files were not imported; nothing was written.")
	p.Errors = fieldErrors(err)
	if len(p.Errors) > maxFieldErrors {
		more := len(p.Errors) - maxFieldErrors
		p.Errors = append(p.Errors[:maxFieldErrors], FieldError{Message: strconv.Itoa(more) + " more problems are not listed"})
	}
	return p
}

func fieldErrors(err error) []FieldError {
	var ies importer.Errors
	if errors.As(err, &ies) {
		out := make([]FieldError, 0, len(ies))
		for _, e := range ies {
			fe := FieldError{File: e.File, Line: e.Line, Field: e.Field, Message: e.Message}
			if e.Line == 0 && e.Record > 0 {
				fe.Field = "record " + strconv.Itoa(e.Record) + optionalDot(e.Field)
			}
			out = append(out, fe)
		}
		return out
	}
	var ie *importer.Error
	if errors.As(err, &ie) {
		return []FieldError{{File: ie.File, Line: ie.Line, Field: ie.Field, Message: ie.Message}}
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []FieldError
		for _, e := range j.Unwrap() {
			out = append(out, fieldErrors(e)...)
		}
		return out
	}
	// What remains is still about the files (an unknown format, a file
	// that cannot join the others), so its text is shown as it is.
	var te *domain.Error
	if errors.As(err, &te) {
		return []FieldError{{Message: te.Message}}
	}
	return []FieldError{{Message: err.Error()}}
}

func optionalDot(field string) string {
	if field == "" {
		return ""
	}
	return ": " + field
}
