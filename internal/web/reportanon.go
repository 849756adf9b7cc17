package web

import (
	"strconv"

	"annotate/internal/report"
)

// anonymise replaces annotator usernames throughout a report with
// "Annotator 1", "Annotator 2" and so on, numbered in the report's order,
// for projects whose settings hide who labelled what. The page and the
// downloads then agree on the numbers.
func anonymise(rep *report.Report) {
	alias := map[string]string{}
	for i, name := range rep.Annotators {
		alias[name] = "Annotator " + strconv.Itoa(i+1)
	}
	as := func(name string) string {
		if a, ok := alias[name]; ok {
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
	}
}
