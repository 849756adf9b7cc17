package templates

// ExportView is a project's export page.
type ExportView struct {
	Page
	Slug        string
	Kinds       []ExportKind
	Rounds      []string
	Provenances []string
}

// ExportKind is one thing a lead can export.
type ExportKind struct {
	Value   string
	Formats string // "jsonl or csv"
}
