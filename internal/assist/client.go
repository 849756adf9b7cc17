package assist

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"annotate/internal/redact"
)

// Config configures a Client. The zero value of each optional field means
// its default.
type Config struct {
	// BaseURL is the API root, e.g. http://localhost:8000/v1 for vLLM,
	// http://localhost:11434/v1 for Ollama or https://api.openai.com/v1;
	// "/chat/completions" is appended unless already present.
	BaseURL string
	// Model is the model name sent with every request.
	Model string
	// APIKey is sent as a bearer token when set. The caller reads it from
	// the environment; the client never prints or logs it.
	APIKey string
	// Temperature is the sampling temperature (0 is a valid value).
	Temperature float64
	// MaxTokens bounds each answer; 0 leaves it to the server.
	MaxTokens int
	// Timeout bounds each HTTP attempt (default 2 minutes).
	Timeout time.Duration
	// MaxAttempts bounds the attempts per request, the first included
	// (default 4).
	MaxAttempts int
	// BackoffBase is the wait before the first retry, doubled for each
	// further one (default 1 s); BackoffMax caps it (default 30 s).
	BackoffBase time.Duration
	BackoffMax  time.Duration
	// MaxRetryAfter caps how long a Retry-After header can make the client
	// wait (default 2 minutes).
	MaxRetryAfter time.Duration
	// SchemaMode says how much of each answer's schema is sent: strict
	// (the default), portable or json_object (see [SchemaMode]).
	SchemaMode SchemaMode
	// Concurrency bounds the requests in flight through this client,
	// across all runs that share it (default 4).
	Concurrency int
	// HTTPClient is used when set; its own Timeout should be zero, since
	// Timeout above applies per attempt.
	HTTPClient *http.Client
}

// String describes the configuration with the API key redacted, so that a
// Config printed by mistake does not leak it.
func (c Config) String() string {
	key := "unset"
	if c.APIKey != "" {
		key = "set"
	}
	return fmt.Sprintf("assist.Config{BaseURL:%q Model:%q APIKey:%s Temperature:%g MaxTokens:%d Timeout:%s MaxAttempts:%d Concurrency:%d}",
		c.BaseURL, c.Model, key, c.Temperature, c.MaxTokens, c.Timeout, c.MaxAttempts, c.Concurrency)
}

// GoString is String, so that %#v redacts the key as well.
func (c Config) GoString() string { return c.String() }

func (c Config) withDefaults() Config {
	if c.Timeout <= 0 {
		c.Timeout = 2 * time.Minute
	}
	if c.MaxAttempts <= 0 {
		c.MaxAttempts = 4
	}
	if c.BackoffBase <= 0 {
		c.BackoffBase = time.Second
	}
	if c.BackoffMax <= 0 {
		c.BackoffMax = 30 * time.Second
	}
	if c.BackoffMax < c.BackoffBase {
		c.BackoffMax = c.BackoffBase
	}
	if c.MaxRetryAfter <= 0 {
		c.MaxRetryAfter = 2 * time.Minute
	}
	if c.Concurrency <= 0 {
		c.Concurrency = 4
	}
	if c.SchemaMode == "" {
		c.SchemaMode = SchemaStrict
	}
	if c.HTTPClient == nil {
		// Keep as many idle connections as requests may be in flight,
		// instead of the default two, so a busy run reuses them.
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxIdleConnsPerHost = c.Concurrency
		c.HTTPClient = &http.Client{Transport: tr}
	}
	return c
}

// Client talks to one OpenAI-compatible chat-completions endpoint.
//
// It speaks the wire protocol with net/http rather than through
// github.com/sashabaranov/go-openai: the cache key must be the hash of the
// exact bytes sent, the retry loop must see the status and the Retry-After
// header of every failed attempt, and the strict json_schema response format
// must carry our own schema type verbatim. A hand-written request and
// response of a few fields gives all three without working around a
// library's own retries and types.
//
// A Client is safe for concurrent use; its concurrency limit is shared by
// everything that uses it.
type Client struct {
	cfg      Config
	endpoint string
	cache    Cache
	sem      chan struct{}
	root     *meter
}

// NewClient checks cfg and returns a client that stores answers in cache
// (nil disables caching).
func NewClient(cfg Config, cache Cache) (*Client, error) {
	cfg = cfg.withDefaults()
	if cfg.Model == "" {
		return nil, errors.New("assist: no model configured")
	}
	if _, err := ParseSchemaMode(string(cfg.SchemaMode)); err != nil {
		return nil, err
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("assist: base URL %q is not an http(s) URL", cfg.BaseURL)
	}
	endpoint := strings.TrimRight(cfg.BaseURL, "/")
	if !strings.HasSuffix(endpoint, "/chat/completions") {
		endpoint += "/chat/completions"
	}
	return &Client{
		cfg:      cfg,
		endpoint: endpoint,
		cache:    cache,
		sem:      make(chan struct{}, cfg.Concurrency),
		root:     newMeter(nil),
	}, nil
}

