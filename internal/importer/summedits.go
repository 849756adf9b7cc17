package importer

import (
	"encoding/json"
	"errors"
	"io"
	"path/filepath"
	"strings"

	"annotate/internal/domain"
)

// summEditsRecord is the JSON shape of one SummEdits record.
type summEditsRecord struct {
	ID              string          `json:"id"`
	Doc             string          `json:"doc"`
	Summary         string          `json:"summary"`
	Label           json.RawMessage `json:"label"`
	OriginalSummary *string         `json:"original_summary"`
	EditTypes       *[]string       `json:"edit_types"`
	// The "split" field (test or evaluation) is not imported.
}

// summEditsDomain reads the domain from a file named summedits_<domain>.json.
func summEditsDomain(name string) string {
	base := strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	if d, ok := strings.CutPrefix(base, "summedits_"); ok {
		return d
	}
	return ""
}

// parseSummEdits streams a SummEdits JSON array. Every record becomes one
// summary with a summary-level gold label; records about the same document
// text share one document.
func parseSummEdits(name string, r io.Reader, c *collector) []parsed {
	area := summEditsDomain(name)
	prefix := "summedits:"
	if area != "" {
		prefix += area + ":"
	}
	dec := json.NewDecoder(r)
	tok, err := dec.Token()
	if err == io.EOF {
		c.addf(&Error{File: name}, "", "the file is empty: nothing to import")
		return nil
	}
	if err != nil || tok != json.Delim('[') {
		c.addf(&Error{File: name}, "", "expected a JSON array of SummEdits records")
		return nil
	}
	if !dec.More() {
		c.addf(&Error{File: name}, "", "the array holds no records: nothing to import")
		return nil
	}
	var out []parsed
	index := map[string]int{}
	for n := 1; dec.More() && !c.full(); n++ {
		at := &Error{File: name, Record: n}
		var raw json.RawMessage
		var rec summEditsRecord
		err := dec.Decode(&raw)
		if err == nil {
			if field, msg, bad := checkJSON(raw); bad {
				c.addf(at, field, "%s", msg)
				continue
			}
			err = json.Unmarshal(raw, &rec)
		}
		if err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				// The record was read whole; go on with the next.
				c.addf(at, te.Field, "expected %s, got %s", te.Type, te.Value)
				continue
			}
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				c.addf(at, "", "invalid JSON: the file ends inside the array")
			} else {
				c.addf(at, "", "invalid JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
			}
			return nil
		}
		ok := true
		for _, f := range []struct{ name, value string }{{"id", rec.ID}, {"doc", rec.Doc}, {"summary", rec.Summary}} {
			if strings.TrimSpace(f.value) == "" {
				c.addf(at, f.name, "empty")
				ok = false
			}
		}
		// The release's own columns are required: a file without them
		// loses what the study recorded, unless declared partial.
		if !c.partial {
			for _, f := range []struct {
				name    string
				missing bool
			}{{"original_summary", rec.OriginalSummary == nil}, {"edit_types", rec.EditTypes == nil}} {
				if f.missing {
					c.addf(at, f.name, "missing (SummEdits records carry it; if the file leaves it out on purpose, import it as partial: --partial, or the Import page's box)")
					ok = false
				}
			}
		}
		consistent, valid := flag01(rec.Label)
		if !valid {
			c.addf(at, "label", "%s is not 0 (inconsistent) or 1 (consistent)", rawText(rec.Label))
			ok = false
		}
		if !ok {
			continue
		}
		gold := &domain.GoldInput{Label: domain.LabelUnfaithful}
		if consistent {
			gold.Label = domain.LabelFaithful
		}
		text := strings.TrimSpace(rec.Doc)
		di, seen := index[text]
		if !seen {
			di = len(out)
			index[text] = di
			p := parsed{at: *at}
			p.doc = domain.DocumentInput{ExternalID: prefix + shortHash(text), Language: "en", Domain: area, NamedByContent: true}
			if turns, ok := dialogueTurns(text); ok {
				p.doc.Kind = domain.KindDialogue
				p.doc.Turns = turns
			} else {
				p.doc.Kind = domain.KindProse
				p.doc.Text = text
			}
			out = append(out, p)
		}
		p := &out[di]
		p.doc.Summaries = append(p.doc.Summaries, domain.SummaryInput{
			ExternalID: strings.TrimSpace(rec.ID),
			Text:       rec.Summary,
			Original:   deref(rec.OriginalSummary),
			EditTypes:  deref(rec.EditTypes),
			Gold:       gold,
		})
		p.summaryAt = append(p.summaryAt, *at)
	}
	if c.full() {
		return out
	}
	if _, err := dec.Token(); err != nil {
		c.addf(&Error{File: name}, "", "invalid JSON at the end of the array: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	return out
}

// deref is the value p points at, or the zero value.
func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
