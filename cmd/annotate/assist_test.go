package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"annotate/internal/app"
	"annotate/internal/assiststore"
	"annotate/internal/domain"
	"annotate/internal/tasks"
	"annotate/internal/web"
)

// chatServer is a chat-completions endpoint on loopback that answers every
// question with the smallest answer its JSON schema accepts, so that the
// run goes through the real client, cache and store.
type chatServer struct {
	srv   *httptest.Server
	delay time.Duration

	mu       sync.Mutex
	closed   *sync.Cond // signalled when a connection closes
	open     int        // connections not yet closed
	requests int
	auth     map[string]bool
}

func newChatServer(t *testing.T, delay time.Duration) *chatServer {
	t.Helper()
	c := &chatServer{delay: delay, auth: map[string]bool{}}
	c.closed = sync.NewCond(&c.mu)
	c.srv = httptest.NewUnstartedServer(http.HandlerFunc(c.serve))
	c.srv.Config.ConnState = c.track
	c.srv.Start()
	t.Cleanup(c.srv.Close)
	return c
}

func (c *chatServer) url() string { return c.srv.URL + "/v1" }

func (c *chatServer) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.requests
}

// track counts the connections open to the server.
func (c *chatServer) track(_ net.Conn, state http.ConnState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch state {
	case http.StateNew:
		c.open++
	case http.StateClosed, http.StateHijacked:
		c.open--
		c.closed.Broadcast()
	}
}

// settled closes every connection to the server, waits until each has
// closed (a connection closes after its request's handler returns) and
// returns the request count: a request a cancelled run had already sent
// is counted by then, and none of it can arrive later.
func (c *chatServer) settled() int {
	c.srv.CloseClientConnections()
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.open > 0 {
		c.closed.Wait()
	}
	return c.requests
}

