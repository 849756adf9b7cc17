package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"time"

	"annotate/internal/assist"
	"annotate/internal/assistjob"
	"annotate/internal/assiststore"
	"annotate/internal/domain"
	"annotate/internal/tasks"
	"annotate/internal/web"
)

const assistUsage = `assist SUBCOMMAND [flags]

Subcommands:
  run     --project SLUG --protocol single|debate [--llm-url URL --llm-model NAME --llm-key-env VAR]
          [--concurrency N] [--limit N] [--resume RUN_ID]
          judge every summary sentence of a project with the assistant; resumable, Ctrl-C cancels
  export  --project SLUG [--run ID] [--out FILE]
          write each run's results, one JSON line per summary sentence
  import  --project SLUG [--sample] [--name NAME] FILE
          read results in the export format as a new run; the whole file is checked first
  eval    --project SLUG [--run ID]
          balanced accuracy, FPR, FNR and Krippendorff's alpha of each run against gold labels

The model endpoint is any OpenAI-compatible chat-completions server. Its URL and
model come from the flags or ANNOTATE_LLM_URL and ANNOTATE_LLM_MODEL; the API key is
read from the environment variable named by --llm-key-env (default ANNOTATE_LLM_KEY)
and is never stored or printed.`

func runAssist(ctx context.Context, e env, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintf(e.stdout, "Usage: annotate %s\n", assistUsage)
		if len(args) == 0 {
			return errUsage
		}
		return nil
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "run":
		return runAssistRun(ctx, e, rest)
	case "export":
		return runAssistExport(ctx, e, rest)
	case "import":
		return runAssistImport(ctx, e, rest)
	case "eval":
		return runAssistEval(ctx, e, rest)
	}
	fmt.Fprintf(e.stderr, "annotate assist: unknown subcommand %q\n\nUsage: annotate %s\n", sub, assistUsage)
	return errUsage
}

// llmFlags are the flags that name the model endpoint; serve takes them too.
type llmFlags struct {
	url, model, keyEnv *string
	schema             *string
	timeout            *time.Duration
	maxTokens          *int
	temperature        *float64
}

// addLLMFlags adds the endpoint flags with their environment defaults.
func addLLMFlags(e env, fs *flag.FlagSet) *llmFlags {
	return &llmFlags{
		url:    fs.String("llm-url", e.getenv("ANNOTATE_LLM_URL"), "base URL of an OpenAI-compatible chat-completions API, e.g. http://localhost:8000/v1 (env ANNOTATE_LLM_URL)"),
		model:  fs.String("llm-model", e.getenv("ANNOTATE_LLM_MODEL"), "model name (env ANNOTATE_LLM_MODEL)"),
		keyEnv: fs.String("llm-key-env", "ANNOTATE_LLM_KEY", "name of the environment variable holding the API key"),
		schema: fs.String("llm-schema", cmp.Or(e.getenv("ANNOTATE_LLM_SCHEMA"), "strict"),
			"what the endpoint is sent of each answer's schema: strict (OpenAI structured outputs, vLLM, llama.cpp, Ollama), portable (no range keywords, for servers that reject them) or json_object (no schema, for servers without structured output) (env ANNOTATE_LLM_SCHEMA)"),
		timeout:     fs.Duration("llm-timeout", 2*time.Minute, "time limit of one request"),
		maxTokens:   fs.Int("llm-max-tokens", 1024, "largest answer, in tokens"),
		temperature: fs.Float64("llm-temperature", 0, "sampling temperature"),
	}
}

// config returns the endpoint configuration with the key read from the
// environment. concurrency bounds the requests in flight.
func (f *llmFlags) config(e env, concurrency int) (assist.Config, error) {
	if *f.url == "" {
		return assist.Config{}, errors.New("no model endpoint: pass --llm-url or set ANNOTATE_LLM_URL")
	}
	mode, err := assist.ParseSchemaMode(*f.schema)
	if err != nil {
		return assist.Config{}, fmt.Errorf("--llm-schema: %q is not one of strict, portable, json_object", *f.schema)
	}
	return assist.Config{
		BaseURL: *f.url, Model: *f.model, APIKey: e.getenv(*f.keyEnv), SchemaMode: mode,
		Temperature: *f.temperature, MaxTokens: *f.maxTokens, Timeout: *f.timeout, Concurrency: concurrency,
	}, nil
}

// The web server runs assistant runs through the same job as the command
// line.
var _ web.AssistRunner = (*assistjob.Job)(nil)

// assistRunner is what serve passes as web.Config.Assist: a runner over the
// endpoint the flags name, or nil when they name none, so that the web
// page tells leads to use the command line.
func assistRunner(e env, f *llmFlags, store *tasks.Store, concurrency int) web.AssistRunner {
	cfg, err := f.config(e, concurrency)
	if err != nil {
		return nil
	}
	return assistjob.New(store, cfg, concurrency)
}

// openProject looks up the project named by --project.
func openProject(ctx context.Context, store *tasks.Store, slug string) (*domain.Project, error) {
	if slug == "" {
		return nil, errors.New("--project is required")
	}
	p, err := store.ProjectBySlug(ctx, slug)
	if domain.ErrorCode(err) == domain.ENotFound {
		return nil, fmt.Errorf("project %q does not exist", slug)
	}
	return p, err
}

// projectRuns returns run id of project p, or every run of p (oldest first)
// when id is 0.
func projectRuns(ctx context.Context, store *tasks.Store, p *domain.Project, id int64) ([]assiststore.AssistRun, error) {
	if id != 0 {
		r, err := assiststore.New(store).AssistRunByID(ctx, id)
		if err == nil && r.ProjectID != p.ID {
			err = domain.Errorf(domain.ENotFound, "assistant run not found")
		}
		if err != nil {
			return nil, fmt.Errorf("run %d of project %s: %w", id, p.Slug, err)
		}
		return []assiststore.AssistRun{*r}, nil
	}
	runs, err := assiststore.New(store).AssistRuns(ctx, p.ID)
	for i, j := 0, len(runs)-1; i < j; i, j = i+1, j-1 {
		runs[i], runs[j] = runs[j], runs[i]
	}
	return runs, err
}

func runTitle(r *assiststore.AssistRun) string {
	if r.Name != "" {
		return strconv.FormatInt(r.ID, 10) + " (" + r.Name + ")"
	}
	return strconv.FormatInt(r.ID, 10)
}
