package assist_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"annotate/internal/assist"
)

// tinyQuestion asks for {"n": 1..5, "label": faithful|unfaithful}.
func tinyQuestion() assist.Question {
	return assist.Question{
		Name:   "tiny",
		System: "You count.",
		User:   "Give a number.",
		Schema: assist.Object(
			assist.Prop("n", assist.Integer("a number", 1, 5)),
			assist.Prop("label", assist.Enum("a label", "faithful", "unfaithful")),
		),
		Seed: 42,
	}
}

type tinyAnswer struct {
	N     int    `json:"n"`
	Label string `json:"label"`
}

// TestRequestCarriesStrictJSONSchema proves that every request asks for
// strict structured output whose schema bounds citations by the document's
// unit count and enumerates labels and error types, and that the key, model
// and sampling settings travel with it.
func TestRequestCarriesStrictJSONSchema(t *testing.T) {
	f := newFake(t, nil)
	c := f.client(t, nil, nil)
	res, err := c.Assess(ctxT(t), "k", testItem(), assist.Settings{Protocol: assist.ProtocolSingle})
	if err != nil || res.Status != assist.StatusOK {
		t.Fatalf("Assess = %v, %v (%s)", res.Status, err, res.Error)
	}
	byName := map[string]wireRequest{}
	for _, r := range f.requests() {
		byName[r.name()] = r
		if got := r.ResponseFormat.Type; got != "json_schema" {
			t.Errorf("%s: response_format.type = %q, want json_schema", r.name(), got)
		}
		if !r.ResponseFormat.JSONSchema.Strict {
			t.Errorf("%s: strict is false", r.name())
		}
		if r.auth != "Bearer sk-test-secret" {
			t.Errorf("%s: Authorization = %q", r.name(), r.auth)
		}
		if r.Model != "fake-model" || r.Temperature == nil || *r.Temperature != 0.7 || r.MaxTokens != 512 || r.Seed == nil {
			t.Errorf("%s: model/sampling fields wrong: %+v", r.name(), r)
		}
	}
	for _, name := range []string{"single_advocate", "single_skeptic", "single_adjudicator"} {
		if _, ok := byName[name]; !ok {
			t.Fatalf("no %s request among %d", name, len(byName))
		}
	}
	schema := byName["single_adjudicator"].ResponseFormat.JSONSchema.Schema
	if schema["additionalProperties"] != false {
		t.Errorf("additionalProperties = %v, want false", schema["additionalProperties"])
	}
	verdict := schema["properties"].(map[string]any)["verdict"].(map[string]any)
	variants := verdict["anyOf"].([]any)
	if len(variants) != 2 {
		t.Fatalf("verdict has %d variants, want one per label", len(variants))
	}
	labels, ets := "", ""
	for _, v := range variants {
		props := v.(map[string]any)["properties"].(map[string]any)
		labels += fmt.Sprint(props["label"].(map[string]any)["enum"])
		ets += fmt.Sprint(props["error_type"].(map[string]any)["enum"])
	}
	if labels != "[faithful][unfaithful]" {
		t.Errorf("verdict labels = %s", labels)
	}
	for _, code := range []string{"none", "extrinsic_information", "nuanced_meaning_shift"} {
		if !strings.Contains(ets, code) {
			t.Errorf("error_type enums %s lack %s", ets, code)
		}
	}
	req := fmt.Sprint(schema["required"])
	for _, p := range []string{"verdict", "report", "citations", "advocate_holds", "skeptic_holds"} {
		if !strings.Contains(req, p) {
			t.Errorf("required %s lacks %s", req, p)
		}
	}
	cit := byName["single_advocate"].ResponseFormat.JSONSchema.Schema["properties"].(map[string]any)["citations"].(map[string]any)
	items := cit["items"].(map[string]any)
	if items["type"] != "integer" || items["minimum"] != 1.0 || items["maximum"] != 6.0 || cit["minItems"] != 1.0 {
		t.Errorf("citations schema = %v, want integers 1..6 with minItems 1", cit)
	}
	skep := byName["single_skeptic"].ResponseFormat.JSONSchema.Schema["properties"].(map[string]any)
	if got := fmt.Sprint(skep["error_type"].(map[string]any)["enum"]); strings.Contains(got, "none") || !strings.Contains(got, "mis_referencing") {
		t.Errorf("skeptic error_type enum = %s, want the taxonomy without none", got)
	}
	// The document reaches the model as numbered units with speakers.
	if u := byName["single_advocate"].user(); !strings.Contains(u, "[2] Member Ortiz: I propose") {
		t.Errorf("document not shown as numbered units:\n%s", u)
	}
}

