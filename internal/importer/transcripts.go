package importer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"annotate/internal/domain"
)

// transcriptHelp says how to give the document text of a TofuEval import.
const transcriptHelp = `give the transcripts as a JSON Lines file of {"doc_id": "...", "turns": ["Speaker 1: ...", ...]} ` +
	`(turns may also be {"speaker": "...", "text": "..."} objects), or as native documents with those ids; ` +
	`for MeetingBank, MADISSE's MeetingBank_ambiguity_annotated.json holds the 15 test transcripts`

// transcriptRecord is one line of a transcripts file.
type transcriptRecord struct {
	DocID string            `json:"doc_id"`
	Turns []json.RawMessage `json:"turns"`
}

// parseTranscripts reads a JSON Lines file of {doc_id, turns}: each turn a
// "Speaker: text" string or a {speaker, text} object.
func parseTranscripts(name string, r io.Reader, c *collector) []domain.DocumentInput {
	var out []domain.DocumentInput
	seen := map[string]int{}
	eachJSONLine(name, r, c, func(line []byte, at *Error) {
		var rec transcriptRecord
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&rec); err != nil {
			c.addf(at, "", "%s", jsonMessage(err))
			return
		}
		rec.DocID = strings.TrimSpace(rec.DocID)
		if rec.DocID == "" {
			c.addf(at, "doc_id", "empty")
			return
		}
		if first, dup := seen[rec.DocID]; dup {
			c.addf(at, "doc_id", "%q is given twice (first on line %d)", rec.DocID, first)
			return
		}
		seen[rec.DocID] = at.Line
		doc := domain.DocumentInput{ExternalID: rec.DocID, Kind: domain.KindDialogue}
		for i, raw := range rec.Turns {
			var s string
			if json.Unmarshal(raw, &s) == nil {
				if strings.TrimSpace(s) != "" {
					doc.Turns = append(doc.Turns, splitTurn(s))
				}
				continue
			}
			var t domain.TurnInput
			td := json.NewDecoder(bytes.NewReader(raw))
			td.DisallowUnknownFields()
			if err := td.Decode(&t); err != nil {
				c.addf(at, fmt.Sprintf("turns[%d]", i), "a turn is a string \"Speaker: text\" or an object {\"speaker\", \"text\"}")
				return
			}
			doc.Turns = append(doc.Turns, t)
		}
		if len(doc.Turns) == 0 {
			c.addf(at, "turns", "no turns")
			return
		}
		out = append(out, doc)
	})
	return out
}

// tofuDomain names a TofuEval file's domain from its name
// (mediasum_factual_eval_test.csv → mediasum).
func tofuDomain(file string) string {
	base := strings.ToLower(filepath.Base(file))
	if strings.HasPrefix(base, "mediasum") {
		return "mediasum"
	}
	return "meetingbank"
}

// factualNames joins the names of the factual files for a message.
func factualNames(files []namedRows) string {
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.name
	}
	return strings.Join(names, ", ")
}

// transcriptSources names the files that could give transcripts.
func transcriptSources(in tofuInputs) string {
	var names []string
	for _, f := range in.transcripts {
		names = append(names, f.name)
	}
	for _, f := range in.madisse {
		names = append(names, f.name)
	}
	if len(names) == 0 {
		return "none given"
	}
	return strings.Join(names, ", ")
}

// idList shows up to ten ids and counts the rest.
func idList(ids []string) string {
	if len(ids) <= 10 {
		return strings.Join(ids, ", ")
	}
	return strings.Join(ids[:10], ", ") + fmt.Sprintf(" and %d more", len(ids)-10)
}

// countIf counts the documents with the id.
func countIf(docs []domain.DocumentInput, id string) int {
	n := 0
	for _, d := range docs {
		if d.ExternalID == id {
			n++
		}
	}
	return n
}
