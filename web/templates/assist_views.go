package templates

// AssistRunsView is a project's assistant page for leads: its runs, the
// form that starts one and how each run fares against gold.
type AssistRunsView struct {
	Page
	Slug string
	// CanStart is set when the server has a model endpoint to run against.
	CanStart bool
	Form     RunForm
	Errors   map[string]string
	Runs     []RunRow
	Evals    []EvalRow
	// Sentences is the number of summary sentences a run would judge.
	Sentences int
}

// RunForm is the start-a-run form as typed.
type RunForm struct {
	Protocol string
	Model    string
}

// RunRow is one run in the list; while the run is active the row polls
// for its own update.
type RunRow struct {
	Slug     string
	ID       int64
	Title    string
	Protocol string
	Model    string
	Status   string
	Sample   bool
	// Live is set while this server executes the run.
	Live             bool
	Done             int
	Total            int
	Failed           int
	Calls            int64
	CacheHits        int64
	PromptTokens     int64
	CompletionTokens int64
	Created          string
	Error            string
	CanCancel        bool
	CanResume        bool
}

// EvalRow is one run judged against gold labels. Numbers are formatted;
// an undefined one reads "undefined" and Notes say why.
type EvalRow struct {
	ID       int64
	Title    string
	Protocol string
	Model    string
	Sample   bool
	N        int
	BAcc     string
	FPR      string
	FNR      string
	Alpha    string
	Notes    []string
}
