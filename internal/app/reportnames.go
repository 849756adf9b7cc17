package app

import (
	"context"
	"io"

	"annotate/internal/domain"
	"annotate/internal/report"
)

// Names says how a report names annotators.
type Names int

const (
	// NamesBySettings gives pseudonyms when the project's settings hide
	// who labelled what, usernames otherwise: what every page, download
	// and API answer shows.
	NamesBySettings Names = iota
	// RealNames gives usernames whatever the settings: for the person
	// running the command line on the database itself, when asked.
	RealNames
)

// Report builds a project's agreement report from its data as of now,
// naming annotators as names says.
func (a *App) Report(ctx context.Context, p *domain.Project, opt report.Options, names Names) (*report.Report, error) {
	data, err := a.reports.ReportData(ctx, p.ID, opt.Filter())
	if err != nil {
		return nil, domain.Op("App.Report", err)
	}
	opt.TakeLabels = true // the data is read for this report alone
	val, err := a.BuildReport(ctx, p, data, opt, names)
	return val, domain.Op("App.Report", err)
}

// BuildReport builds a project's agreement report from data read with
// opt.Filter(), naming annotators as names says.
func (a *App) BuildReport(ctx context.Context, p *domain.Project, data *domain.ReportData, opt report.Options, names Names) (*report.Report, error) {
	rep, err := report.Build(p.Slug, data, p.Settings, opt)
	if err != nil {
		return nil, domain.Op("App.BuildReport", err)
	}
	aliases, ok, err := a.aliases(ctx, p, names)
	if err != nil || !ok {
		return rep, domain.Op("App.BuildReport", err)
	}
	anonymise(rep, aliases)
	return rep, nil
}

// WriteRatings writes one dimension's ratings table (see
// report.WriteRatings) from data read with opt.Filter(), naming the coders
// as names says.
func (a *App) WriteRatings(ctx context.Context, w io.Writer, p *domain.Project, data *domain.ReportData, opt report.Options, names Names) error {
	aliases, ok, err := a.aliases(ctx, p, names)
	if err != nil {
		return domain.Op("App.WriteRatings", err)
	}
	if ok {
		for i := range data.Assignments {
			data.Assignments[i].Username = alias(aliases, data.Assignments[i].Username)
		}
	}
	return domain.Op("App.WriteRatings", report.WriteRatings(w, data, p.Settings, opt))
}

// aliases returns the project's pseudonyms, and true, when its annotators
// are to be named by them.
func (a *App) aliases(ctx context.Context, p *domain.Project, names Names) (domain.Pseudonyms, bool, error) {
	if names == RealNames || !p.Settings.AnonymousAdjudication {
		return domain.Pseudonyms{}, false, nil
	}
	ps, err := a.reports.Pseudonyms(ctx, p.ID)
	return ps, err == nil, err
}

// alias is a username's pseudonym; "another annotator" for someone the
// project does not number.
func alias(aliases domain.Pseudonyms, name string) string {
	if a := aliases.Username(name); a != "" {
		return a
	}
	return "another annotator"
}

// anonymise replaces annotator usernames throughout a report with the
// project's pseudonyms ("Annotator 1", ...), for projects whose settings
// hide who labelled what. The page, the downloads, the adjudication page,
// calibration feedback and anonymised exports use the same numbers.
func anonymise(rep *report.Report, aliases domain.Pseudonyms) {
	as := func(name string) string { return alias(aliases, name) }
	for i := range rep.Annotators {
		rep.Annotators[i] = as(rep.Annotators[i])
	}
	for i := range rep.Dimensions {
		for j := range rep.Dimensions[i].Pairwise {
			p := &rep.Dimensions[i].Pairwise[j]
			p.Coders = [2]string{as(p.Coders[0]), as(p.Coders[1])}
		}
	}
	for i := range rep.PerAnnotator {
		rep.PerAnnotator[i].Name = as(rep.PerAnnotator[i].Name)
	}
	for i := range rep.Disagreements {
		d := &rep.Disagreements[i]
		for _, vs := range [][]report.Vote{d.Votes, d.ErrorTypes} {
			for j := range vs {
				for k, n := range vs[j].Annotators {
					vs[j].Annotators[k] = as(n)
				}
			}
		}
		for j := range d.Flags {
			d.Flags[j].Annotator = as(d.Flags[j].Annotator)
		}
	}
}
