package loadgen

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"strings"
)

// The comparison with Potato: the same corpus and the same annotators'
// pace against a Potato server (its standard login without passwords and
// one radio scheme, as in its quick start), so that a figure measured here
// can be set beside a run of Run on the same machine. See the README's
// performance section for the commands.

// PotatoSaves is how many labels an annotator saves on each Potato item
// before moving to the next: about the sentences of a summary in the
// seeded corpus (5.5 on average), each saved on its own as on annotate's
// labelling page.
const PotatoSaves = 5

// PotatoScheme is the radio scheme the driver labels with; the Potato
// configuration must define it with these two labels.
const PotatoScheme = "faithful"

var potatoInstance = regexp.MustCompile(`name="instance_id" type="hidden" value="([^"]*)"`)

// potatoRecord is the part of a native export record the items are made
// of: the document's text or turns and its summaries' sentences.
type potatoRecord struct {
	ID        string   `json:"id"`
	Text      string   `json:"text"`
	Sentences []string `json:"sentences"` // a document given sentence by sentence
	Turns     []struct {
		Speaker string `json:"speaker"`
		Text    string `json:"text"`
	} `json:"turns"`
	Summaries []struct {
		ID        string `json:"id"`
		Text      string `json:"text"` // a summary given whole
		Sentences []struct {
			Text string `json:"text"`
		} `json:"sentences"`
	} `json:"summaries"`
}

// PotatoItems writes one Potato item (JSON Lines: "id" and "text") for
// each summary of a native export (annotate export --what gold), its text
// the document followed by the summary, so that a Potato server shows the
// same corpus as the seeded project. A record holding more summaries of
// the document of the record before (no text of its own, as an export
// writes them) gets that document's text. Records that are not documents
// (the export's header and end records) are skipped. It returns the number of
// items written.
func PotatoItems(in io.Reader, out io.Writer) (int, error) {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	w := bufio.NewWriter(out)
	enc := json.NewEncoder(w)
	n, line := 0, 0
	var lastID, lastDoc string // the document of the record before
	for sc.Scan() {
		line++
		var head struct {
			Kind string `json:"kind"`
		}
		if err := json.Unmarshal(sc.Bytes(), &head); err != nil {
			return n, fmt.Errorf("line %d: %w", line, err)
		}
		if head.Kind == "export" || head.Kind == "end" {
			continue
		}
		var rec potatoRecord
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return n, fmt.Errorf("line %d: %w", line, err)
		}
		doc := rec.Text
		if len(rec.Sentences) > 0 {
			doc = strings.Join(rec.Sentences, " ")
		}
		if len(rec.Turns) > 0 {
			parts := make([]string, len(rec.Turns))
			for i, t := range rec.Turns {
				parts[i] = t.Speaker + ": " + t.Text
			}
			doc = strings.Join(parts, "\n")
		}
		if doc == "" {
			// More summaries of the document of the record before: an
			// export writes a document's content once.
			if rec.ID == "" || rec.ID != lastID {
				return n, fmt.Errorf("line %d: document %q has no text, and the record before is not its", line, rec.ID)
			}
			doc = lastDoc
		}
		lastID, lastDoc = rec.ID, doc
		for _, s := range rec.Summaries {
			sents := []string{s.Text}
			if len(s.Sentences) > 0 {
				sents = make([]string, len(s.Sentences))
				for i, x := range s.Sentences {
					sents[i] = x.Text
				}
			}
			item := struct {
				ID   string `json:"id"`
				Text string `json:"text"`
			}{s.ID, "DOCUMENT\n" + doc + "\n\nSUMMARY\n" + strings.Join(sents, " ")}
			if item.ID == "" {
				item.ID = fmt.Sprintf("%s-%d", rec.ID, n)
			}
			if err := enc.Encode(item); err != nil {
				return n, err
			}
			n++
		}
	}
	if err := sc.Err(); err != nil {
		return n, err
	}
	return n, w.Flush()
}

// RunPotato plays opts.Annotators annotators against a Potato server as
// Run does against annotate, with the same pace (Think, Ramp) and bounds
// (Duration, MaxRequests): each logs in by name (AnnotatorName), opens
// the annotation page, saves PotatoSaves labels of the item shown, one
// pause before each, and after one more pause moves to the next item.
// Pages (the login's answer, the annotation page and the next item's)
// and saves are timed under their own routes. Only loopback addresses
// are loaded.
func RunPotato(ctx context.Context, opts Options) (*Result, error) {
	opts.Leads = 0 // leads are annotate's
	return play(ctx, opts, (*annotator).potato)
}

// potato is one annotator's work on a Potato server.
func (a *annotator) potato(ctx context.Context) {
	if _, _, err := a.send(ctx, "POST /auth", "POST", "/auth", "application/x-www-form-urlencoded",
		url.Values{"email": {a.user}, "pass": {""}}.Encode(), 302); err != nil {
		return
	}
	_, page, err := a.send(ctx, "GET /annotate", "GET", "/annotate", "", "", 200)
	for err == nil && a.think(ctx) {
		m := potatoInstance.FindStringSubmatch(page)
		if m == nil {
			a.rec.record("GET /annotate", 0, fmt.Errorf("no item on the annotation page"))
			return
		}
		for s := range PotatoSaves {
			if s > 0 && !a.think(ctx) {
				return
			}
			label := "faithful"
			if a.rng.IntN(5) == 0 {
				label = "unfaithful"
			}
			body, _ := json.Marshal(map[string]any{"instance_id": m[1], "annotations": map[string]string{PotatoScheme + ":" + label: "true"}, "span_annotations": []any{}})
			var answer string
			if _, answer, err = a.send(ctx, "POST /updateinstance", "POST", "/updateinstance", "application/json", string(body), 200); err != nil {
				return
			}
			if !strings.Contains(answer, `"success"`) {
				a.rec.record("POST /updateinstance", 0, fmt.Errorf("save not acknowledged: %.200s", answer))
				return
			}
			a.rec.ack(Ack{User: a.user, Label: label})
		}
		if !a.think(ctx) {
			return
		}
		_, page, err = a.send(ctx, "POST /annotate (next item)", "POST", "/annotate", "application/json", `{"action":"next_instance"}`, 200)
	}
}
