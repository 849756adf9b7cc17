package web

import (
	"context"

	"annotate/internal/assist"
	"annotate/internal/tasks"
	"annotate/web/templates"
)

// evidenceLimit is how many document units the lexical finder may join
// into one sentence's premise.
const evidenceLimit = 4

// assistFor returns what the assistant panel shows for each sentence of a
// summary, keyed by sentence id: for now the evidence the lexical finder
// ranks, which needs no LLM.
func (s *Server) assistFor(ctx context.Context, p *tasks.Project, doc *tasks.Document, sum *tasks.Summary) (map[int64]templates.AssistView, error) {
	out := map[int64]templates.AssistView{}
	if p.Settings.AssistantVisibility == tasks.AssistNever {
		return out, nil
	}
	units := make([]assist.Unit, len(doc.Units))
	for i, u := range doc.Units {
		units[i] = assist.Unit{Speaker: u.Speaker, Text: u.Text}
	}
	finder := assist.NewFinder(units)
	for _, x := range sum.Sentences {
		var v templates.AssistView
		for _, e := range finder.Premise(x.Text, evidenceLimit) {
			v.Evidence = append(v.Evidence, e.Unit)
		}
		out[x.ID] = v
	}
	return out, nil
}
