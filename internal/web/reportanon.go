package web

import (
	"annotate/internal/report"
	"annotate/internal/tasks"
)

// anonymise replaces annotator usernames throughout a report with the
// project's pseudonyms ("Annotator 1", ...), for projects whose settings
// hide who labelled what. The page, the downloads, the adjudication page,
// calibration feedback and anonymised exports use the same numbers.
func anonymise(rep *report.Report, aliases tasks.Pseudonyms) {
	as := func(name string) string {
		if a := aliases.Username(name); a != "" {
			return a
		}
		return "another annotator"
	}
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
