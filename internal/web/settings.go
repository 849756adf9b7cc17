package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"annotate/internal/domain"
	"annotate/web/templates"
)

// settingsToggles pairs each on/off dimension with its form name and text.
func settingsToggles(set *domain.Settings) []struct {
	name, label string
	field       *bool
} {
	return []struct {
		name, label string
		field       *bool
	}{
		{"faithfulness", "Faithfulness label", &set.Faithfulness},
		{"error_types", "Error types (when unfaithful)", &set.ErrorTypes},
		{"explanation", "Explanation (when unfaithful)", &set.Explanation},
		{"borderline", "Borderline as a third label", &set.Borderline},
		{"ambiguity", "Ambiguity with its type", &set.Ambiguity},
		{"key_facts", "Key-fact alignment", &set.KeyFacts},
		{"relevance", "Relevance to the topic (1-5)", &set.Relevance},
		{"topic_category", "Topic category (main / marginal)", &set.TopicCategory},
		{"unsure_note", "Unsure note", &set.UnsureNote},
		{"anonymous_adjudication", "Hide annotator names on the adjudication page", &set.AnonymousAdjudication},
		{"feedback_gold", "Calibration feedback shows gold labels and their explanations", &set.FeedbackGold},
		{"feedback_names", "Calibration feedback shows the other annotators' names (otherwise Annotator 1, 2, …)", &set.FeedbackNames},
	}
}

// settingsLabelsShown is the most labels the settings page counts; past
// it the page says "more than".
const settingsLabelsShown = 10000

func (s *Server) settingsView(c echo.Context, p *domain.Project, set domain.Settings, guidelines string) (templates.SettingsView, error) {
	// The warning needs only to say that labels exist and roughly how
	// many: past settingsLabelsShown it reads no further.
	labels, err := s.store.ProjectLabelsUpTo(c.Request().Context(), p.ID, settingsLabelsShown+1)
	v := templates.SettingsView{
		Page: s.page(c, "Label schema and guidelines", s.projectCrumbs(p)...), Slug: p.Slug,
		Labels: min(labels, settingsLabelsShown), LabelsMore: labels > settingsLabelsShown,
		Preset: set.ErrorPreset, Visibility: set.AssistantVisibility, Guidelines: guidelines,
		Presets: []templates.Option{{Value: "tofueval", Label: "TofuEval (7 types)"}, {Value: "msumbench", Label: "MSumBench (4 types)"}, {Value: "frank", Label: "FRANK (7 types)"}, {Value: "custom", Label: "Custom"}},
		Visibilities: []templates.Option{
			{Value: domain.AssistAfterLabel, Label: "After the annotator's first label on the sentence"},
			{Value: domain.AssistAlways, Label: "Always"},
			{Value: domain.AssistNever, Label: "Never"},
		},
	}
	for _, t := range settingsToggles(&set) {
		v.Toggles = append(v.Toggles, templates.Toggle{Name: t.name, Label: t.label, On: *t.field})
	}
	v.Custom = domain.FormatTaxonomyLines(set.CustomErrors)
	v.Scales = scalesText(set.Scales)
	return v, err
}

func (s *Server) getSettings(c echo.Context) error {
	a, err := s.projectAccess(c, true)
	if err != nil {
		return err
	}
	v, err := s.settingsView(c, a.project, a.project.Settings, a.project.Guidelines)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, templates.SettingsPage(v))
}

func (s *Server) postSettings(c echo.Context) error {
	a, err := s.projectAccess(c, true)
	if err != nil {
		return err
	}
	set := a.project.Settings
	for _, t := range settingsToggles(&set) {
		*t.field = c.FormValue(t.name) == "true"
	}
	set.ErrorPreset = c.FormValue("error_preset")
	set.CustomErrors = domain.ParseTaxonomyLines(c.FormValue("custom_errors"))
	set.AssistantVisibility = c.FormValue("assistant_visibility")
	guidelines := c.FormValue("guidelines")
	var scaleErr error
	if form, _ := c.FormParams(); form.Has("scales") {
		set.Scales, scaleErr = parseScales(c.FormValue("scales"))
	}
	if scaleErr != nil {
		v, verr := s.settingsView(c, a.project, set, guidelines)
		if verr != nil {
			return verr
		}
		v.Scales = c.FormValue("scales")
		v.Error = scaleErr.Error()
		return s.render(c, http.StatusUnprocessableEntity, templates.SettingsPage(v))
	}
	if err := s.store.UpdateSettings(c.Request().Context(), a.project.ID, set, guidelines); err != nil {
		if domain.ErrorCode(err) != domain.EInvalid {
			return err
		}
		v, verr := s.settingsView(c, a.project, set, guidelines)
		if verr != nil {
			return verr
		}
		v.Error = domain.ErrorMessage(err)
		return s.render(c, http.StatusUnprocessableEntity, templates.SettingsPage(v))
	}
	if err := s.setFlash(c, "ok", "Settings saved."); err != nil {
		return err
	}
	return redirect(c, "/p/"+a.project.Slug+"/settings")
}