func (c *chatServer) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		http.NotFound(w, r)
		return
	}
	var req struct {
		Model          string `json:"model"`
		ResponseFormat struct {
			JSONSchema struct {
				Schema map[string]any `json:"schema"`
			} `json:"json_schema"`
		} `json:"response_format"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	c.mu.Lock()
	c.requests++
	c.auth[r.Header.Get("Authorization")] = true
	c.mu.Unlock()
	if c.delay > 0 {
		select {
		case <-time.After(c.delay):
		case <-r.Context().Done():
			return
		}
	}
	content, _ := json.Marshal(smallest(req.ResponseFormat.JSONSchema.Schema))
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"object": "chat.completion",
		"model":  req.Model,
		"choices": []any{map[string]any{
			"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": string(content)},
		}},
		"usage": map[string]any{"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110},
	})
}

// smallest builds the smallest value a JSON schema accepts; an enum
// answers its last value (for labels, "unfaithful"; for error types, a real
// code rather than "none").
func smallest(s map[string]any) any {
	if variants, ok := s["anyOf"].([]any); ok {
		return smallest(variants[len(variants)-1].(map[string]any))
	}
	switch s["type"] {
	case "object":
		out := map[string]any{}
		props, _ := s["properties"].(map[string]any)
		for name, p := range props {
			out[name] = smallest(p.(map[string]any))
		}
		return out
	case "string":
		if e, ok := s["enum"].([]any); ok {
			return e[len(e)-1]
		}
		return "the cited units say so"
	case "integer":
		return s["minimum"]
	case "boolean":
		if e, ok := s["enum"].([]any); ok {
			return e[0]
		}
		return false
	case "array":
		n, _ := s["minItems"].(float64)
		out := []any{}
		for range int(n) {
			out = append(out, smallest(s["items"].(map[string]any)))
		}
		return out
	}
	return nil
}

// assistDB creates a database with project "p": two documents, three
// summaries and four sentences, two gold faithful and two gold unfaithful.
func assistDB(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "assist.db")
	store, err := tasks.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	p, err := store.CreateProject(ctx, domain.Project{Slug: "p", Settings: domain.DefaultSettings()})
	if err != nil {
		t.Fatal(err)
	}
	gold := func(l string) *domain.GoldInput { return &domain.GoldInput{Label: l} }
	docs := []domain.DocumentInput{
		{ExternalID: "d1", Kind: domain.KindDialogue, Turns: []domain.TurnInput{
			{Speaker: "Chair", Text: "The council meets to discuss the library budget."},
			{Speaker: "Ortiz", Text: "I propose longer Sunday opening hours."},
			{Speaker: "Lee", Text: "That would cost forty thousand dollars a year."},
			{Speaker: "Chair", Text: "The vote is postponed to next month."},
		}, Summaries: []domain.SummaryInput{
			{ExternalID: "d1-a", Topic: "library", Model: "writer-model", Sentences: []domain.SentenceInput{
				{Text: "The council discussed the library budget.", Gold: gold("faithful")},
				{Text: "The council approved longer Sunday hours.", Gold: gold("unfaithful")},
			}},
			{ExternalID: "d1-b", Topic: "library", Sentences: []domain.SentenceInput{
				{Text: "Longer hours would cost forty thousand dollars a year.", Gold: gold("faithful")},
			}},
		}},
		{ExternalID: "d2", Sentences: []string{"The park reopened in May.", "Attendance doubled."}, Summaries: []domain.SummaryInput{
			{ExternalID: "d2-a", Sentences: []domain.SentenceInput{{Text: "The park closed in May.", Gold: gold("unfaithful")}}},
		}},
	}
	if _, err := store.Import(ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	return db
}

// llmEnv is the environment of a run against the chat server.
func llmEnv(c *chatServer) map[string]string {
	return map[string]string{"ANNOTATE_LLM_URL": c.url(), "ANNOTATE_LLM_MODEL": "fake-model", "TEST_LLM_KEY": "sk-never-print-me"}
}

var finalLine = regexp.MustCompile(`run (\d+) (\w+): (\d+) sentences \((\d+) judged, (\d+) failed, (\d+) already done\); (\d+) calls, (\d+) cache hits, (\d+) tokens`)

// summaryOf parses a run's final line into its numbers.
func summaryOf(t *testing.T, out string) (status string, n map[string]string) {
	t.Helper()
	m := finalLine.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no final line in:\n%s", out)
	}
	return m[2], map[string]string{"run": m[1], "items": m[3], "judged": m[4], "failed": m[5], "skipped": m[6], "calls": m[7], "hits": m[8], "tokens": m[9]}
}

func openDB(t *testing.T, db string) *tasks.Store {
	t.Helper()
	s, err := tasks.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestAssistRunCachesAndResumes(t *testing.T) {
	llm := newChatServer(t, 0)
	db := assistDB(t)
	envs := llmEnv(llm)
	args := []string{"assist", "run", "--db", db, "--project", "p", "--protocol", "single", "--llm-key-env", "TEST_LLM_KEY", "--concurrency", "2"}

	out, errOut, err := runCmd(t, "", envs, args...)
	if err != nil {
		t.Fatalf("run: %v\n%s\n%s", err, out, errOut)
	}
	t.Logf("first run printed:\n%s", out)
	status, n := summaryOf(t, out)
	first := llm.count()
	if status != "done" || n["items"] != "4" || n["judged"] != "4" || n["calls"] != fmt.Sprint(first) || first == 0 || n["hits"] != "0" {
		t.Fatalf("first run: status %s, %v; server saw %d requests", status, n, first)
	}
	if want := fmt.Sprint(first * 110); n["tokens"] != want {
		t.Errorf("tokens = %s, want %s (110 per request)", n["tokens"], want)
	}
	if strings.Contains(out+errOut, "sk-never-print-me") {
		t.Error("the API key was printed")
	}
	if !llm.auth["Bearer sk-never-print-me"] || len(llm.auth) != 1 {
		t.Errorf("Authorization headers seen: %v", llm.auth)
	}
	store := openDB(t, db)
	r1 := must(assiststore.New(store).AssistRunByID(context.Background(), 1))(t)
	if r1.Outputs != 4 || r1.Usage.Calls != int64(first) || r1.Model != "fake-model" {
		t.Fatalf("stored run = %+v", r1)
	}

	t.Run("a rerun costs no requests", func(t *testing.T) {
		out, _, err := runCmd(t, "", envs, args...)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("rerun printed:\n%s", out)
		_, n := summaryOf(t, out)
		if llm.count() != first || n["calls"] != "0" || n["hits"] != fmt.Sprint(first) || n["judged"] != "4" {
			t.Fatalf("rerun: %v; server saw %d requests, want still %d", n, llm.count(), first)
		}
	})
	t.Run("resuming a finished run skips every sentence", func(t *testing.T) {
		out, _, err := runCmd(t, "", envs, append(args, "--resume", "1")...)
		if err != nil {
			t.Fatal(err)
		}
		_, n := summaryOf(t, out)
		if n["run"] != "1" || n["skipped"] != "4" || n["calls"] != "0" || n["hits"] != "0" {
			t.Fatalf("resume: %v", n)
		}
	})
	t.Run("another model cannot resume a run", func(t *testing.T) {
		e := llmEnv(llm)
		e["ANNOTATE_LLM_MODEL"] = "other-model"
		if _, _, err := runCmd(t, "", e, append(args, "--resume", "1")...); err == nil || !strings.Contains(err.Error(), "fake-model") {
			t.Fatalf("err = %v", err)
		}
	})
}

// TestAssistRunCancelAndResume cancels a run after its first sentence, as
// Ctrl-C does, then resumes it: finished sentences are kept and skipped.
func TestAssistRunCancelAndResume(t *testing.T) {
	llm := newChatServer(t, 20*time.Millisecond)
	db := assistDB(t)
	envs := llmEnv(llm)
	args := []string{"assist", "run", "--db", db, "--project", "p", "--protocol", "single", "--concurrency", "1"}
	store := openDB(t, db)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			if done, err := assiststore.New(store).AssistDone(context.Background(), 1); err == nil && len(done) >= 1 {
				cancel()
				return
			}
			time.Sleep(2 * time.Millisecond)
		}
	}()
	var out, errb bytes.Buffer
	err := run(ctx, args, func(k string) string { return envs[k] }, strings.NewReader(""), &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "--resume 1") {
		t.Fatalf("cancelled run: err = %v\n%s", err, out.String())
	}
	r := must(assiststore.New(store).AssistRunByID(context.Background(), 1))(t)
	if r.Status != assiststore.RunCancelled || r.Outputs < 1 || r.Outputs >= 4 || !strings.Contains(r.Error, "resume") {
		t.Fatalf("after cancel: %+v", r)
	}
	kept := r.Outputs
	before := llm.settled()

	res, _, err := runCmd(t, "", envs, append(args, "--resume", "1")...)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("resumed run printed:\n%s", res)
	status, n := summaryOf(t, res)
	if status != "done" || n["skipped"] != fmt.Sprint(kept) || n["judged"] != fmt.Sprint(4-kept) {
		t.Fatalf("resume: %s %v, want %d skipped", status, n, kept)
	}
	if sent := llm.count() - before; n["calls"] != fmt.Sprint(sent) {
		t.Errorf("the resumed run counted %s calls, the server saw %d", n["calls"], sent)
	}
	r = must(assiststore.New(store).AssistRunByID(context.Background(), 1))(t)
	if r.Status != assiststore.RunDone || r.Outputs != 4 || r.Error != "" {
		t.Fatalf("after resume: %+v", r)
	}
}

func TestAssistExportImportEval(t *testing.T) {
	llm := newChatServer(t, 0)
	db := assistDB(t)
	if _, _, err := runCmd(t, "", llmEnv(llm), "assist", "run", "--db", db, "--project", "p"); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "run1.jsonl")
	if _, _, err := runCmd(t, "", nil, "assist", "export", "--db", db, "--project", "p", "--run", "1", "--out", file); err != nil {
		t.Fatal(err)
	}
	data := must(os.ReadFile(file))(t)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 4 || !strings.Contains(lines[0], `"document_id":"d1","summary_id":"d1-a","sentence_id":"1","run":"run 1"`) {
		t.Fatalf("export:\n%s", data)
	}

	t.Run("round trip", func(t *testing.T) {
		out, _, err := runCmd(t, "", nil, "assist", "import", "--db", db, "--project", "p", file)
		if err != nil || !strings.Contains(out, "imported run 2 \"run 1\": 4 sentence results") {
			t.Fatalf("import: %v\n%s", err, out)
		}
		again, _, err := runCmd(t, "", nil, "assist", "export", "--db", db, "--project", "p", "--run", "2")
		if err != nil {
			t.Fatal(err)
		}
		if again != string(data) {
			t.Fatalf("re-export differs:\n%s\nwant\n%s", again, data)
		}
		store := openDB(t, db)
		r := must(assiststore.New(store).AssistRunByID(context.Background(), 2))(t)
		if r.Status != assiststore.RunImported || r.Outputs != 4 || r.Sample {
			t.Fatalf("imported run = %+v", r)
		}
	})

	t.Run("a bad line writes nothing", func(t *testing.T) {
		bad := slicesClone(lines)
		bad[1] = strings.Replace(bad[1], `"citations":[1]`, `"citations":[99]`, 1)
		bad[2] = strings.Replace(bad[2], `"summary_id":"d1-b"`, `"summary_id":"nope"`, 1)
		badFile := filepath.Join(dir, "bad.jsonl")
		os.WriteFile(badFile, []byte(strings.Join(bad, "\n")+"\n"), 0o644)
		_, _, err := runCmd(t, "", nil, "assist", "import", "--db", db, "--project", "p", badFile)
		if err == nil {
			t.Fatal("bad file imported")
		}
		for _, want := range []string{badFile + ":2: result.", "citations: unit 99 is outside the document's 1..4", badFile + `:3: summary_id: no summary "nope"`, "nothing imported"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error lacks %q:\n%v", want, err)
			}
		}
		store := openDB(t, db)
		if runs := must(assiststore.New(store).AssistRuns(context.Background(), 1))(t); len(runs) != 2 {
			t.Fatalf("%d runs after a rejected import, want 2", len(runs))
		}
	})

	// The chat server answers "unfaithful" for every label, so against
	// gold (2 faithful, 2 unfaithful): TP 2, FN 0, FP 2, TN 0, hence
	// FPR = 2/2 = 1, FNR = 0/2 = 0, BAcc = 1 − (1 + 0)/2 = 0.5. α
	// (nominal): 8 pairable values, 6 unfaithful and 2 faithful; the two
	// gold-faithful units disagree, so D_o = 4/8 = 0.5, D_e = 2·6·2/(8·7)
	// = 0.4286 and α = 1 − 0.5/0.4286 = −0.167.
	t.Run("eval", func(t *testing.T) {
		out, _, err := runCmd(t, "", nil, "assist", "eval", "--db", db, "--project", "p", "--run", "1")
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("eval printed:\n%s", out)
		fields := strings.Fields(strings.Split(strings.TrimSpace(out), "\n")[1])
		want := []string{"1", "single", "fake-model", "done", "4", "0.500", "1.000", "0.000", "-0.167"}
		if strings.Join(fields, " ") != strings.Join(want, " ") {
			t.Fatalf("row = %q, want %q", fields, want)
		}
	})
}

func slicesClone(s []string) []string { return append([]string(nil), s...) }

func TestAssistRunNeedsAnEndpoint(t *testing.T) {
	db := assistDB(t)
	_, _, err := runCmd(t, "", nil, "assist", "run", "--db", db, "--project", "p")
	if err == nil || !strings.Contains(err.Error(), "ANNOTATE_LLM_URL") {
		t.Fatalf("err = %v", err)
	}
	_, _, err = runCmd(t, "", map[string]string{"ANNOTATE_LLM_URL": "http://127.0.0.1:1/v1", "ANNOTATE_LLM_MODEL": "m"}, "assist", "run", "--db", db, "--project", "p", "--protocol", "trilogue")
	if err == nil || !strings.Contains(err.Error(), "trilogue") {
		t.Fatalf("unknown protocol: err = %v", err)
	}
	out, _, err := runCmd(t, "", nil, "assist", "-h")
	if err != nil || !strings.Contains(out, "eval") {
		t.Fatalf("assist -h: %v\n%s", err, out)
	}
}

// TestImportSampleRun checks that the demo setup imports the sample run
// through the same checks as assist import, once: a second call changes
// nothing.
func TestImportSampleRun(t *testing.T) {
	ctx := context.Background()
	store := openDB(t, filepath.Join(t.TempDir(), "demo.db"))
	var printed bytes.Buffer
	if err := app.New(store).SetupDemo(ctx, &printed, &printed); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(printed.String(), "sample run (not from a model)") {
		t.Fatalf("the demo setup printed %q", printed.String())
	}
	p := must(store.ProjectBySlug(ctx, app.DemoSlug))(t)
	var out bytes.Buffer
	if err := app.New(store).SetupDemo(ctx, &out, io.Discard); err != nil || strings.Contains(out.String(), "imported") {
		t.Fatalf("second setup: %v, printed %q", err, out.String())
	}
	runs := must(assiststore.New(store).AssistRuns(ctx, p.ID))(t)
	o := must(store.ProjectOverview(ctx, p.ID))(t)
	if len(runs) != 1 || !runs[0].Sample || runs[0].Status != assiststore.RunImported || runs[0].Outputs != o.Sentences {
		t.Fatalf("runs = %+v; the project has %d sentences", runs, o.Sentences)
	}
}

// TestAssistRunFromTheWeb starts a run from the lead's page of a server
// wired the way serve wires it, against the chat server, and waits for it
// to finish in the background.
func TestAssistRunFromTheWeb(t *testing.T) {
	ctx := context.Background()
	llm := newChatServer(t, 0)
	db := assistDB(t)
	store := openDB(t, db)
	lea, err := store.CreateUser(ctx, "lea", "", "a long enough password", false)
	if err != nil {
		t.Fatal(err)
	}
	p := must(store.ProjectBySlug(ctx, "p"))(t)
	if err := store.SetMember(ctx, p.ID, lea.ID, domain.RoleLead); err != nil {
		t.Fatal(err)
	}
	envs := llmEnv(llm)
	e := env{getenv: func(k string) string { return envs[k] }}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	runner := assistRunner(e, addLLMFlags(e, fs), store, 2)
	if runner == nil || runner.DefaultModel() != "fake-model" {
		t.Fatalf("runner = %v", runner)
	}
	srv, err := web.New(ctx, store, web.Config{Assist: runner, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	defer func() { hs.Close(); srv.Close() }()

	c := newClient(t, hs.URL)
	c.login("lea", "a long enough password")
	tok := regexp.MustCompile(`name="_csrf" value="([^"]+)"`).FindStringSubmatch(c.get("/p/p/assist"))
	resp, err := c.hc.PostForm(hs.URL+"/p/p/assist/runs", url.Values{"_csrf": {tok[1]}, "protocol": {"debate"}, "model": {"fake-model"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Request.URL.Path != "/p/p/assist" {
		t.Fatalf("start: %d at %s", resp.StatusCode, resp.Request.URL.Path)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		r, err := assiststore.New(store).AssistRunByID(ctx, 1)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status == assiststore.RunDone {
			if r.Outputs != 4 || r.Protocol != "debate" || r.Usage.Calls != int64(llm.count()) {
				t.Fatalf("finished run = %+v; server saw %d requests", r, llm.count())
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("run still %s after 10 s: %+v", r.Status, r)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if page := c.get("/p/p/assist"); !strings.Contains(page, `data-testid="run-status-1">done<`) || !strings.Contains(page, `data-testid="eval-1"`) {
		t.Fatal("the page does not show the finished run and its scores")
	}
}