// Stats returns the client's counters since it was created.
func (c *Client) Stats() Stats { return c.root.snapshot() }

// Message is one chat message.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// chatRequest is the request body; its field order is fixed so that equal
// requests marshal to equal bytes and hence equal cache keys.
type chatRequest struct {
	Model          string          `json:"model"`
	Messages       []Message       `json:"messages"`
	Temperature    float64         `json:"temperature"`
	MaxTokens      int             `json:"max_tokens,omitempty"`
	Seed           *int64          `json:"seed,omitempty"`
	ResponseFormat *responseFormat `json:"response_format,omitempty"`
}

type responseFormat struct {
	Type       string      `json:"type"`
	JSONSchema *jsonSchema `json:"json_schema,omitempty"`
}

type jsonSchema struct {
	Name   string          `json:"name"`
	Strict bool            `json:"strict"`
	Schema json.RawMessage `json:"schema"`
}

type chatResponse struct {
	Choices []struct {
		Message struct {
			Content string `json:"content"`
			Refusal string `json:"refusal"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int64 `json:"prompt_tokens"`
		CompletionTokens int64 `json:"completion_tokens"`
	} `json:"usage"`
}

// completion is the part of a response the assistant uses.
type completion struct {
	Content      string
	FinishReason string
}

// HTTPError is a response from the endpoint with a status other than 2xx.
type HTTPError struct {
	StatusCode int
	// Message is the server's error message, shortened.
	Message string
	// RetryAfter is the wait the server asked for, if it sent Retry-After.
	RetryAfter    time.Duration
	hasRetryAfter bool
}

// Error describes the status and the server's message.
func (e *HTTPError) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("endpoint answered %d %s", e.StatusCode, http.StatusText(e.StatusCode))
	}
	return fmt.Sprintf("endpoint answered %d %s: %s", e.StatusCode, http.StatusText(e.StatusCode), e.Message)
}

// errBadBody marks a 2xx response whose body is not a chat completion.
var errBadBody = errors.New("response is not a chat completion")

// attempt sends one request and reads its answer, bounded by the per-attempt
// timeout and holding a slot of the concurrency limit meanwhile.
func (c *Client) attempt(ctx context.Context, m *meter, body []byte) (completion, error) {
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return completion{}, ctx.Err()
	}
	defer func() { <-c.sem }()

	actx, cancel := context.WithTimeoutCause(ctx, c.cfg.Timeout, errAttemptTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return completion{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if c.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	m.call()
	resp, err := c.cfg.HTTPClient.Do(req)
	if err != nil {
		return completion{}, c.transportError(actx, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil {
		return completion{}, c.transportError(actx, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		e := &HTTPError{StatusCode: resp.StatusCode, Message: redact.Text(serverMessage(data), c.cfg.APIKey)}
		e.RetryAfter, e.hasRetryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
		return completion{}, e
	}
	var cr chatResponse
	if err := json.Unmarshal(data, &cr); err != nil {
		return completion{}, fmt.Errorf("%w: %v", errBadBody, redact.Text(err.Error(), c.cfg.APIKey))
	}
	if cr.Usage != nil {
		m.tokens(cr.Usage.PromptTokens, cr.Usage.CompletionTokens)
	}
	if len(cr.Choices) == 0 {
		return completion{}, fmt.Errorf("%w: no choices", errBadBody)
	}
	ch := cr.Choices[0]
	content := ch.Message.Content
	if content == "" && ch.Message.Refusal != "" {
		content = ch.Message.Refusal
	}
	if c.cfg.APIKey != "" {
		content = strings.ReplaceAll(content, c.cfg.APIKey, redact.Mark)
	}
	return completion{Content: content, FinishReason: ch.FinishReason}, nil
}

// errAttemptTimeout is the cause recorded when an attempt runs out of time.
var errAttemptTimeout = errors.New("attempt timed out")

// transportError names a per-attempt timeout as such, since the error
// http.Client returns for it only says that a context deadline passed.
func (c *Client) transportError(actx context.Context, err error) error {
	if context.Cause(actx) == errAttemptTimeout {
		return fmt.Errorf("%w after %s", errAttemptTimeout, c.cfg.Timeout)
	}
	return err
}

// serverMessage extracts the message of an OpenAI-style error body, or the
// start of whatever else the server sent.
func serverMessage(data []byte) string {
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	msg := strings.TrimSpace(string(data))
	if json.Unmarshal(data, &e) == nil && len(e.Error) > 0 {
		var obj struct {
			Message string `json:"message"`
		}
		var str string
		switch {
		case json.Unmarshal(e.Error, &obj) == nil && obj.Message != "":
			msg = obj.Message
		case json.Unmarshal(e.Error, &str) == nil && str != "":
			msg = str
		}
	}
	if len(msg) > 300 {
		msg = strings.ToValidUTF8(msg[:300], "") + "…"
	}
	return msg
}
