package assist_test

import (
	"encoding/json"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"annotate/internal/assist"
)

// TestSingleProtocol proves the MSumBench exchange: an Advocate and a
// Skeptic answer, the Adjudicator sees both cases, and the result carries
// both sides, the verdict, the lexical evidence and its provenance.
func TestSingleProtocol(t *testing.T) {
	f := newFake(t, func(_ int, r wireRequest) reply {
		switch r.name() {
		case "single_advocate":
			return ok(validAnswer(r, map[string]any{"citations": []int{2, 3, 2}, "guidelines": []int{2}, "reason": "Units [2] and [3] mention Sunday hours and the cost."}))
		case "single_skeptic":
			return ok(validAnswer(r, map[string]any{"citations": []int{6}, "guidelines": []int{6}, "error_type": "tense_modality", "reason": "Unit [6] says the vote was postponed, not held."}))
		case "single_adjudicator":
			return ok(validAnswer(r, map[string]any{"advocate_holds": false, "skeptic_holds": true, "citations": []int{6}, "verdict": map[string]any{"label": "unfaithful", "error_type": "tense_modality"}, "report": "The Skeptic is right: nothing was approved."}))
		}
		t.Errorf("unexpected question %s", r.name())
		return reply{status: 400}
	})
	c := f.client(t, nil, nil)
	res, err := c.Assess(ctxT(t), "p/d/s/2", testItem(), assist.Settings{Protocol: assist.ProtocolSingle, Seed: 3})
	if err != nil || res.Status != assist.StatusOK {
		t.Fatalf("Assess = %s, %v: %s", res.Status, err, res.Error)
	}
	if f.count() != 3 {
		t.Errorf("%d requests, want 3", f.count())
	}
	if a := res.Advocate; a.Label != assist.Faithful || !slices.Equal(a.Citations, []int{2, 3}) || a.Reason == "" {
		t.Errorf("advocate = %+v (citations deduplicated in order)", a)
	}
	if s := res.Skeptic; s.Label != assist.Unfaithful || s.ErrorType != "tense_modality" || !slices.Equal(s.Citations, []int{6}) {
		t.Errorf("skeptic = %+v", s)
	}
	v := res.Adjudicator
	if v.Label != assist.Unfaithful || v.ErrorType != "tense_modality" || v.AdvocateHolds == nil || *v.AdvocateHolds || !*v.SkepticHolds {
		t.Errorf("adjudicator = %+v", v)
	}
	for _, r := range f.requests() {
		if r.name() == "single_adjudicator" {
			u := r.user()
			if !strings.Contains(u, "Unit [6] says the vote was postponed") || !strings.Contains(u, "Units [2] and [3]") {
				t.Errorf("the adjudicator did not see both cases:\n%s", u)
			}
		}
	}
	if res.PromptVersion != assist.PromptVersion || res.Model != "fake-model" || res.Settings.Temperature != 0.7 || res.Settings.MaxTokens != 512 || res.Settings.Seed != 3 {
		t.Errorf("provenance = %q %q %+v", res.PromptVersion, res.Model, res.Settings)
	}
	if len(res.Evidence) == 0 || res.Evidence[0] != 3 {
		t.Errorf("evidence = %v, want unit 3 (cost, forty thousand dollars) first", res.Evidence)
	}
	if res.Usage.Calls != 3 || res.Usage.PromptTokens == 0 {
		t.Errorf("usage = %+v", res.Usage)
	}
	// The result is the export payload: it must survive JSON.
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{`"protocol":"single"`, `"advocate":`, `"skeptic":`, `"adjudicator":`, `"prompt_version":`, `"status":"ok"`} {
		if !strings.Contains(string(b), field) {
			t.Errorf("JSON lacks %s: %s", field, b)
		}
	}
}