// TestRetryAfterIsHonoured proves a 429 with Retry-After: 1 is retried after
// the server's wait, not the (much shorter) configured backoff.
func TestRetryAfterIsHonoured(t *testing.T) {
	f := newFake(t, func(n int, r wireRequest) reply {
		if n == 1 {
			return reply{status: 429, header: map[string]string{"Retry-After": "1"}}
		}
		return ok(`{"n": 3, "label": "faithful"}`)
	})
	c := f.client(t, nil, nil)
	start := time.Now()
	var a tinyAnswer
	if err := c.Ask(ctxT(t), tinyQuestion(), &a); err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(start); waited < 900*time.Millisecond {
		t.Errorf("retried after %s, want about 1s", waited)
	}
	if a.N != 3 || f.count() != 2 {
		t.Errorf("answer %+v after %d requests, want n=3 after 2", a, f.count())
	}
	if s := c.Stats(); s.Retries != 1 || s.Calls != 2 || s.Failures != 0 {
		t.Errorf("stats = %+v, want 1 retry, 2 calls", s)
	}
}

// TestServerErrorsAreRetriedWithBackoff proves 5xx answers are retried with
// growing waits until one succeeds, and that a 4xx other than 429 is not.
func TestServerErrorsAreRetriedWithBackoff(t *testing.T) {
	t.Run("500 then 503 then success", func(t *testing.T) {
		f := newFake(t, func(n int, r wireRequest) reply {
			switch n {
			case 1:
				return reply{status: 500}
			case 2:
				return reply{status: 503}
			}
			return ok(`{"n": 5, "label": "unfaithful"}`)
		})
		c := f.client(t, nil, func(c *assist.Config) {
			c.BackoffBase, c.BackoffMax = 20*time.Millisecond, 200*time.Millisecond
		})
		start := time.Now()
		var a tinyAnswer
		if err := c.Ask(ctxT(t), tinyQuestion(), &a); err != nil {
			t.Fatal(err)
		}
		// Waits are at least half of 20ms and 40ms.
		if waited := time.Since(start); waited < 30*time.Millisecond {
			t.Errorf("two retries took %s, want at least 30ms of backoff", waited)
		}
		if s := c.Stats(); s.Retries != 2 || s.Calls != 3 || a.Label != "unfaithful" {
			t.Errorf("stats = %+v, answer %+v", s, a)
		}
	})
	t.Run("400 is final", func(t *testing.T) {
		f := newFake(t, func(int, wireRequest) reply { return reply{status: 400} })
		c := f.client(t, nil, nil)
		err := c.Ask(ctxT(t), tinyQuestion(), &tinyAnswer{})
		var he *assist.HTTPError
		if !errors.As(err, &he) || he.StatusCode != 400 || !strings.Contains(err.Error(), "status 400 from the fake") {
			t.Fatalf("err = %v, want the 400 with the server's message", err)
		}
		if f.count() != 1 || c.Stats().Failures != 1 {
			t.Errorf("%d requests, stats %+v; want 1 request and 1 failure", f.count(), c.Stats())
		}
	})
	t.Run("500 every time gives up", func(t *testing.T) {
		f := newFake(t, func(int, wireRequest) reply { return reply{status: 502} })
		c := f.client(t, nil, nil)
		err := c.Ask(ctxT(t), tinyQuestion(), &tinyAnswer{})
		if err == nil || !strings.Contains(err.Error(), "gave up after 3 attempts") {
			t.Fatalf("err = %v", err)
		}
		if f.count() != 3 {
			t.Errorf("%d requests, want MaxAttempts = 3", f.count())
		}
	})
}

