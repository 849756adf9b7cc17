package app

import (
	"context"
	"math"
	"slices"
	"strconv"

	"annotate/internal/domain"
	"annotate/internal/experiment"
	"annotate/internal/studies"
)

// StudyReport is a study's experiment report: who took part, and per
// assistance condition the figures against gold with their intervals.
type StudyReport struct {
	Study        string `json:"study"`
	Participants struct {
		Entered     int `json:"entered"`
		NoConsent   int `json:"no_consent"`
		ScreenedOut int `json:"screened_out"`
		Excluded    int `json:"excluded"`
		Completed   int `json:"completed"`
	} `json:"participants"`
	// Observations counts the labels the figures are computed from:
	// submitted labels of item sentences with gold, by participants who
	// were not excluded.
	Observations int `json:"observations"`
	// Conditions gives each condition's figures by name, each a value
	// with its 95% interval: the figures of Analysis, keyed for reading
	// (conditions.debate.balanced_accuracy.value). Empty when no label
	// can be scored yet.
	Conditions map[string]map[string]experiment.Estimate `json:"conditions"`
	// Analysis is nil when no label can be scored against gold yet.
	Analysis *experiment.Result `json:"analysis"`
	// Crowd is the crowd aggregation of every kept label of the study's
	// items (gold or not); nil before the first.
	Crowd *CrowdReport `json:"crowd,omitempty"`
	Note  string       `json:"note,omitempty"`
}

// ReportStudy computes a study's experiment report (see docs/studies.md):
// each figure with its two-way cluster bootstrap interval over
// participants and items, and each condition's difference from none with
// its interval and permutation p-value.
func (a *App) ReportStudy(ctx context.Context, st *studies.Study, opt experiment.Options) (*StudyReport, error) {
	rep := &StudyReport{Study: st.Name, Conditions: map[string]map[string]experiment.Estimate{}}
	ps, err := a.Studies().Participants(ctx, st.ID)
	if err != nil {
		return nil, domain.Op("App.ReportStudy", err)
	}
	for _, p := range ps {
		rep.Participants.Entered++
		switch {
		case p.Phase == studies.PhaseNoConsent:
			rep.Participants.NoConsent++
		case p.Phase == studies.PhaseScreenedOut:
			rep.Participants.ScreenedOut++
		case p.Excluded:
			rep.Participants.Excluded++
		case p.Phase == studies.PhaseCompleted:
			rep.Participants.Completed++
		}
	}
	if rep.Crowd, err = a.crowdReport(ctx, st); err != nil {
		return nil, domain.Op("App.ReportStudy", err)
	}
	obs, err := a.Studies().Observations(ctx, st)
	if err != nil {
		return nil, domain.Op("App.ReportStudy", err)
	}
	rep.Observations = len(obs)
	if len(obs) == 0 {
		rep.Note = "no submitted label of an item sentence with gold yet: the figures need gold on the study's items (import it, or adjudicate)"
		return rep, nil
	}
	var pids, sids []string
	for _, o := range obs {
		pids = append(pids, strconv.FormatInt(o.Participant, 10))
		sids = append(sids, strconv.FormatInt(o.Sentence, 10))
	}
	pIndex, sIndex := experiment.NewIndex(pids), experiment.NewIndex(sids)
	design, err := experiment.ParseDesign(st.Definition.Randomise)
	if err != nil {
		return nil, domain.Op("App.ReportStudy", err)
	}
	d := &experiment.Data{Participants: pIndex.Len(), Items: sIndex.Len(), Conditions: st.Definition.Conditions,
		Baseline: slices.Index(st.Definition.Conditions, "none"), Design: design}
	for i, o := range obs {
		x := experiment.Observation{Participant: pIndex.Of(pids[i]), Item: sIndex.Of(sids[i]), Condition: slices.Index(st.Definition.Conditions, o.Condition),
			Label: o.Label == "unfaithful", Gold: o.Gold == "unfaithful", Assistant: experiment.NoAssistant, Seconds: o.Seconds}
		switch o.Assistant {
		case "faithful":
			x.Assistant = experiment.Faithful
		case "unfaithful":
			x.Assistant = experiment.Unfaithful
		}
		if o.Seconds <= 0 {
			x.Seconds = math.NaN()
		}
		d.Observations = append(d.Observations, x)
	}
	if opt.Seed == 0 {
		opt.Seed = st.Definition.Seed
	}
	if rep.Analysis, err = experiment.Analyse(d, opt); err != nil {
		return nil, domain.Op("App.ReportStudy", err)
	}
	for _, c := range rep.Analysis.Conditions {
		figs := map[string]experiment.Estimate{}
		for f, e := range c.Figures {
			figs[f.String()] = e
		}
		rep.Conditions[c.Name] = figs
	}
	return rep, nil
}
