package tasks

import (
	"fmt"

	"annotate/internal/domain"
)

// Limits on imported text, in characters: generous for source documents
// (a meeting transcript is long), tight for identifiers.
const (
	maxImportIDLen       = domain.MaxShortTextLen
	maxImportUnitLen     = 1_000_000 // one document sentence or turn, or a whole document text
	maxImportSentenceLen = 100_000   // one summary sentence, its translation, a whole summary
)

// textCheck is one field of an import to check with CheckText.
type textCheck struct {
	field     string
	value     string
	max       int
	multiline bool
}

// checkDocumentText refuses an imported document holding invalid UTF-8,
// NUL or control characters, or over-long text, naming the field, before
// anything of it is written.
func checkDocumentText(where string, d *domain.DocumentInput) error {
	id := func(name, v string) textCheck { return textCheck{name, v, maxImportIDLen, false} }
	cs := []textCheck{id("id", d.ExternalID), id("kind", d.Kind), id("language", d.Language), id("domain", d.Domain),
		{"title", d.Title, maxImportIDLen, true}, {"text", d.Text, maxImportUnitLen, true}}
	for i, s := range d.Sentences {
		cs = append(cs, textCheck{fmt.Sprintf("sentences[%d]", i), s, maxImportUnitLen, true})
	}
	for i, t := range d.Turns {
		cs = append(cs, id(fmt.Sprintf("turns[%d].speaker", i), t.Speaker), textCheck{fmt.Sprintf("turns[%d].text", i), t.Text, maxImportUnitLen, true})
	}
	for i, k := range d.KeyFacts {
		p := fmt.Sprintf("key_facts[%d].", i)
		cs = append(cs, id(p+"topic", k.Topic), id(p+"category", k.Category), textCheck{p + "text", k.Text, domain.MaxNoteLen, true})
	}
	for i, s := range d.Summaries {
		p := fmt.Sprintf("summaries[%d].", i)
		cs = append(cs, id(p+"id", s.ExternalID), id(p+"topic", s.Topic), id(p+"model", s.Model), id(p+"language", s.Language),
			textCheck{p + "text", s.Text, maxImportSentenceLen, true}, textCheck{p + "original", s.Original, maxImportSentenceLen, true})
		for j, e := range s.EditTypes {
			cs = append(cs, id(fmt.Sprintf("%sedit_types[%d]", p, j), e))
		}
		cs = append(cs, goldText(p+"gold.", s.Gold)...)
		for j, x := range s.Sentences {
			q := fmt.Sprintf("%ssentences[%d].", p, j)
			cs = append(cs, textCheck{q + "text", x.Text, maxImportSentenceLen, true}, textCheck{q + "translation", x.Translation, maxImportSentenceLen, true})
			if x.SourceIndex < 0 || x.SourceIndex > 1_000_000 {
				return domain.Errorf(domain.EInvalid, "%s%ssource_index: %d is not a sentence number (1, 2, ...)", where, q, x.SourceIndex)
			}
			cs = append(cs, goldText(q+"gold.", x.Gold)...)
		}
	}
	for _, c := range cs {
		if err := domain.CheckText(where+c.field, c.value, c.max, c.multiline); err != nil {
			return err
		}
	}
	return nil
}

func goldText(p string, g *domain.GoldInput) []textCheck {
	if g == nil {
		return nil
	}
	id := func(name, v string) textCheck { return textCheck{p + name, v, maxImportIDLen, false} }
	cs := []textCheck{id("label", g.Label), id("ambiguity_type", g.AmbiguityType), id("provenance", g.Provenance), id("decided_by", g.DecidedBy),
		id("decided_at", g.DecidedAt), {p + "explanation", g.Explanation, domain.MaxNoteLen, true}, {p + "ambiguity_note", g.AmbiguityNote, domain.MaxNoteLen, true},
		{p + "note", g.Note, domain.MaxNoteLen, true}}
	for i, e := range g.ErrorTypes {
		cs = append(cs, id(fmt.Sprintf("error_types[%d]", i), e))
	}
	return cs
}
