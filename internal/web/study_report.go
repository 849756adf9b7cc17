package web

import (
	"fmt"
	"math"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"annotate/internal/experiment"
	"annotate/web/templates"
)

// reportReplicates is how many bootstrap replicates and permutations the
// study report page computes.
const reportReplicates = 1000

// getStudyReport is a study's experiment report page, for its leads.
func (s *Server) getStudyReport(c echo.Context) error {
	a, err := s.projectAccess(c, true)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	st, err := s.app.Studies().ByName(ctx, a.project.ID, c.Param("name"))
	if err != nil {
		return err
	}
	rep, err := s.app.ReportStudy(ctx, st, experiment.Options{Replicates: reportReplicates, Permutations: reportReplicates})
	if err != nil {
		return err
	}
	v := templates.StudyReportView{
		Page: s.page(c, "Experiment report", append(s.projectCrumbs(a.project), templates.Link{Label: "Studies", Href: "/p/" + a.project.Slug + "/studies"},
			templates.Link{Label: st.Name, Href: studyURL(a.project.Slug, st.Name)})...),
		Name: st.Name, Observations: rep.Observations, Note: rep.Note, Replicates: reportReplicates,
		Outcomes: []templates.Count{{Label: "entered", Value: rep.Participants.Entered}, {Label: "declined consent", Value: rep.Participants.NoConsent},
			{Label: "screened out", Value: rep.Participants.ScreenedOut}, {Label: "excluded", Value: rep.Participants.Excluded},
			{Label: "completed", Value: rep.Participants.Completed}},
	}
	if c := rep.Crowd; c != nil {
		cv := &templates.CrowdView{Summary: fmt.Sprintf("%d labels of the %d item sentences that two participants or more (not excluded) labelled.", c.Labels, c.Sentences)}
		names := map[string]string{"majority": "Majority", "dawid_skene": "Dawid–Skene", "mace": "MACE"}
		for _, m := range c.Methods {
			score := "no gold"
			if m.WithGold > 0 {
				score = fmt.Sprintf("%.3f / %.3f", m.Accuracy, m.BalancedAccuracy)
			}
			cv.Methods = append(cv.Methods, [4]string{names[m.Method], strconv.Itoa(m.Decided), strconv.Itoa(m.WithGold), score})
		}
		cv.Uses = fmt.Sprintf("Crowd labels are proposed by %s: %s.", names[c.Uses], c.Why)
		if c.Uses == "none" {
			cv.Summary, cv.Uses = "", "No aggregation yet: "+c.Why+"."
		}
		for _, p := range c.Participants {
			cv.Participants = append(cv.Participants, [4]string{p.Participant, strconv.Itoa(p.Labels), fmt.Sprintf("%.2f", p.DawidSkene), fmt.Sprintf("%.2f", p.MACE)})
		}
		v.Crowd = cv
	}
	if rep.Analysis != nil {
		for _, cr := range rep.Analysis.Conditions {
			v.Conditions = append(v.Conditions, fmt.Sprintf("%s (%d people, %d labels)", cr.Name, cr.Counts.Participants, cr.Counts.Labels))
		}
		for _, f := range experiment.Figures {
			row := templates.StudyFigureRow{Figure: figureTitles[f]}
			for _, cr := range rep.Analysis.Conditions {
				row.Cells = append(row.Cells, estimateText(cr.Figures[f]))
			}
			v.Rows = append(v.Rows, row)
		}
		for _, cr := range rep.Analysis.Conditions {
			for _, f := range []experiment.Figure{experiment.Accuracy, experiment.BalancedAccuracy, experiment.UnfaithfulF1} {
				d, ok := cr.VsBaseline[f]
				if !ok {
					continue
				}
				r := templates.ForestRow{Label: cr.Name + ": " + figureTitles[f], Text: estimateText(d.Estimate) + pText(d.P)}
				if finite(d.Value) && finite(d.CI[0]) && finite(d.CI[1]) {
					r.Defined = true
					r.X, r.Low, r.High = (d.Value+1)/2, (d.CI[0]+1)/2, (d.CI[1]+1)/2
				}
				v.Forest = append(v.Forest, r)
			}
		}
	}
	return s.render(c, http.StatusOK, templates.StudyReportPage(v))
}

// figureTitles name the experiment's figures on the page.
var figureTitles = map[experiment.Figure]string{
	experiment.Accuracy:            "accuracy",
	experiment.BalancedAccuracy:    "balanced accuracy",
	experiment.UnfaithfulF1:        "F1 of unfaithful",
	experiment.SecondsPerSentence:  "seconds a sentence",
	experiment.FollowedWhenRight:   "followed the assistant when it was right",
	experiment.FollowedWhenWrong:   "followed the assistant when it was wrong",
	experiment.WrongEqualAssistant: "wrong labels equal to the assistant's",
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// estimateText writes a figure with its interval: "0.812 (0.750–0.870)".
func estimateText(e experiment.Estimate) string {
	if !finite(e.Value) {
		return "undefined"
	}
	if !finite(e.CI[0]) || !finite(e.CI[1]) {
		return fmt.Sprintf("%.3f", e.Value)
	}
	return fmt.Sprintf("%.3f (%.3f–%.3f)", e.Value, e.CI[0], e.CI[1])
}

func pText(p float64) string {
	if !finite(p) {
		return ""
	}
	return fmt.Sprintf(", p = %.3f", p)
}
