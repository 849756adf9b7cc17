package importer

import (
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"annotate/internal/domain"
)

// tofuRow is one row of a TofuEval factual-consistency CSV: one summary
// sentence with its gold label.
type tofuRow struct {
	line                int
	docID, topic, model string
	annotationID        string
	idx                 int
	text                string
	gold                domain.GoldInput
}

// parseFactual reads meetingbank_factual_eval_{dev,test}.csv.
func parseFactual(name string, r io.Reader, c *collector) []tofuRow {
	var out []tofuRow
	required := []string{"doc_id", "topic", "model_name", "sent_idx", "summ_sent", "sent_label"}
	if !c.partial {
		// The release's other columns: leaving them out would lose error
		// types and explanations without a word.
		required = append(required, "annotation_id", "exp", "type")
	}
	eachCSVRow(name, r, c, required, func(row csvRow, at *Error) {
		t := tofuRow{
			line:         at.Line,
			docID:        row.get("doc_id"),
			topic:        row.get("topic"),
			model:        row.get("model_name"),
			annotationID: row.get("annotation_id"),
			text:         row.get("summ_sent"),
		}
		ok := true
		for _, col := range []string{"doc_id", "model_name", "summ_sent"} {
			if row.get(col) == "" {
				c.addf(at, col, "empty")
				ok = false
			}
		}
		idx, err := strconv.Atoi(row.get("sent_idx"))
		if err != nil || idx < 1 {
			c.addf(at, "sent_idx", "%q is not a sentence number (1, 2, ...)", row.get("sent_idx"))
			ok = false
		}
		t.idx = idx
		switch strings.ToLower(row.get("sent_label")) {
		case "yes":
			t.gold.Label = domain.LabelFaithful
		case "no":
			t.gold.Label = domain.LabelUnfaithful
		default:
			c.addf(at, "sent_label", "%q is not one of yes, no", row.get("sent_label"))
			ok = false
		}
		t.gold.Explanation = row.get("exp")
		for _, name := range strings.Split(row.get("type"), ",") {
			if name = strings.TrimSpace(name); name == "" {
				continue
			}
			code, found := ErrorTypeCode("tofueval", name)
			if !found {
				c.addf(at, "type", "%q is not a TofuEval error type (%s)", name, errorTypeNames("tofueval"))
				ok = false
				continue
			}
			if !slices.Contains(t.gold.ErrorTypes, code) {
				t.gold.ErrorTypes = append(t.gold.ErrorTypes, code)
			}
		}
		if t.gold.Label == domain.LabelFaithful && len(t.gold.ErrorTypes) > 0 {
			c.addf(at, "type", "error types given for a sentence labelled yes (consistent)")
			ok = false
		}
		if ok {
			out = append(out, t)
		}
	})
	return out
}

// tofuKeyPoints is one row of meetingbank_completeness_final.csv: the key
// facts of one document and topic.
type tofuKeyPoints struct {
	line         int
	docID, topic string
	facts        []string
}

// keyPointNumber is the "1. " numbering in front of each key point.
var keyPointNumber = regexp.MustCompile(`^\d+\s*[.)]\s*`)

// notKeyFact matches the entries of the key_points lists that are not
// facts about the document: annotators' notes that the topic is not
// covered, and stray lists of option letters such as "A,B,D,E".
var notKeyFact = regexp.MustCompile(`(?i)^([A-Z](\s*,\s*[A-Z])+|(there is )?no (information|mention|sufficient coverage)\b.*|.*\bnot discussed in this (article|document).*|.*\bdoes not contain any information\b.*)$`)

// parseKeyPoints reads meetingbank_completeness_final.csv, parsing each
// key_points cell as the Python list literal it is.
func parseKeyPoints(name string, r io.Reader, c *collector) []tofuKeyPoints {
	var out []tofuKeyPoints
	dropped := 0
	eachCSVRow(name, r, c, []string{"doc_id", "topic", "key_points"}, func(row csvRow, at *Error) {
		k := tofuKeyPoints{line: at.Line, docID: row.get("doc_id"), topic: row.get("topic")}
		if k.docID == "" {
			c.addf(at, "doc_id", "empty")
			return
		}
		if strings.TrimSpace(row.get("key_points")) == "" {
			out = append(out, k) // an empty cell: no key facts
			return
		}
		list, err := parsePyList(row.get("key_points"))
		if err != nil {
			c.addf(at, "key_points", "%v", err)
			return
		}
		for _, f := range list {
			f = strings.TrimSpace(keyPointNumber.ReplaceAllString(strings.TrimSpace(f), ""))
			switch {
			case f == "":
			case notKeyFact.MatchString(f):
				dropped++
			default:
				k.facts = append(k.facts, f)
			}
		}
		out = append(out, k)
	})
	if dropped > 0 {
		c.warnf("%s: left out %d key_points %s that state no fact (notes that the topic is not covered, lists of option letters)", name, dropped, plural(dropped, "entry", "entries"))
	}
	return out
}
