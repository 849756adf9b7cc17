package assist_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"annotate/internal/assist"
	"annotate/internal/domain"
)

// wireRequest is the chat-completions request as the fake server decodes it.
type wireRequest struct {
	Model          string           `json:"model"`
	Messages       []assist.Message `json:"messages"`
	Temperature    *float64         `json:"temperature"`
	MaxTokens      int              `json:"max_tokens"`
	Seed           *int64           `json:"seed"`
	ResponseFormat struct {
		Type       string `json:"type"`
		JSONSchema struct {
			Name   string         `json:"name"`
			Strict bool           `json:"strict"`
			Schema map[string]any `json:"schema"`
		} `json:"json_schema"`
	} `json:"response_format"`
	auth string
}

func (r wireRequest) name() string   { return r.ResponseFormat.JSONSchema.Name }
func (r wireRequest) system() string { return r.Messages[0].Content }
func (r wireRequest) user() string   { return r.Messages[1].Content }

var (
	roundRe       = regexp.MustCompile(`This is round (\d+) of`)
	agentRe       = regexp.MustCompile(`You are Agent (\d+),`)
	stanceRe      = regexp.MustCompile(`Your assigned opening stance: the sentence is (\w+)\.`)
	adjudicatorRe = regexp.MustCompile(`You are Adjudicator (\d+)\.`)
)

func match(re *regexp.Regexp, s string) string {
	if m := re.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return ""
}

func (r wireRequest) round() int     { n, _ := strconv.Atoi(match(roundRe, r.user())); return n }
func (r wireRequest) agent() int     { n, _ := strconv.Atoi(match(agentRe, r.system())); return n }
func (r wireRequest) stance() string { return match(stanceRe, r.system()) }
func (r wireRequest) adjudicator() int {
	n, _ := strconv.Atoi(match(adjudicatorRe, r.system()))
	return n
}

// reply is what the fake server sends back for one request.
type reply struct {
	status     int
	header     map[string]string
	content    string
	delay      time.Duration
	prompt     int
	completion int
}

// fakeLLM is a chat-completions server on loopback.
type fakeLLM struct {
	t      *testing.T
	srv    *httptest.Server
	mu     sync.Mutex
	bodies [][]byte
	reqs   []wireRequest
	answer func(n int, r wireRequest) reply
	// refuse, when set, returns why a request's response_format would be
	// refused (an empty string accepts it); refused counts them.
	refuse  func(r wireRequest) string
	refused int
	// tokens sums the usage the server reported.
	prompt, completion int
}

// newFake starts a server that answers with answer (n counts requests from
// 1); a nil answer replies with valid minimal answers.
func newFake(t *testing.T, answer func(n int, r wireRequest) reply) *fakeLLM {
	t.Helper()
	f := &fakeLLM{t: t, answer: answer}
	if f.answer == nil {
		f.answer = func(_ int, r wireRequest) reply { return ok(validAnswer(r, nil)) }
	}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeLLM) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	var req wireRequest
	if err := json.Unmarshal(body, &req); err != nil {
		f.t.Errorf("request body is not JSON: %v", err)
		http.Error(w, "bad json", http.StatusBadRequest)
		return
	}
	req.auth = r.Header.Get("Authorization")
	if f.refuse != nil {
		if why := f.refuse(req); why != "" {
			f.mu.Lock()
			f.refused++
			f.mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
				"message": why, "type": "invalid_request_error", "param": "response_format", "code": nil}})
			return
		}
	}
	f.mu.Lock()
	f.bodies = append(f.bodies, body)
	f.reqs = append(f.reqs, req)
	n := len(f.reqs)
	f.mu.Unlock()

	rep := f.answer(n, req)
	if rep.delay > 0 {
		select {
		case <-time.After(rep.delay):
		case <-r.Context().Done():
			return
		}
	}
	for k, v := range rep.header {
		w.Header().Set(k, v)
	}
	if rep.status != 0 && rep.status != http.StatusOK {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rep.status)
		fmt.Fprintf(w, `{"error":{"message":"status %d from the fake","type":"fake"}}`, rep.status)
		return
	}
	if rep.prompt == 0 {
		rep.prompt = 100 + len(body)%37
	}
	if rep.completion == 0 {
		rep.completion = 20 + len(rep.content)%13
	}
	f.mu.Lock()
	f.prompt += rep.prompt
	f.completion += rep.completion
	f.mu.Unlock()
	resp := map[string]any{
		"id":      fmt.Sprintf("chatcmpl-%d", n),
		"object":  "chat.completion",
		"created": 1767225600,
		"model":   req.Model,
		"choices": []any{map[string]any{
			"index":         0,
			"message":       map[string]any{"role": "assistant", "content": rep.content},
			"finish_reason": "stop",
		}},
		"usage": map[string]any{
			"prompt_tokens":     rep.prompt,
			"completion_tokens": rep.completion,
			"total_tokens":      rep.prompt + rep.completion,
		},
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(resp)
}

// requests returns a copy of the decoded requests received so far.
func (f *fakeLLM) requests() []wireRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.reqs)
}

func (f *fakeLLM) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.reqs)
}

// sortedBodies returns the raw request bodies in a canonical order.
func (f *fakeLLM) sortedBodies() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]string, len(f.bodies))
	for i, b := range f.bodies {
		out[i] = string(b)
	}
	slices.Sort(out)
	return out
}

