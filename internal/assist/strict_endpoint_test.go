package assist_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"annotate/internal/assist"
)

// openAIStrict refuses a request the way OpenAI's structured outputs do
// when its schema breaks the strict subset (or, with portable, when it
// also carries range keywords, as fine-tuned models' endpoints do).
func openAIStrict(portable bool) func(r wireRequest) string {
	return func(r wireRequest) string {
		if r.ResponseFormat.Type != "json_schema" {
			return ""
		}
		if v := assist.StrictViolations(r.ResponseFormat.JSONSchema.Schema, portable); len(v) > 0 {
			return fmt.Sprintf("Invalid schema for response_format '%s': %s", r.name(), strings.Join(v, "; "))
		}
		return ""
	}
}

// TestRunsOnAStrictEndpoint runs both protocols, with the ambiguity judge
// and key facts, against an endpoint that refuses schemas exactly as
// OpenAI's strict mode does: every sentence is judged and no request is
// refused.
func TestRunsOnAStrictEndpoint(t *testing.T) {
	for _, protocol := range []assist.Protocol{assist.ProtocolSingle, assist.ProtocolDebate} {
		t.Run(string(protocol), func(t *testing.T) {
			f := newFake(t, debateAnswers(stubborn, func(n int) string { return []string{"faithful", "unfaithful"}[n%2] }))
			f.refuse = openAIStrict(false)
			sink := assist.NewMemorySink()
			stats, err := assist.NewRunner(f.client(t, nil, nil)).Run(ctxT(t), refs(6), assist.RunOptions{
				Settings:    assist.Settings{Protocol: protocol, Rounds: 2, Ambiguity: true, KeyFacts: true, Seed: 3},
				Concurrency: 3, Sink: sink,
			})
			if err != nil || stats.Succeeded != 6 || stats.Failed != 0 {
				t.Fatalf("run: %+v, %v", stats, err)
			}
			if f.refused != 0 {
				t.Fatalf("the endpoint refused %d requests", f.refused)
			}
		})
	}
}

// TestPortableModeOnAPickyEndpoint: an endpoint that rejects range
// keywords refuses strict mode's requests, and portable mode's are
// accepted, while the validator still holds citations to the document's
// units (an out-of-range one is repaired).
func TestPortableModeOnAPickyEndpoint(t *testing.T) {
	f := newFake(t, nil)
	f.refuse = openAIStrict(true)
	res, err := f.client(t, nil, nil).Assess(ctxT(t), "k", testItem(), assist.Settings{Protocol: assist.ProtocolSingle})
	if err != nil || res.Status == assist.StatusOK || f.refused == 0 {
		t.Fatalf("strict mode on an endpoint without range keywords: %v %v, %d refused", res.Status, err, f.refused)
	}

	outOfRange := 0
	g := newFake(t, func(_ int, r wireRequest) reply {
		if r.name() == "single_advocate" && len(r.Messages) == 2 {
			outOfRange++
			return ok(validAnswer(r, map[string]any{"citations": []int{2, 17}}))
		}
		// Without minItems in the schema, the fake's smallest answer would
		// cite nothing; answer as a model would, with a unit.
		return ok(validAnswer(r, map[string]any{"citations": []int{2}}))
	})
	g.refuse = openAIStrict(true)
	c := g.client(t, nil, func(cfg *assist.Config) { cfg.SchemaMode = assist.SchemaPortable })
	res, err = c.Assess(ctxT(t), "k", testItem(), assist.Settings{Protocol: assist.ProtocolSingle})
	if err != nil || res.Status != assist.StatusOK || g.refused != 0 {
		t.Fatalf("portable mode: %v %v (%s), %d refused", res.Status, err, res.Error, g.refused)
	}
	if res.Settings.SchemaMode != assist.SchemaPortable {
		t.Errorf("the result records schema mode %q", res.Settings.SchemaMode)
	}
	if c.Stats().Repairs != 1 || outOfRange != 1 {
		t.Errorf("the out-of-range citation was not repaired: %+v", c.Stats())
	}
	for _, r := range g.requests() {
		if s, _ := json.Marshal(r.ResponseFormat.JSONSchema.Schema); strings.Contains(string(s), "minimum") || strings.Contains(string(s), "minItems") {
			t.Fatalf("portable schema carries range keywords: %s", s)
		}
	}
}

// TestJSONObjectMode sends no schema, only {"type": "json_object"}, and
// the validator still checks each answer.
func TestJSONObjectMode(t *testing.T) {
	// With no schema name on the wire, the fake tells the questions apart
	// by their system prompts.
	answers := map[string]string{
		"You are the ADVOCATE":    `{"citations":[2,3],"guidelines":[],"reason":"Units [2] and [3] mention the hours."}`,
		"You are the SKEPTIC":     `{"citations":[6],"guidelines":[],"reason":"Unit [6] says it was postponed.","error_type":"tense_modality"}`,
		"You are the ADJUDICATOR": `{"advocate_holds":false,"skeptic_holds":true,"report":"Postponed.","citations":[6],"verdict":{"label":"unfaithful","error_type":"none"}}`,
	}
	repaired := `{"advocate_holds":false,"skeptic_holds":true,"report":"Postponed.","citations":[6],"verdict":{"label":"unfaithful","error_type":"tense_modality"}}`
	f := newFake(t, func(_ int, r wireRequest) reply {
		if r.ResponseFormat.Type != "json_object" || r.ResponseFormat.JSONSchema.Schema != nil {
			return reply{status: 400}
		}
		for prefix, a := range answers {
			if strings.Contains(r.system(), prefix) {
				if len(r.Messages) > 2 {
					return ok(repaired)
				}
				return ok(a)
			}
		}
		return reply{status: 400}
	})
	c := f.client(t, nil, func(cfg *assist.Config) { cfg.SchemaMode = assist.SchemaJSONObject })
	res, err := c.Assess(ctxT(t), "k", testItem(), assist.Settings{Protocol: assist.ProtocolSingle})
	if err != nil || res.Status != assist.StatusOK {
		t.Fatalf("json_object mode: %v %v (%s)", res.Status, err, res.Error)
	}
	if res.Adjudicator == nil || res.Adjudicator.ErrorType != "tense_modality" || c.Stats().Repairs != 1 {
		t.Errorf("the unfaithful verdict without an error type was not repaired: %+v, %+v", res.Adjudicator, c.Stats())
	}
}

// TestIntegralNumbersDecode: 6.0 is an integer to JSON Schema and to the
// validator, so it must decode too, with no repair request.
func TestIntegralNumbersDecode(t *testing.T) {
	f := newFake(t, func(_ int, r wireRequest) reply {
		if r.name() == "single_skeptic" {
			return ok(`{"citations":[6.0, 2e0],"guidelines":[],"reason":"Unit [6].","error_type":"tense_modality"}`)
		}
		return ok(validAnswer(r, nil))
	})
	c := f.client(t, nil, nil)
	res, err := c.Assess(ctxT(t), "k", testItem(), assist.Settings{Protocol: assist.ProtocolSingle})
	if err != nil || res.Status != assist.StatusOK || c.Stats().Repairs != 0 {
		t.Fatalf("Assess = %v %v (%s), stats %+v", res.Status, err, res.Error, c.Stats())
	}
	if got := fmt.Sprint(res.Skeptic.Citations); got != "[6 2]" {
		t.Errorf("skeptic citations = %s", got)
	}
}
