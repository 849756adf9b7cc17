package importer

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"annotate/internal/domain"
	"annotate/internal/segment"
)

// parsed is a document on its way out of a parser, with where it came from
// for messages.
type parsed struct {
	doc domain.DocumentInput
	at  Error
	// summaryAt optionally locates each summary more precisely than the
	// document (a SummEdits record per summary).
	summaryAt []Error
}

// where returns the location of summary i.
func (p *parsed) where(i int) *Error {
	if i < len(p.summaryAt) {
		return &p.summaryAt[i]
	}
	return &p.at
}

// resolver completes and checks documents: it fills in defaults, splits
// text into sentences, normalises taxonomy codes and rejects what the
// database could not hold. Ids are checked across everything it sees.
type resolver struct {
	c *collector
	// preset is the error taxonomy the input uses; "" keeps error types as
	// written.
	preset    string
	docIDs    map[string]*Error
	summaryIn map[string]string
	// current is the summary being resolved; labels locates every
	// annotator's label seen, to find repeats.
	current string
	labels  map[labelKey]string
}

func newResolver(c *collector, preset string) *resolver {
	return &resolver{c: c, preset: preset, docIDs: map[string]*Error{}, summaryIn: map[string]string{}, labels: map[labelKey]string{}}
}

// document resolves p.doc in place.
func (r *resolver) document(p *parsed) {
	d := &p.doc
	at := &p.at
	if at.Line > 0 {
		d.Source = fmt.Sprintf("%s:%d", at.File, at.Line)
	} else if at.Record > 0 {
		d.Source = fmt.Sprintf("%s: record %d", at.File, at.Record)
	} else {
		d.Source = at.File
	}
	d.ExternalID = strings.TrimSpace(d.ExternalID)
	if d.Continuation {
		// More summaries of a document read before (streamed gold export).
		for i := range d.Summaries {
			r.summary(d, i, p.where(i), fmt.Sprintf("summaries[%d]", i))
		}
		r.keyFacts(d, at)
		return
	}
	if d.ExternalID == "" {
		r.c.addf(at, "id", "missing document id")
	} else if first, dup := r.docIDs[d.ExternalID]; dup {
		r.c.addf(at, "id", "document id %q is used twice (first at %s)", d.ExternalID, locString(first))
	} else {
		loc := Error{File: at.File, Line: at.Line, Record: at.Record} // not at itself, which holds on to the document
		r.docIDs[d.ExternalID] = &loc
	}
	d.Language = strings.TrimSpace(d.Language)
	d.Domain = strings.TrimSpace(d.Domain)
	d.Title = strings.TrimSpace(d.Title)
	d.Kind = strings.ToLower(strings.TrimSpace(d.Kind))
	if d.Kind == "" {
		d.Kind = domain.KindProse
		if len(d.Turns) > 0 {
			d.Kind = domain.KindDialogue
		}
	}
	switch d.Kind {
	case domain.KindProse:
		r.prose(d, at)
	case domain.KindDialogue:
		r.dialogue(d, at)
	default:
		r.c.addf(at, "kind", "%q is not one of prose, dialogue", d.Kind)
	}
	for i := range d.Summaries {
		r.summary(d, i, p.where(i), fmt.Sprintf("summaries[%d]", i))
	}
	r.keyFacts(d, at)
}

// keyFacts trims a document's key facts and rejects empty ones.
func (r *resolver) keyFacts(d *domain.DocumentInput, at *Error) {
	for i := range d.KeyFacts {
		k := &d.KeyFacts[i]
		k.Text = strings.TrimSpace(k.Text)
		k.Topic = strings.TrimSpace(k.Topic)
		k.Category = strings.TrimSpace(k.Category)
		if k.Text == "" {
			r.c.addf(at, fmt.Sprintf("key_facts[%d].text", i), "empty key fact")
		}
	}
}

// prose makes sure a prose document has its sentences.
func (r *resolver) prose(d *domain.DocumentInput, at *Error) {
	if len(d.Turns) > 0 {
		r.c.addf(at, "turns", "a prose document has no turns; set kind to dialogue")
		return
	}
	if len(d.Sentences) > 0 {
		for i, s := range d.Sentences {
			if d.Sentences[i] = strings.TrimSpace(s); d.Sentences[i] == "" {
				r.c.addf(at, fmt.Sprintf("sentences[%d]", i), "empty sentence")
			}
		}
		r.sameText(d.Text, d.Sentences, at, "text")
		return
	}
	if strings.TrimSpace(d.Text) == "" {
		r.c.addf(at, "text", "a prose document needs text or sentences")
		return
	}
	d.Sentences = segment.Split(d.Text, d.Language)
}