func (f *fakeLLM) tokens() (int, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.prompt, f.completion
}

// client returns a client for the fake with tiny backoffs.
func (f *fakeLLM) client(t *testing.T, cache assist.Cache, tweak func(*assist.Config)) *assist.Client {
	t.Helper()
	cfg := assist.Config{
		BaseURL:     f.srv.URL + "/v1",
		Model:       "fake-model",
		APIKey:      "sk-test-secret",
		Temperature: 0.7,
		MaxTokens:   512,
		Timeout:     10 * time.Second,
		MaxAttempts: 3,
		BackoffBase: time.Millisecond,
		BackoffMax:  4 * time.Millisecond,
		Concurrency: 8,
	}
	if tweak != nil {
		tweak(&cfg)
	}
	c, err := assist.NewClient(cfg, cache)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func ok(content string) reply { return reply{content: content} }

// validAnswer builds the smallest answer the request's schema accepts and
// then overrides top-level fields with set.
func validAnswer(r wireRequest, set map[string]any) string {
	v := minimal(r.ResponseFormat.JSONSchema.Schema).(map[string]any)
	for k, x := range set {
		v[k] = x
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func minimal(s map[string]any) any {
	if variants, ok := s["anyOf"].([]any); ok {
		return minimal(variants[0].(map[string]any))
	}
	switch s["type"] {
	case "object":
		out := map[string]any{}
		props, _ := s["properties"].(map[string]any)
		for name, p := range props {
			out[name] = minimal(p.(map[string]any))
		}
		return out
	case "string":
		if e, ok := s["enum"].([]any); ok {
			return e[len(e)-1] // the last value: a real code, not "none"
		}
		return "because the units say so"
	case "integer":
		return s["minimum"]
	case "boolean":
		if e, ok := s["enum"].([]any); ok {
			return e[0]
		}
		return true
	case "array":
		n := 0
		if m, ok := s["minItems"].(float64); ok {
			n = int(m)
		}
		out := []any{}
		for range n {
			out = append(out, minimal(s["items"].(map[string]any)))
		}
		return out
	}
	return nil
}

// testItem is a six-unit dialogue with a two-sentence summary, judging the
// second sentence.
func testItem() assist.Item {
	return assist.Item{
		DocUnits: []assist.Unit{
			{Speaker: "Chair", Text: "The council meets tonight to discuss the library budget."},
			{Speaker: "Member Ortiz", Text: "I propose that we extend library opening hours on Sundays."},
			{Speaker: "Member Lee", Text: "Extending hours would cost about forty thousand dollars a year."},
			{Speaker: "Chair", Text: "Let us also hear the report on park maintenance."},
			{Speaker: "Member Ortiz", Text: "The parks department asked for two new mowers."},
			{Speaker: "Chair", Text: "The vote on library hours is postponed to next month."},
		},
		Summary: []string{
			"The council discussed the library budget.",
			"The council approved longer Sunday library hours, costing forty thousand dollars a year.",
		},
		Target:     1,
		Topic:      "library budget",
		ErrorTypes: domain.ErrorPresets["tofueval"],
		KeyFacts: []assist.KeyFact{
			{ID: "k1", Text: "Ortiz proposed Sunday library hours.", Category: "proposal"},
			{ID: "k2", Text: "Longer hours cost about $40,000 a year.", Category: "cost"},
		},
	}
}

var ownLabelRe = regexp.MustCompile(`\(you\) says (FAITHFUL|UNFAITHFUL)`)

// ownPosition is the agent's opening stance in round 1 and its own label of
// the round before afterwards, read from the prompt itself so that the fake
// needs no memory across requests or items.
func (r wireRequest) ownPosition() string {
	if st := r.stance(); st != "" {
		return st
	}
	all := ownLabelRe.FindAllStringSubmatch(r.user(), -1)
	if len(all) == 0 {
		return ""
	}
	return strings.ToLower(all[len(all)-1][1])
}

// debateAnswers replies to debate agents with turn(round, own position,
// agent) and to adjudicators with adj(number); other questions get minimal
// answers.
func debateAnswers(turn func(round int, own string, agent int) string, adj func(n int) string) func(int, wireRequest) reply {
	return func(_ int, r wireRequest) reply {
		switch r.name() {
		case "debate_turn":
			label := turn(r.round(), r.ownPosition(), r.agent())
			et := "none"
			if label == "unfaithful" {
				et = "extrinsic_information"
			}
			return ok(validAnswer(r, map[string]any{
				"label": label, "error_type": et, "citations": []int{2, 6},
				"reason": fmt.Sprintf("agent %d round %d argues %s", r.agent(), r.round(), label),
			}))
		case "debate_adjudicator":
			label := adj(r.adjudicator())
			et := "none"
			if label == "unfaithful" {
				et = "tense_modality"
			}
			return ok(validAnswer(r, map[string]any{
				"verdict": map[string]any{"label": label, "error_type": et}, "citations": []int{6},
				"report": fmt.Sprintf("adjudicator %d finds it %s", r.adjudicator(), label),
			}))
		}
		return ok(validAnswer(r, nil))
	}
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	t.Cleanup(cancel)
	return ctx
}
