package web

import (
	"net/http"
	"strings"

	"annotate/internal/domain"

	"github.com/labstack/echo/v4"
)

// apiTaxonomySpec sets a project's error taxonomy: a built-in preset, or
// custom error types (then preset is "custom" or left out).
type apiTaxonomySpec struct {
	Preset     string                `json:"preset"`
	ErrorTypes []domain.TaxonomyType `json:"error_types"`
}

// apiSetTaxonomy replaces a project's error taxonomy, as the settings page
// and "annotate project taxonomy" do; labels already given keep their
// error types. It answers with the project.
func (s *Server) apiSetTaxonomy(c echo.Context) error {
	a, err := s.apiAccess(c, true)
	if err != nil {
		return err
	}
	var in apiTaxonomySpec
	if err := decodeJSON(c, &in); err != nil {
		return err
	}
	set := a.project.Settings
	switch {
	case in.Preset != "" && in.Preset != "custom":
		if len(in.ErrorTypes) > 0 {
			return taxonomyProblem("error_types", "give a preset or error types, not both")
		}
		set.ErrorPreset, set.CustomErrors = in.Preset, nil
	default:
		set.ErrorPreset, set.CustomErrors = "custom", in.ErrorTypes
	}
	if err := s.store.UpdateSettings(c.Request().Context(), a.project.ID, set, a.project.Guidelines); err != nil {
		if domain.ErrorCode(err) == domain.EInvalid {
			field := "error_types"
			if strings.Contains(domain.ErrorMessage(err), "preset") {
				field = "preset"
			}
			return taxonomyProblem(field, domain.ErrorMessage(err))
		}
		return err
	}
	p, err := s.store.ProjectByID(c.Request().Context(), a.project.ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, apiProjectDoc{
		apiProjectItem: apiProjectItem{Slug: p.Slug, Name: p.Name, Description: p.Description, Role: a.role, CreatedAt: p.CreatedAt},
		Guidelines:     p.Guidelines, Settings: p.Settings, ErrorTypes: p.Settings.ErrorTaxonomy(),
	})
}

func taxonomyProblem(field, msg string) error {
	p := problemf(http.StatusUnprocessableEntity, "invalid-taxonomy", "The taxonomy was not changed.")
	p.Errors = []FieldError{{Field: field, Message: msg}}
	return p
}