// dialogue makes sure a dialogue document has its turns, reading them from
// the text ("Speaker: text" per line) when only text is given.
func (r *resolver) dialogue(d *domain.DocumentInput, at *Error) {
	if len(d.Sentences) > 0 {
		r.c.addf(at, "sentences", "a dialogue is divided into turns, not sentences")
		return
	}
	if len(d.Turns) == 0 {
		for _, line := range strings.Split(d.Text, "\n") {
			if strings.TrimSpace(line) != "" {
				d.Turns = append(d.Turns, splitTurn(line))
			}
		}
	}
	if len(d.Turns) == 0 {
		r.c.addf(at, "turns", "a dialogue document needs turns or text")
		return
	}
	for i := range d.Turns {
		t := &d.Turns[i]
		t.Speaker = strings.TrimSpace(t.Speaker)
		if t.Text = strings.TrimSpace(t.Text); t.Text == "" {
			r.c.addf(at, fmt.Sprintf("turns[%d].text", i), "empty turn")
		}
	}
}

// summary resolves summary i of d.
func (r *resolver) summary(d *domain.DocumentInput, i int, at *Error, path string) {
	s := &d.Summaries[i]
	s.ExternalID = strings.TrimSpace(s.ExternalID)
	r.current = s.ExternalID
	// A summary's labels can only repeat each other: its id is unique in
	// the import. Forgetting the others keeps a streamed import's memory
	// bounded.
	clear(r.labels)
	if s.ExternalID == "" {
		r.c.addf(at, joinField(path, "id"), "missing summary id")
	} else if doc, dup := r.summaryIn[s.ExternalID]; dup {
		r.c.addf(at, joinField(path, "id"), "summary id %q is used twice (also in document %q); summary ids must be unique across the import", s.ExternalID, doc)
	} else {
		r.summaryIn[s.ExternalID] = d.ExternalID
	}
	s.Topic = strings.TrimSpace(s.Topic)
	s.Model = strings.TrimSpace(s.Model)
	if s.Language = strings.TrimSpace(s.Language); s.Language == "" {
		s.Language = d.Language
	}
	s.Original = strings.TrimSpace(s.Original)
	s.EditTypes = trimAll(s.EditTypes)
	if len(s.Sentences) > 0 {
		texts := make([]string, len(s.Sentences))
		for j, sent := range s.Sentences {
			texts[j] = sent.Text
		}
		r.sameText(s.Text, texts, at, joinField(path, "text"))
	} else {
		for _, t := range segment.Split(s.Text, s.Language) {
			s.Sentences = append(s.Sentences, domain.SentenceInput{Text: t})
		}
		if len(s.Sentences) == 0 {
			r.c.addf(at, joinField(path, "text"), "a summary needs text or sentences")
		}
	}
	for j := range s.Sentences {
		sp := fmt.Sprintf("%s.sentences[%d]", path, j)
		sent := &s.Sentences[j]
		if sent.Text = strings.TrimSpace(sent.Text); sent.Text == "" {
			r.c.addf(at, sp+".text", "empty sentence")
		}
		sent.Translation = strings.TrimSpace(sent.Translation)
		if sent.Gold != nil {
			r.gold(sent.Gold, at, sp+".gold")
		}
		for k := range sent.Labels {
			r.sentenceLabel(&sent.Labels[k], j+1, at, fmt.Sprintf("%s.labels[%d]", sp, k))
		}
	}
	if s.Gold != nil {
		r.gold(s.Gold, at, joinField(path, "gold"))
	}
	for k := range s.Labels {
		r.summaryLabel(&s.Labels[k], at, fmt.Sprintf("%s.labels[%d]", path, k))
	}
	s.Source = locString(at)
}

