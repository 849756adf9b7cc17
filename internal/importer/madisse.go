package importer

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"annotate/internal/domain"
)

// madisseRecord is one line of MeetingBank_ambiguity_annotated.json: a
// summary sentence with its transcript and its ambiguity annotation.
type madisseRecord struct {
	line       int
	transcript []string
	summary    string
	ambiguous  bool
	// ambiguityType is the taxonomy code, "" when the record names none or
	// its spelling could not be mapped.
	ambiguityType string
	explanation   string
}

// madisseLine is the JSON shape of a MADISSE record.
type madisseLine struct {
	Doc         []string        `json:"doc"`
	Summary     string          `json:"summary"`
	Ambiguity   json.RawMessage `json:"ambiguity"`
	Category    string          `json:"category"`
	SubCategory string          `json:"sub-category"`
	Explanation string          `json:"explanation"`
}

// parseMADISSE reads the MADISSE ambiguity file. Spellings of the
// sub-category that need a choice or cannot be mapped become warnings with
// counts, one per spelling.
func parseMADISSE(name string, r io.Reader, c *collector) []madisseRecord {
	var out []madisseRecord
	notes := map[string]int{}
	var noteOrder []string
	note := func(s string) {
		if notes[s] == 0 {
			noteOrder = append(noteOrder, s)
		}
		notes[s]++
	}
	eachJSONLine(name, r, c, func(line []byte, at *Error) {
		var m madisseLine
		if err := json.Unmarshal(line, &m); err != nil {
			c.addf(at, "", "%s", jsonMessage(err))
			return
		}
		// Some explanations carry quotes escaped twice over (\"); unescape
		// them once more.
		expl := strings.ReplaceAll(m.Explanation, `\"`, `"`)
		rec := madisseRecord{line: at.Line, summary: strings.TrimSpace(m.Summary), explanation: strings.TrimSpace(expl)}
		for _, u := range m.Doc {
			if u = strings.TrimSpace(u); u != "" {
				rec.transcript = append(rec.transcript, u)
			}
		}
		valid := true
		if len(rec.transcript) == 0 {
			c.addf(at, "doc", "empty transcript")
			valid = false
		}
		if rec.summary == "" {
			c.addf(at, "summary", "empty summary sentence")
			valid = false
		}
		amb, ok := flag01(m.Ambiguity)
		if !ok {
			c.addf(at, "ambiguity", "%s is not \"0\" or \"1\"", rawText(m.Ambiguity))
			valid = false
		}
		if !valid {
			return
		}
		sub := strings.TrimSpace(m.SubCategory)
		cat := strings.TrimSpace(m.Category)
		rec.ambiguous = amb
		code, why, unmapped := madisseType(cat, sub)
		switch {
		case !amb && (code != "" || unmapped):
			note(fmt.Sprintf("a sentence marked not ambiguous has category %q, sub-category %q; ignored the type", cat, sub))
		case unmapped:
			note(fmt.Sprintf("sub-category %q (category %q) matches no ambiguity type; imported as ambiguous without a type", sub, cat))
		case amb && code == "":
			note("an ambiguous sentence has no category; imported without a type")
		case why != "":
			note(fmt.Sprintf("sub-category %q %s", sub, why))
		}
		if amb {
			rec.ambiguityType = code
		}
		out = append(out, rec)
	})
	for _, n := range noteOrder {
		c.warnf("%s: %s (%d %s)", name, n, notes[n], plural(notes[n], "record", "records"))
	}
	return out
}

// gold is the ambiguity annotation of the record as a gold label without a
// faithfulness label.
func (m *madisseRecord) gold() *domain.GoldInput {
	amb := m.ambiguous
	g := &domain.GoldInput{Ambiguous: &amb}
	if amb {
		g.AmbiguityType = m.ambiguityType
		g.AmbiguityNote = m.explanation
	}
	return g
}

// transcriptKey identifies a transcript by its content.
func transcriptKey(utterances []string) string {
	return strings.Join(utterances, "\n")
}

// shortHash is a stable short id for a piece of content.
func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:6])
}