// TestOutOfRangeCitationIsRepaired proves the schema maximum rejects a
// citation beyond the document's units and the repaired answer is kept.
func TestOutOfRangeCitationIsRepaired(t *testing.T) {
	f := newFake(t, func(_ int, r wireRequest) reply {
		if r.name() == "single_advocate" {
			if len(r.Messages) == 2 {
				return ok(validAnswer(r, map[string]any{"citations": []int{2, 17}}))
			}
			return ok(validAnswer(r, map[string]any{"citations": []int{2, 3}}))
		}
		return ok(validAnswer(r, nil))
	})
	c := f.client(t, nil, nil)
	res, err := c.Assess(ctxT(t), "k", testItem(), assist.Settings{})
	if err != nil || res.Status != assist.StatusOK {
		t.Fatalf("Assess = %s, %v: %s", res.Status, err, res.Error)
	}
	var repair *wireRequest
	for _, r := range f.requests() {
		if r.name() == "single_advocate" && len(r.Messages) == 4 {
			repair = &r
		}
	}
	if repair == nil || !strings.Contains(repair.Messages[3].Content, "$.citations[1]: 17 is greater than the maximum 6") {
		t.Fatalf("no repair request quoting the bound: %+v", repair)
	}
	if !slices.Equal(res.Advocate.Citations, []int{2, 3}) || res.Usage.Repairs != 1 {
		t.Errorf("advocate citations %v, usage %+v", res.Advocate.Citations, res.Usage)
	}
}