// TestTimeoutsAreRetriedAndBounded proves that a server slower than the
// per-attempt timeout is retried, and that the whole question gives up after
// MaxAttempts attempts in bounded time.
func TestTimeoutsAreRetriedAndBounded(t *testing.T) {
	t.Run("slow then fast", func(t *testing.T) {
		f := newFake(t, func(n int, r wireRequest) reply {
			if n == 1 {
				return reply{delay: 3 * time.Second, content: `{"n": 1, "label": "faithful"}`}
			}
			return ok(`{"n": 2, "label": "faithful"}`)
		})
		c := f.client(t, nil, func(c *assist.Config) { c.Timeout = 250 * time.Millisecond })
		var a tinyAnswer
		if err := c.Ask(ctxT(t), tinyQuestion(), &a); err != nil {
			t.Fatal(err)
		}
		if a.N != 2 || c.Stats().Retries != 1 {
			t.Errorf("answer %+v, stats %+v", a, c.Stats())
		}
	})
	t.Run("always slow", func(t *testing.T) {
		f := newFake(t, func(int, wireRequest) reply {
			return reply{delay: 2 * time.Second, content: `{"n": 1, "label": "faithful"}`}
		})
		c := f.client(t, nil, func(c *assist.Config) { c.Timeout = 50 * time.Millisecond })
		start := time.Now()
		err := c.Ask(ctxT(t), tinyQuestion(), &tinyAnswer{})
		if err == nil || !strings.Contains(err.Error(), "timed out") || !strings.Contains(err.Error(), "gave up after 3 attempts") {
			t.Fatalf("err = %v, want a timeout after 3 attempts", err)
		}
		if took := time.Since(start); took > 2*time.Second {
			t.Errorf("took %s, want about 3 × 50ms", took)
		}
		if f.count() != 3 {
			t.Errorf("%d requests, want 3", f.count())
		}
	})
}

// TestMalformedAnswerIsRepaired proves that an answer that is not JSON gets
// exactly one repair request carrying the bad answer and the reason, and
// that the repaired answer is used.
func TestMalformedAnswerIsRepaired(t *testing.T) {
	f := newFake(t, func(n int, r wireRequest) reply {
		if n == 1 {
			return ok("Sure! The number is three.")
		}
		return ok("```json\n{\"n\": 3, \"label\": \"faithful\"}\n```")
	})
	c := f.client(t, nil, nil)
	var a tinyAnswer
	if err := c.Ask(ctxT(t), tinyQuestion(), &a); err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	if len(reqs) != 2 || a.N != 3 {
		t.Fatalf("%d requests, answer %+v; want 2 and n=3", len(reqs), a)
	}
	msgs := reqs[1].Messages
	if len(msgs) != 4 || msgs[2].Role != "assistant" || msgs[2].Content != "Sure! The number is three." ||
		msgs[3].Role != "user" || !strings.Contains(msgs[3].Content, "not valid JSON") {
		t.Errorf("repair messages = %+v", msgs)
	}
	if reqs[1].ResponseFormat.JSONSchema.Name != "tiny" {
		t.Errorf("the repair request dropped the schema")
	}
	if s := c.Stats(); s.Repairs != 1 || s.Failures != 0 {
		t.Errorf("stats = %+v", s)
	}
}

