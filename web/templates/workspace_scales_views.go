package templates

// ScaleView is one of the project's rating scales on the labelling page.
type ScaleView struct {
	Name, Title, Question string
	// Options are the values to choose from, each with its anchor text.
	Options []ScaleOption
	// Summary holds the annotator's value on the summary ("" for none),
	// for a summary-level scale.
	Summary string
	// Sentences holds, for a sentence-level scale, the value on each
	// sentence in order.
	Sentences []SentenceScore
	// SentenceLevel tells the two apart.
	SentenceLevel bool
	// Required scales must be filled before the summary is submitted.
	Required bool
}

// SummaryScales tells whether the project has a summary-level scale.
func (v WorkspaceView) SummaryScales() bool {
	for _, sc := range v.Scales {
		if !sc.SentenceLevel {
			return true
		}
	}
	return false
}

// SentenceScales tells whether the project has a sentence-level scale.
func (v WorkspaceView) SentenceScales() bool {
	for _, sc := range v.Scales {
		if sc.SentenceLevel {
			return true
		}
	}
	return false
}

func boolAttr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// ScaleOption is one value of a scale.
type ScaleOption struct {
	Value, Anchor string
}

// SentenceScore is a sentence's value on a sentence-level scale.
type SentenceScore struct {
	SentenceID int64
	Index      int
	Value      string
}