// TestInvalidTwiceFailsTheItem proves an answer still invalid after its
// repair marks the sentence failed, with a reason naming the question and
// both problems, and makes no further requests for it.
func TestInvalidTwiceFailsTheItem(t *testing.T) {
	f := newFake(t, func(_ int, r wireRequest) reply {
		if r.name() == "single_skeptic" {
			return ok(`{"citations": [1], "reason": "no guidelines here", "error_type": "contradiction"}`)
		}
		return ok(validAnswer(r, nil))
	})
	c := f.client(t, nil, nil)
	res, err := c.Assess(ctxT(t), "k", testItem(), assist.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != assist.StatusFailed {
		t.Fatalf("status = %s, want failed", res.Status)
	}
	for _, want := range []string{"skeptic", "single_skeptic", `missing required property "guidelines"`, "still invalid after repair"} {
		if !strings.Contains(res.Error, want) {
			t.Errorf("error %q lacks %q", res.Error, want)
		}
	}
	skeptic := 0
	for _, r := range f.requests() {
		if r.name() == "single_skeptic" {
			skeptic++
		}
		if r.name() == "single_adjudicator" {
			t.Error("the adjudicator was asked although a side failed")
		}
	}
	if skeptic != 2 || res.Usage.Failures != 1 {
		t.Errorf("%d skeptic requests, usage %+v; want 2 and 1 failure", skeptic, res.Usage)
	}
}

// TestAmbiguityJudge proves the judge sees both sides and the taxonomy, that
// "ambiguous" without a type is repaired, and that the type is recorded.
func TestAmbiguityJudge(t *testing.T) {
	f := newFake(t, func(_ int, r wireRequest) reply {
		if r.name() == "ambiguity" {
			if len(r.Messages) == 2 {
				return ok(validAnswer(r, map[string]any{"judgement": map[string]any{"ambiguous": true, "type": "none"}}))
			}
			return ok(validAnswer(r, map[string]any{"judgement": map[string]any{"ambiguous": true, "type": "decontextualization"}, "reason": "both readings hold"}))
		}
		return ok(validAnswer(r, nil))
	})
	c := f.client(t, nil, nil)
	res, err := c.Assess(ctxT(t), "k", testItem(), assist.Settings{Ambiguity: true})
	if err != nil || res.Status != assist.StatusOK {
		t.Fatalf("Assess = %s, %v: %s", res.Status, err, res.Error)
	}
	a := res.Ambiguity
	if a == nil || !a.Judged || !a.Ambiguous || a.Type != "decontextualization" || a.NoMovement {
		t.Fatalf("ambiguity = %+v", a)
	}
	for _, r := range f.requests() {
		if r.name() == "ambiguity" && len(r.Messages) == 2 {
			u := r.user()
			for _, want := range []string{"The Advocate says FAITHFUL", "The Skeptic says UNFAITHFUL", "vagueness (Vagueness, Meaning)"} {
				if !strings.Contains(u, want) {
					t.Errorf("judge prompt lacks %q", want)
				}
			}
			variants := r.ResponseFormat.JSONSchema.Schema["properties"].(map[string]any)["judgement"].(map[string]any)["anyOf"].([]any)
			typeEnum := func(v any) int {
				return len(v.(map[string]any)["properties"].(map[string]any)["type"].(map[string]any)["enum"].([]any))
			}
			if len(variants) != 2 || typeEnum(variants[0]) != 16 || typeEnum(variants[1]) != 17 {
				t.Errorf("judgement variants: want ambiguous with the 16 types, and not ambiguous with none + 16")
			}
		}
	}
}

// TestKeyFactSuggestions proves key facts are offered as an enum of their
// ids and the matches come back deduplicated, even when the protocol fails.
func TestKeyFactSuggestions(t *testing.T) {
	f := newFake(t, func(_ int, r wireRequest) reply {
		switch r.name() {
		case "key_facts":
			return ok(validAnswer(r, map[string]any{"matches": []map[string]string{
				{"id": "k2", "reason": "states the cost"}, {"id": "k2", "reason": "again"},
			}}))
		case "single_adjudicator":
			return reply{status: 400}
		}
		return ok(validAnswer(r, nil))
	})
	c := f.client(t, nil, nil)
	res, err := c.Assess(ctxT(t), "k", testItem(), assist.Settings{KeyFacts: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != assist.StatusFailed || !strings.Contains(res.Error, "adjudicator") {
		t.Errorf("status %s %q, want failed by the adjudicator", res.Status, res.Error)
	}
	if len(res.KeyFacts) != 1 || res.KeyFacts[0].ID != "k2" {
		t.Errorf("key facts = %+v", res.KeyFacts)
	}
	for _, r := range f.requests() {
		if r.name() == "key_facts" {
			id := r.ResponseFormat.JSONSchema.Schema["properties"].(map[string]any)["matches"].(map[string]any)["items"].(map[string]any)["properties"].(map[string]any)["id"].(map[string]any)
			if got, _ := json.Marshal(id["enum"]); string(got) != `["k1","k2"]` {
				t.Errorf("id enum = %s", got)
			}
		}
	}
}

// TestInvalidItemFailsWithoutRequests proves a malformed item fails with a
// reason and costs nothing.
func TestInvalidItemFailsWithoutRequests(t *testing.T) {
	f := newFake(t, nil)
	c := f.client(t, nil, nil)
	it := testItem()
	it.Target = 5
	res, err := c.Assess(ctxT(t), "k", it, assist.Settings{})
	if err != nil || res.Status != assist.StatusFailed || !strings.Contains(res.Error, "target 5") || f.count() != 0 {
		t.Errorf("got %s %q %v after %d requests", res.Status, res.Error, err, f.count())
	}
}

// TestFailedAnswersAreNotCached proves a question that failed leaves nothing
// in the cache, so a rerun asks the model again instead of replaying the
// failure, while the questions that succeeded are served from the cache.
func TestFailedAnswersAreNotCached(t *testing.T) {
	var broken atomic.Bool
	broken.Store(true)
	f := newFake(t, func(_ int, r wireRequest) reply {
		if broken.Load() && r.name() == "single_skeptic" {
			return ok(`{}`)
		}
		return ok(validAnswer(r, nil))
	})
	cache := assist.NewMemoryCache()
	c := f.client(t, cache, nil)
	res, err := c.Assess(ctxT(t), "k", testItem(), assist.Settings{})
	if err != nil || res.Status != assist.StatusFailed {
		t.Fatalf("first Assess = %s, %v", res.Status, err)
	}
	if cache.Len() != 1 {
		t.Errorf("cache holds %d answers, want only the advocate's", cache.Len())
	}
	broken.Store(false)
	before := f.count()
	res, err = c.Assess(ctxT(t), "k", testItem(), assist.Settings{})
	if err != nil || res.Status != assist.StatusOK {
		t.Fatalf("second Assess = %s, %v: %s", res.Status, err, res.Error)
	}
	if sent := f.count() - before; sent != 2 || res.Usage.CacheHits != 1 {
		t.Errorf("rerun sent %d requests with %d cache hits, want 2 (skeptic, adjudicator) and 1", sent, res.Usage.CacheHits)
	}
}