// TestSchemaViolationThenRepair proves a well-formed answer that breaks the
// schema (a number above its maximum, a label outside the enum) is repaired,
// with the validator's message sent back.
func TestSchemaViolationThenRepair(t *testing.T) {
	for _, tc := range []struct {
		name, bad, want string
	}{
		{"maximum", `{"n": 9, "label": "faithful"}`, "$.n: 9 is greater than the maximum 5"},
		{"enum", `{"n": 2, "label": "mostly faithful"}`, `$.label: "mostly faithful" is not one of ["faithful", "unfaithful"]`},
		{"extra property", `{"n": 2, "label": "faithful", "confidence": 0.9}`, `unexpected properties "confidence"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, func(n int, r wireRequest) reply {
				if n == 1 {
					return ok(tc.bad)
				}
				return ok(`{"n": 2, "label": "faithful"}`)
			})
			c := f.client(t, nil, nil)
			if err := c.Ask(ctxT(t), tinyQuestion(), &tinyAnswer{}); err != nil {
				t.Fatal(err)
			}
			reqs := f.requests()
			if len(reqs) != 2 || !strings.Contains(reqs[1].Messages[3].Content, tc.want) {
				t.Errorf("repair request = %+v, want it to quote %q", reqs[len(reqs)-1].Messages, tc.want)
			}
		})
	}
}

// TestCancellationStopsBackoff proves a cancelled context ends a request
// waiting out a long Retry-After.
func TestCancellationStopsBackoff(t *testing.T) {
	f := newFake(t, func(int, wireRequest) reply {
		return reply{status: 429, header: map[string]string{"Retry-After": "30"}}
	})
	c := f.client(t, nil, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := c.Ask(ctx, tinyQuestion(), &tinyAnswer{})
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 2*time.Second {
		t.Fatalf("err = %v after %s", err, time.Since(start))
	}
}

// TestConfigHidesKey proves printing a Config does not reveal the API key.
func TestConfigHidesKey(t *testing.T) {
	cfg := assist.Config{BaseURL: "http://x/v1", Model: "m", APIKey: "sk-very-secret"}
	for _, s := range []string{fmt.Sprint(cfg), fmt.Sprintf("%+v", cfg), fmt.Sprintf("%#v", cfg), cfg.String()} {
		if strings.Contains(s, "sk-very-secret") {
			t.Errorf("key leaked in %q", s)
		}
	}
}

// TestNewClientChecksConfig proves a missing model or a non-HTTP URL is
// refused up front.
func TestNewClientChecksConfig(t *testing.T) {
	for _, cfg := range []assist.Config{
		{BaseURL: "http://localhost:8000/v1"},
		{BaseURL: "localhost:8000", Model: "m"},
		{BaseURL: "ftp://x/v1", Model: "m"},
	} {
		if _, err := assist.NewClient(cfg, nil); err == nil {
			t.Errorf("NewClient(%v) accepted", cfg)
		}
	}
}

// TestDroppedConnectionIsRetried proves a connection closed without an
// answer counts as transient and is retried.
func TestDroppedConnectionIsRetried(t *testing.T) {
	var dropped atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !dropped.Swap(true) {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":"{\"n\":4,\"label\":\"faithful\"}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":9,"completion_tokens":4,"total_tokens":13}}`)
	}))
	defer srv.Close()
	c, err := assist.NewClient(assist.Config{BaseURL: srv.URL + "/v1/", Model: "m", BackoffBase: time.Millisecond}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var a tinyAnswer
	if err := c.Ask(ctxT(t), tinyQuestion(), &a); err != nil {
		t.Fatal(err)
	}
	if s := c.Stats(); a.N != 4 || s.Retries != 1 || s.Calls != 2 || s.PromptTokens != 9 || s.CompletionTokens != 4 {
		t.Errorf("answer %+v, stats %+v", a, s)
	}
}

// TestAskChecksTheQuestion proves a malformed question is refused before
// anything is sent.
func TestAskChecksTheQuestion(t *testing.T) {
	f := newFake(t, nil)
	c := f.client(t, nil, nil)
	for _, q := range []assist.Question{
		{Name: "has space", Schema: tinyQuestion().Schema},
		{Name: "", Schema: tinyQuestion().Schema},
		{Name: "ok", Schema: assist.String("not an object")},
	} {
		if err := c.Ask(ctxT(t), q, &tinyAnswer{}); err == nil {
			t.Errorf("Ask(%+v) accepted", q)
		}
	}
	if f.count() != 0 {
		t.Errorf("%d requests sent", f.count())
	}
}
