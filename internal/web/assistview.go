package web

import (
	"context"
	"encoding/json"

	"annotate/internal/assist"
	"annotate/internal/assiststore"
	"annotate/internal/domain"
	"annotate/web/templates"
)

// evidenceLimit is how many document units the lexical finder may join
// into one sentence's premise.
const evidenceLimit = 4

// assistFor returns what the assistant panel shows for each sentence of a
// summary, keyed by sentence id: the newest run's Advocate, Skeptic,
// Adjudicator and ambiguity verdict where a run has judged the sentence,
// and always the evidence the lexical finder ranks, which needs no LLM.
// Nothing here names the model: annotators see this panel.
func (s *Server) assistFor(ctx context.Context, p *domain.Project, doc *domain.Document, sum *domain.Summary) (map[int64]templates.AssistView, error) {
	if p.Settings.AssistantVisibility == domain.AssistNever {
		return map[int64]templates.AssistView{}, nil
	}
	return s.assistPanels(ctx, doc, sum, p.Settings)
}

// assistPanels builds the panel of every sentence of a summary from the
// newest run's outputs and the lexical evidence, whatever the project's
// visibility mode; callers decide who may see it.
func (s *Server) assistPanels(ctx context.Context, doc *domain.Document, sum *domain.Summary, set domain.Settings) (map[int64]templates.AssistView, error) {
	outputs, err := s.assists.AssistPanel(ctx, sum.ID)
	if err != nil {
		return nil, err
	}
	evidence := s.evidence.get(doc, sum)
	names := errorTypeNames(set)
	out := map[int64]templates.AssistView{}
	for _, x := range sum.Sentences {
		o, ok := outputs[x.ID]
		v := s.panelView(x.ID, o, ok, evidence[x.ID], names, len(doc.Units))
		if set.AssistVerdictOnly {
			verdictOnly(&v)
		}
		out[x.ID] = v
	}
	return out, nil
}

// verdictOnly keeps the Adjudicator's verdict alone in a panel: the
// Advocate's and the Skeptic's are dropped, not only hidden.
func verdictOnly(v *templates.AssistView) {
	v.VerdictOnly = true
	v.Advocate, v.Skeptic = templates.SideView{}, templates.SideView{}
}

// panelView builds one sentence's panel from its output (if it has one)
// and its lexical evidence.
func (s *Server) panelView(sid int64, o assiststore.PanelOutput, has bool, evidence []int, names map[string]string, units int) templates.AssistView {
	v := templates.AssistView{Evidence: evidence}
	if !has {
		return v
	}
	var r assist.SentenceResult
	if err := json.Unmarshal(o.Output, &r); err != nil {
		s.log.Error("unreadable assistant output", "run", o.RunID, "sentence", sid, "err", err)
	} else if r.Status == assist.StatusOK {
		fillPanel(&v, r, names, units)
		v.Sample = o.Sample
	}
	return v
}

// errorTypeNames maps the codes of the project's error taxonomy, and of the
// presets a run may have used, to the names people read.
func errorTypeNames(set domain.Settings) map[string]string {
	names := map[string]string{}
	for _, preset := range domain.ErrorPresets {
		for _, t := range preset {
			names[t.Code] = t.Name
		}
	}
	for _, t := range set.ErrorTaxonomy() {
		names[t.Code] = t.Name
	}
	return names
}

// fillPanel copies a run's result into the panel: labels, error type
// names, citations within the document, reasons and the ambiguity verdict.
func fillPanel(v *templates.AssistView, r assist.SentenceResult, names map[string]string, units int) {
	v.HasRun = true
	side := func(sd *assist.Side) templates.SideView {
		if sd == nil {
			return templates.SideView{}
		}
		return templates.SideView{Label: string(sd.Label), ErrorType: typeName(names, sd.ErrorType), Citations: inRange(sd.Citations, units), Reason: sd.Reason}
	}
	v.Advocate, v.Skeptic = side(r.Advocate), side(r.Skeptic)
	if a := r.Adjudicator; a != nil {
		v.Adjudicator = templates.SideView{Label: string(a.Label), ErrorType: typeName(names, a.ErrorType), Citations: inRange(a.Citations, units), Reason: a.Report}
	}
	if len(r.Evidence) > 0 {
		v.Evidence = inRange(r.Evidence, units)
	}
	v.Ambiguity = ambiguityText(r.Ambiguity)
}

func typeName(names map[string]string, code string) string {
	if code == "" || code == "none" {
		return ""
	}
	if n, ok := names[code]; ok {
		return n
	}
	return code
}

// inRange drops citations outside the document, which a result imported
// for a since-edited document could hold; chips must point at real units.
func inRange(cites []int, units int) []int {
	var out []int
	for _, n := range cites {
		if n >= 1 && n <= units {
			out = append(out, n)
		}
	}
	return out
}

// ambiguityText words the ambiguity verdict: the judge's answer with the
// type's name, and the debate's no-movement signal.
func ambiguityText(a *assist.Ambiguity) string {
	if a == nil {
		return ""
	}
	var text string
	switch {
	case a.Judged && a.Ambiguous:
		text = "ambiguous"
		if t, ok := domain.AmbiguityType(a.Type); ok {
			text += " (" + t.Name + ")"
		}
		if a.Reason != "" {
			text += ": " + a.Reason
		}
	case a.Judged:
		text = "not ambiguous"
	}
	if a.NoMovement {
		if text != "" {
			text += "; "
		}
		text += "no agent moved from its opening stance"
	}
	return text
}