// gold checks a gold label and normalises its codes.
func (r *resolver) gold(g *domain.GoldInput, at *Error, path string) {
	g.Label = strings.ToLower(strings.TrimSpace(g.Label))
	g.Provenance = strings.ToLower(strings.TrimSpace(g.Provenance))
	r.provenance(g, at, path)
	switch g.Label {
	case domain.LabelFaithful, domain.LabelUnfaithful, domain.LabelBorderline:
	case "":
		if g.Ambiguous == nil && strings.TrimSpace(g.AmbiguityType) == "" && g.Provenance != domain.ProvUnresolved {
			r.c.addf(at, joinField(path, "label"), "missing: a gold label needs a label, an ambiguity flag or both")
		}
	default:
		r.c.addf(at, joinField(path, "label"), "%q is not one of faithful, unfaithful, borderline", g.Label)
	}
	g.Explanation = strings.TrimSpace(g.Explanation)
	g.AmbiguityNote = strings.TrimSpace(g.AmbiguityNote)
	g.ErrorTypes = trimAll(g.ErrorTypes)
	if len(g.ErrorTypes) > 0 && g.Label == domain.LabelFaithful {
		r.c.addf(at, joinField(path, "error_types"), "a faithful sentence has no error types")
	}
	if r.preset != "" {
		for k, e := range g.ErrorTypes {
			code, ok := ErrorTypeCode(r.preset, e)
			if !ok {
				r.c.addf(at, fmt.Sprintf("%s.error_types[%d]", path, k), "%q is not an error type of the %s taxonomy (%s)", e, r.preset, errorTypeNames(r.preset))
				continue
			}
			g.ErrorTypes[k] = code
		}
	}
	g.ErrorTypes = trimAll(g.ErrorTypes)
	if t := strings.TrimSpace(g.AmbiguityType); t != "" {
		code, ok := AmbiguityCode(t)
		if !ok {
			r.c.addf(at, joinField(path, "ambiguity_type"), "%q is not an ambiguity type (one of %s)", t, ambiguityCodes())
		}
		g.AmbiguityType = code
		if g.Ambiguous == nil {
			yes := true
			g.Ambiguous = &yes
		} else if !*g.Ambiguous {
			r.c.addf(at, joinField(path, "ambiguity_type"), "an ambiguity type is given but ambiguous is false")
		}
	} else {
		g.AmbiguityType = ""
	}
}

// provenance checks the provenance fields a gold export writes: a known
// provenance, no label on unresolved gold, and a decision time in the
// stored form.
func (r *resolver) provenance(g *domain.GoldInput, at *Error, path string) {
	switch g.Provenance {
	case "", domain.ProvImported, domain.ProvUnanimous, domain.ProvMajority, domain.ProvAdjudicated:
	case domain.ProvUnresolved:
		if g.Label != "" {
			r.c.addf(at, joinField(path, "label"), "unresolved gold has no label (got %q)", g.Label)
		}
	default:
		r.c.addf(at, joinField(path, "provenance"), "%q is not one of %s", g.Provenance, strings.Join(domain.GoldProvenances, ", "))
	}
	g.DecidedBy = strings.TrimSpace(g.DecidedBy)
	g.Note = strings.TrimSpace(g.Note)
	if g.DecidedAt = strings.TrimSpace(g.DecidedAt); g.DecidedAt != "" {
		t, err := time.Parse(time.RFC3339Nano, g.DecidedAt)
		if err != nil {
			r.c.addf(at, joinField(path, "decided_at"), "%q is not a time such as 2025-03-01T12:00:00.000Z", g.DecidedAt)
			return
		}
		g.DecidedAt = t.UTC().Format("2006-01-02T15:04:05.000Z")
	}
}

// sameText reports a text given beside its own sentence split when the two
// disagree, ignoring white space: the split is what gets imported, and the
// text must not be dropped silently.
func (r *resolver) sameText(text string, sentences []string, at *Error, field string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	a, b := squash(text), squash(strings.Join(sentences, ""))
	if slices.Equal(a, b) {
		return
	}
	r.c.addf(at, field, "does not match the sentences: the text reads %q, the sentences %q (give one of them, or make them agree)",
		truncate(strings.Join(strings.Fields(text), " "), 60), truncate(strings.Join(sentences, " "), 60))
}

// squash drops white space.
func squash(s string) []rune {
	out := make([]rune, 0, len(s))
	for _, c := range s {
		if !unicode.IsSpace(c) {
			out = append(out, c)
		}
	}
	return out
}

// trimAll trims every string and drops the empty ones and repeats.
func trimAll(ss []string) []string {
	var out []string
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// locString formats just the location part of an error.
func locString(e *Error) string {
	switch {
	case e.Line > 0:
		return fmt.Sprintf("%s:%d", e.File, e.Line)
	case e.Record > 0:
		return fmt.Sprintf("%s record %d", e.File, e.Record)
	}
	return e.File
}
