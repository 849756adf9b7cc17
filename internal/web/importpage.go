package web

import (
	"errors"
	"fmt"
	"mime/multipart"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"annotate/internal/app"
	"annotate/internal/domain"
	"annotate/internal/importer"
	"annotate/web/templates"
)

var importFormats = []templates.Option{
	{Value: "", Label: "Detect from the files"},
	{Value: "native", Label: "Native JSON Lines"},
	{Value: "tofueval", Label: "TofuEval CSV (with the MADISSE transcripts file)"},
	{Value: "madisse", Label: "MADISSE ambiguity JSON Lines"},
	{Value: "summedits", Label: "SummEdits JSON"},
}

func (s *Server) importView(c echo.Context, a access) templates.ImportView {
	return templates.ImportView{
		Page:    s.page(c, "Import data", templates.Link{Label: "Projects", Href: "/projects"}, templates.Link{Label: a.project.Name, Href: "/p/" + a.project.Slug}),
		Slug:    a.project.Slug,
		Formats: importFormats,
	}
}

func (s *Server) getImport(c echo.Context) error {
	a, err := s.projectAccess(c, true)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, templates.ImportPage(s.importView(c, a)))
}

func (s *Server) postImport(c echo.Context) error {
	a, err := s.projectAccess(c, true)
	if err != nil {
		return err
	}
	v := s.importView(c, a)
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
		return s.uploadTooLarge()
	}
	v.Format = c.FormValue("format")
	if err != nil {
		v.Errors = []string{"The upload could not be read: " + err.Error()}
		return s.render(c, http.StatusUnprocessableEntity, templates.ImportPage(v))
	}
	headers := form.File["files"]
	if len(headers) == 0 {
		v.Errors = []string{"Choose at least one file."}
		return s.render(c, http.StatusUnprocessableEntity, templates.ImportPage(v))
	}
	files, closeFiles, err := openUploads(headers)
	if err != nil {
		return err
	}
	defer closeFiles()
	v.Update = c.FormValue("update") != ""
	v.Relabel = v.Update && c.FormValue("relabel") != ""
	// The same operation as `annotate import` and the API.
	res, st, applied, err := s.app.Import(c.Request().Context(), app.ImportRequest{Project: a.project, Update: v.Update, Relabel: v.Relabel,
		Format: v.Format, Files: files, Options: importer.Options{Partial: c.FormValue("partial") != "", SkipDocuments: importer.IDList(c.FormValue("skip_documents"))}})
	var in *importer.InputError
	if errors.As(err, &in) {
		v.Errors = errorLines(in.Err)
		return s.render(c, http.StatusUnprocessableEntity, templates.ImportPage(v))
	}
	var ce *domain.ChangesError
	if errors.As(err, &ce) {
		v.Changes, v.ChangesMore = importChanges(ce.Changes, ce.All())
		return s.render(c, http.StatusConflict, templates.ImportPage(v))
	}
	if err != nil {
		if domain.ErrorCode(err) == domain.EInvalid {
			v.Errors = []string{domain.ErrorMessage(err)}
			return s.render(c, http.StatusUnprocessableEntity, templates.ImportPage(v))
		}
		return err
	}
	v.Warnings = res.Warnings
	if len(st.ErrorTypesAdded) > 0 {
		v.Warnings = append(v.Warnings, "Error types the project's taxonomy lacked were kept and added to it: "+strings.Join(st.ErrorTypesAdded, ", ")+". Rename or define them in the settings.")
	}
	v.Changes, v.ChangesMore = importChanges(applied, st.Changes)
	v.Applied = true
	v.Result = []templates.Count{
		{Label: "New documents", Value: st.Documents, TestID: "imported-documents"},
		{Label: "Documents already there", Value: st.DocumentsExisting, TestID: "existing-documents"},
		{Label: "New summaries", Value: st.Summaries, TestID: "imported-summaries"},
		{Label: "Summaries already there", Value: st.SummariesExisting, TestID: "existing-summaries"},
		{Label: "Summary sentences", Value: st.Sentences, TestID: "imported-sentences"},
		{Label: "Key facts", Value: st.KeyFacts, TestID: "imported-keyfacts"},
		{Label: "Gold labels", Value: st.GoldSentences + st.GoldSummaries, TestID: "imported-gold"},
		{Label: "Annotators' labels", Value: st.Labels + st.SummaryLabels, TestID: "imported-labels"},
		{Label: "Annotators' labels already there", Value: st.LabelsExisting, TestID: "existing-labels"},
	}
	return s.render(c, http.StatusOK, templates.ImportPage(v))
}

// importChanges shows a re-import's changes, marking those about
// annotators' labels.
//
// At most maxListedChanges are listed, with the count of the rest among
// all, the differences found.
func importChanges(cs []domain.Change, all int) ([]templates.ImportChange, int) {
	shown := cs[:min(len(cs), maxListedChanges)]
	out := make([]templates.ImportChange, len(shown))
	for i, c := range shown {
		out[i] = templates.ImportChange{Text: c.String(), Loud: c.Reason != ""}
	}
	return out, max(0, all-len(shown))
}

// maxListedChanges bounds the differences the Import page lists, as the
// API's problem lists at most maxFieldErrors.
const maxListedChanges = maxFieldErrors

// errorLines splits an error that joins several (one per bad record) into
// lines for the page, at most 50.
func errorLines(err error) []string {
	var lines []string
	var ies importer.Errors
	if errors.As(err, &ies) {
		for _, e := range ies {
			lines = append(lines, e.Error())
		}
	} else if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			lines = append(lines, errorLines(e)...)
		}
	} else {
		var ie *domain.Error
		if errors.As(err, &ie) {
			lines = append(lines, ie.Message)
		} else {
			lines = append(lines, strings.Split(strings.TrimSpace(err.Error()), "\n")...)
		}
	}
	if len(lines) > 50 {
		lines = append(lines[:50], fmt.Sprintf("… and %d more", len(lines)-50))
	}
	return lines
}

// openUploads opens the files of an import upload, for the Import page and
// the API alike; closeFiles closes those opened.
func openUploads(headers []*multipart.FileHeader) (files []importer.File, closeFiles func(), err error) {
	var opened []multipart.File
	closeFiles = func() {
		for _, f := range opened {
			f.Close()
		}
	}
	for _, h := range headers {
		f, err := h.Open()
		if err != nil {
			closeFiles()
			return nil, func() {}, err
		}
		opened = append(opened, f)
		files = append(files, importer.File{Name: h.Filename, R: f, Size: h.Size})
	}
	return files, closeFiles, nil
}