// madisseDocuments builds documents from MADISSE records alone: one
// dialogue document per distinct transcript, one single-sentence summary
// per record, carrying the ambiguity label and no faithfulness label.
func madisseDocuments(name string, recs []madisseRecord) []parsed {
	var out []parsed
	index := map[string]int{}
	for i := range recs {
		rec := &recs[i]
		key := transcriptKey(rec.transcript)
		di, ok := index[key]
		if !ok {
			di = len(out)
			index[key] = di
			p := parsed{at: Error{File: name, Line: rec.line}}
			p.doc = domain.DocumentInput{
				ExternalID: "madisse:" + shortHash(key),
				Kind:       domain.KindDialogue,
				Language:   "en",
				Domain:     "meetingbank",
			}
			for _, u := range rec.transcript {
				p.doc.Turns = append(p.doc.Turns, splitTurn(u))
			}
			out = append(out, p)
		}
		p := &out[di]
		p.doc.Summaries = append(p.doc.Summaries, domain.SummaryInput{
			ExternalID: p.doc.ExternalID + ":" + shortHash(rec.summary),
			Sentences:  []domain.SentenceInput{{Text: rec.summary, Gold: rec.gold()}},
		})
		p.summaryAt = append(p.summaryAt, Error{File: name, Line: rec.line})
	}
	return out
}

// sampleLine is the JSON shape of a record of the MADISSE sample_data.json:
// a claim about a MediaSum transcript with a TofuEval-style label.
type sampleLine struct {
	DocID string          `json:"doc_id"`
	Doc   string          `json:"doc"`
	Claim string          `json:"claim"`
	Label json.RawMessage `json:"label"`
	Exp   string          `json:"exp"`
	Type  string          `json:"type"`
}

// parseSample reads sample_data.json into documents, one per doc_id, each
// claim a single-sentence summary with a gold faithfulness label and
// TofuEval error types.
func parseSample(name string, r io.Reader, c *collector) []parsed {
	var out []parsed
	index := map[string]int{}
	docText := map[string]string{}
	eachJSONLine(name, r, c, func(line []byte, at *Error) {
		var m sampleLine
		if err := json.Unmarshal(line, &m); err != nil {
			c.addf(at, "", "%s", jsonMessage(err))
			return
		}
		id := strings.TrimSpace(m.DocID)
		claim := strings.TrimSpace(m.Claim)
		bad := false
		if id == "" {
			c.addf(at, "doc_id", "missing document id")
			bad = true
		}
		if claim == "" {
			c.addf(at, "claim", "empty claim")
			bad = true
		}
		consistent, ok := flag01(m.Label)
		if !ok {
			c.addf(at, "label", "%s is not \"0\" (unfaithful) or \"1\" (faithful)", rawText(m.Label))
			bad = true
		}
		g := &domain.GoldInput{Label: domain.LabelUnfaithful, Explanation: strings.TrimSpace(m.Exp)}
		if consistent {
			g.Label = domain.LabelFaithful
		}
		for _, t := range strings.Split(m.Type, ",") {
			if t = strings.TrimSpace(t); t == "" {
				continue
			}
			code, ok := ErrorTypeCode("tofueval", t)
			if !ok {
				c.addf(at, "type", "%q is not a TofuEval error type (%s)", t, errorTypeNames("tofueval"))
				bad = true
				continue
			}
			g.ErrorTypes = append(g.ErrorTypes, code)
		}
		if bad {
			return
		}
		text := strings.TrimSpace(m.Doc)
		di, seen := index[id]
		if !seen {
			di = len(out)
			index[id] = di
			docText[id] = text
			p := parsed{at: *at}
			p.doc = domain.DocumentInput{ExternalID: id, Language: "en", Domain: mediasumDomain(id)}
			if turns, ok := dialogueTurns(text); ok {
				p.doc.Kind = domain.KindDialogue
				p.doc.Turns = turns
			} else {
				p.doc.Kind = domain.KindProse
				p.doc.Text = text
			}
			out = append(out, p)
		} else if text != docText[id] {
			c.addf(at, "doc", "document %q has different text than on line %d", id, out[di].at.Line)
			return
		}
		p := &out[di]
		p.doc.Summaries = append(p.doc.Summaries, domain.SummaryInput{
			ExternalID: "sample:" + id + ":" + shortHash(claim),
			Sentences:  []domain.SentenceInput{{Text: claim, Gold: g}},
		})
		p.summaryAt = append(p.summaryAt, *at)
	})
	return out
}

// mediasumDomain names the source of MediaSum ids (NPR-…, CNN-…).
func mediasumDomain(id string) string {
	if strings.HasPrefix(id, "NPR-") || strings.HasPrefix(id, "CNN-") {
		return "mediasum"
	}
	return ""
}
