package assist

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Question is one structured question to the model: a system and a user
// message, and the schema the answer must satisfy.
type Question struct {
	// Name names the schema in response_format (letters, digits, _ and -).
	Name   string
	System string
	User   string
	Schema *Schema
	// Seed is sent as the request's sampling seed; it also makes otherwise
	// identical questions (say, two debate sessions) distinct cache entries.
	Seed int64
	// Check, if set, enforces rules across fields that the schema subset
	// cannot express; its error is treated like a schema violation.
	Check func(answer json.RawMessage) error
}

// AnswerError reports a question whose answer broke the schema, and still
// broke it after one repair request.
type AnswerError struct {
	Name string
	// First and Repaired describe what was wrong with each answer.
	First, Repaired string
}

// Error names the question and both problems.
func (e *AnswerError) Error() string {
	return fmt.Sprintf("%s: invalid answer (%s), still invalid after repair (%s)", e.Name, e.First, e.Repaired)
}

// Ask puts q to the model and decodes the validated answer into out.
//
// The answer must be a JSON object satisfying q.Schema (and q.Check). If it
// is not, the client sends one repair request that carries the answer and
// the validation error back to the model; if the repaired answer is still
// invalid, Ask returns an *AnswerError. Answers come from the cache when the
// identical request was answered before. A rejected answer is cached only
// together with its successful repair, so that a question that failed is
// asked afresh next time rather than replayed.
func (c *Client) Ask(ctx context.Context, q Question, out any) error {
	return c.ask(ctx, c.root, q, out)
}

// cachedAnswer is an answer with its cache key, whether it came from the
// cache, and the server's finish reason.
type cachedAnswer struct {
	key     string
	content string
	cached  bool
	finish  string
}

func (c *Client) ask(ctx context.Context, m *meter, q Question, out any) error {
	if !validSchemaName(q.Name) {
		return fmt.Errorf("assist: question name %q must be 1-64 letters, digits, _ or -", q.Name)
	}
	if q.Schema == nil || q.Schema.Type != "object" {
		return fmt.Errorf("assist: question %s needs an object schema", q.Name)
	}
	msgs := []Message{{Role: "system", Content: q.System}, {Role: "user", Content: q.User}}
	first, err := c.answer(ctx, m, q, msgs)
	if err != nil {
		if ctx.Err() == nil {
			m.failure()
		}
		return fmt.Errorf("%s: %w", q.Name, err)
	}
	problem := decodeAnswer(q, first, out)
	if problem == nil {
		c.store(ctx, m, first)
		return nil
	}
	m.repair()
	msgs = append(msgs,
		Message{Role: "assistant", Content: first.content},
		Message{Role: "user", Content: repairPrompt(problem)})
	second, err := c.answer(ctx, m, q, msgs)
	if err != nil {
		if ctx.Err() == nil {
			m.failure()
		}
		return fmt.Errorf("%s (repair): %w", q.Name, err)
	}
	if again := decodeAnswer(q, second, out); again != nil {
		m.failure()
		return &AnswerError{Name: q.Name, First: problem.Error(), Repaired: again.Error()}
	}
	c.store(ctx, m, first)
	c.store(ctx, m, second)
	return nil
}

// answer returns the model's answer to msgs, from the cache if possible.
func (c *Client) answer(ctx context.Context, m *meter, q Question, msgs []Message) (cachedAnswer, error) {
	seed := q.Seed
	req := chatRequest{
		Model:       c.cfg.Model,
		Messages:    msgs,
		Temperature: c.cfg.Temperature,
		MaxTokens:   c.cfg.MaxTokens,
		Seed:        &seed,
	}
	if c.cfg.SchemaMode == SchemaJSONObject {
		req.ResponseFormat = &responseFormat{Type: "json_object"}
	} else {
		schema, err := q.Schema.JSON(c.cfg.SchemaMode)
		if err != nil {
			return cachedAnswer{}, err
		}
		req.ResponseFormat = &responseFormat{
			Type:       "json_schema",
			JSONSchema: &jsonSchema{Name: q.Name, Strict: true, Schema: schema},
		}
	}
	body, err := json.Marshal(req)
	if err != nil {
		return cachedAnswer{}, err
	}
	key := requestKey(body)
	if c.cache != nil {
		v, ok, err := c.cache.Get(ctx, key)
		switch {
		case err != nil:
			m.cacheError()
		case ok:
			m.hit()
			return cachedAnswer{key: key, content: string(v), cached: true}, nil
		}
	}
	comp, err := c.send(ctx, m, body)
	if err != nil {
		return cachedAnswer{}, err
	}
	return cachedAnswer{key: key, content: comp.Content, finish: comp.FinishReason}, nil
}

// store caches a fresh answer.
func (c *Client) store(ctx context.Context, m *meter, a cachedAnswer) {
	if c.cache == nil || a.cached {
		return
	}
	if err := c.cache.Put(ctx, a.key, []byte(a.content)); err != nil {
		m.cacheError()
	}
}

// decodeAnswer validates an answer and decodes it into out.
func decodeAnswer(q Question, a cachedAnswer, out any) error {
	text := extractJSON(a.content)
	if text == "" {
		return &ValidationError{Path: "$", Reason: "the answer is empty" + truncationNote(a.finish)}
	}
	if err := ValidateJSON(q.Schema, []byte(text)); err != nil {
		if ve, ok := err.(*ValidationError); ok {
			ve.Reason += truncationNote(a.finish)
		}
		return err
	}
	if q.Check != nil {
		if err := q.Check(json.RawMessage(text)); err != nil {
			return err
		}
	}
	if err := decodeValidated(text, out); err != nil {
		return &ValidationError{Path: "$", Reason: err.Error()}
	}
	return nil
}

// decodeValidated decodes an answer the validator accepted into out. JSON
// Schema counts 3.0 and 3e0 as integers, and so does the validator, but
// encoding/json will not put them in an int: such numbers are written as
// integers first, so that whatever the validator accepts decodes.
func decodeValidated(text string, out any) error {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return err
	}
	norm, err := json.Marshal(integralNumbers(v))
	if err != nil {
		return err
	}
	return json.Unmarshal(norm, out)
}

// integralNumbers rewrites every number without a fractional part, within
// the range where float64 holds integers exactly, in integer form, and
// bounds every string (see boundAnswerText).
func integralNumbers(v any) any {
	switch x := v.(type) {
	case string:
		return boundAnswerText(x)
	case json.Number:
		if f, ok := asInteger(x); ok && math.Abs(f) <= 1<<53 {
			return json.Number(strconv.FormatInt(int64(f), 10))
		}
	case []any:
		for i := range x {
			x[i] = integralNumbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = integralNumbers(x[k])
		}
	}
	return v
}

func truncationNote(finish string) string {
	if finish == "length" {
		return " (the answer was cut off at the token limit)"
	}
	return ""
}

// extractJSON strips what some servers wrap around a JSON answer even when
// asked for structured output: a leading <think> block and Markdown fences.
func extractJSON(s string) string {
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "<think>") {
		if i := strings.Index(t, "</think>"); i >= 0 {
			t = strings.TrimSpace(t[i+len("</think>"):])
		}
	}
	if strings.HasPrefix(t, "```") {
		t = strings.TrimPrefix(t, "```")
		if i := strings.IndexByte(t, '\n'); i >= 0 {
			t = t[i+1:]
		}
		t = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(t), "```"))
	}
	return t
}

// validSchemaName applies the rule OpenAI sets for response_format names.
func validSchemaName(name string) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	for _, r := range name {
		if !(r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}
