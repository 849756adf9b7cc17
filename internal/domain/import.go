package domain

// ImportStats counts what an import created and what it found already there.
type ImportStats struct {
	Documents         int `json:"documents"`
	DocumentsExisting int `json:"documents_existing"`
	Units             int `json:"units"`
	Summaries         int `json:"summaries"`
	SummariesExisting int `json:"summaries_existing"`
	Sentences         int `json:"sentences"`
	KeyFacts          int `json:"key_facts"`
	GoldSentences     int `json:"gold_sentences"`
	GoldSummaries     int `json:"gold_summaries"`
	AmbiguityLabels   int `json:"ambiguity_labels"`
	// Annotators' labels: accounts and rounds the import made, submitted
	// assignments it made, sentence labels it added, labels that were
	// already there as given, and summary labels it added.
	Accounts       int `json:"accounts"`
	Rounds         int `json:"rounds"`
	Assignments    int `json:"assignments"`
	Labels         int `json:"labels"`
	LabelsExisting int `json:"labels_existing"`
	SummaryLabels  int `json:"summary_labels"`
	// Scales counts scales the import defined; Scores, scale values it
	// added.
	Scales int `json:"scales"`
	Scores int `json:"scores"`
	// ErrorTypesAdded are error types annotators' labels used that the
	// project's taxonomy lacked: they are kept, and added to it.
	ErrorTypesAdded []string `json:"error_types_added,omitempty"`
	// Changes counts the differences an update found with what the
	// project held, every one (the list returned keeps at most
	// MaxKeptChanges of them).
	Changes int `json:"-"`
}

// Add sums two counts.
func (a *ImportStats) Add(b ImportStats) {
	a.ErrorTypesAdded = append(a.ErrorTypesAdded, b.ErrorTypesAdded...)
	a.Documents += b.Documents
	a.DocumentsExisting += b.DocumentsExisting
	a.Units += b.Units
	a.Summaries += b.Summaries
	a.SummariesExisting += b.SummariesExisting
	a.Sentences += b.Sentences
	a.KeyFacts += b.KeyFacts
	a.GoldSentences += b.GoldSentences
	a.GoldSummaries += b.GoldSummaries
	a.AmbiguityLabels += b.AmbiguityLabels
	a.Accounts += b.Accounts
	a.Rounds += b.Rounds
	a.Assignments += b.Assignments
	a.Labels += b.Labels
	a.LabelsExisting += b.LabelsExisting
	a.SummaryLabels += b.SummaryLabels
	a.Scales += b.Scales
	a.Scores += b.Scores
	a.Changes += b.Changes
}

// ImportRequest is one import into a project.
type ImportRequest struct {
	Project   int64
	Documents []DocumentInput
	// Labels are annotators' labels of summaries in Documents or already in
	// the project, besides those nested in Documents.
	Labels []LabelRecord
	// Scales are rating scales to define in the project (see Scale); one
	// already defined the same way is left alone, a different definition
	// is a change.
	Scales []Scale
	// Update applies corrected gold, labels and metadata where the data is
	// already there and differs, instead of refusing the import.
	Update bool
	// Relabel, with Update, also applies changed document or summary text
	// where annotators' labels exist, deleting those labels.
	Relabel bool
	// DryRun checks everything the import would do and writes nothing: the
	// transaction is rolled back, and the stats are what it would add.
	DryRun bool
	// Create makes this project in the import's transaction (ImportWith
	// does; ImportStream when ImportWriter.Begin is called) instead of
	// importing into Project, so that a refused import leaves no project
	// behind.
	Create *Project
	// ErrorTaxonomy, with Create and ImportWith, is the error taxonomy the
	// files use, which the new project takes.
	ErrorTaxonomy string
}

// NonNil returns s, or an empty list when s is nil, so that JSON shows [] rather than null.
func NonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
