package templates

// AdjScaleRow is one rating scale on the adjudication page: every
// annotator's value on the summary, or on one sentence.
type AdjScaleRow struct {
	Title string
	// Sentence is the 1-based sentence of a sentence-level scale; 0 for
	// the summary.
	Sentence int
	Values   []AdjScaleValue
}

// AdjScaleValue is one annotator's value ("—" when none).
type AdjScaleValue struct {
	Annotator, Round, Value string
}
