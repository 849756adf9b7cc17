package domain

// ExportScope says which part of a project an export reads.
type ExportScope struct {
	ProjectID int64
	// RoundID, when not 0, keeps the summaries with an assignment in that
	// round that was not released, and only that round's labels.
	RoundID int64
	// OneConnection reads everything in the export's own transaction,
	// never on a second connection beside it: for an export made while
	// people work, which should leave them the other processors.
	OneConnection bool
}

// ExportSummary is one summary in an export with its document, its
// summary-level gold and the counts its scores are computed from.
type ExportSummary struct {
	ID, DocumentID                     int64
	Document                           string // the document's external id
	DocumentKind, DocumentLanguage     string
	DocumentDomain, DocumentTitle      string
	External, Topic, Model, Language   string
	Original                           string
	EditTypes                          []string
	Gold                               *ExportGold // summary-level gold; nil when none
	Sentences                          int         // |S|
	GoldSentences, FaithfulSentences   int         // sentences with a resolved gold label; of them faithful
	UnfaithfulSentences                int         // of them unfaithful
	ProvenanceRank                     int         // the least automatic sentence provenance (see ProvRank)
	KeyFacts                           int         // |K|: the document's key facts for the summary's topic or none
	Alignments                         int         // submitted assignments whose key-fact alignments count
	CoveredKeyFacts, CoveringSentences int         // |{k : (k, s) in E}|, |{s : (k, s) in E}|
}

// Scores computes the summary's faithfulness, completeness and conciseness
// (PROTOCOL.md, after FineSurE). The gold alignment E holds an edge (k, s)
// when a strict majority of the submitted assignments marked it.
// Faithfulness is nil until every sentence has a resolved gold label;
// completeness and conciseness are nil when the summary has no key facts
// or no submitted assignment.
func (s *ExportSummary) Scores() SummaryScores {
	var out SummaryScores
	ratio := func(a, b int) *float64 {
		v := float64(a) / float64(b)
		return &v
	}
	if s.Sentences > 0 && s.GoldSentences == s.Sentences {
		out.Faithfulness = ratio(s.FaithfulSentences, s.Sentences)
	}
	if s.KeyFacts > 0 && s.Alignments > 0 && s.Sentences > 0 {
		out.Completeness = ratio(s.CoveredKeyFacts, s.KeyFacts)
		out.Conciseness = ratio(s.CoveringSentences, s.Sentences)
	}
	return out
}

// Label returns the summary's gold label and its provenance: the stored
// summary-level gold when there is one, else the label its sentences give
// (see SummaryLabelFrom) once every sentence has a resolved gold label,
// with the least automatic provenance among them; ("", "") otherwise.
func (s *ExportSummary) Label() (label, provenance string) {
	if s.Gold != nil {
		return s.Gold.Label, s.Gold.Provenance
	}
	if s.Sentences == 0 || s.GoldSentences != s.Sentences {
		return "", ""
	}
	switch {
	case s.UnfaithfulSentences > 0:
		label = LabelUnfaithful
	case s.FaithfulSentences < s.Sentences:
		label = LabelBorderline
	default:
		label = LabelFaithful
	}
	for p, r := range ProvRank {
		if r == s.ProvenanceRank {
			provenance = p
		}
	}
	return label, provenance
}

// ExportGold is a gold label as an export writes it: the values, where
// they came from, and who decided when.
type ExportGold struct {
	GoldValues
	Provenance  string
	DecidedByID int64
	DecidedBy   string // username; "" for automatic and imported gold
	DecidedAt   string
	Note        string
}

// ExportSentence is one summary sentence with its gold, if any.
type ExportSentence struct {
	ID    int64
	Index int
	// SourceIndex is the sentence's number in the file it was imported
	// from (TofuEval's sent_idx, which may skip numbers); Index when the
	// file gave none.
	SourceIndex int
	Text        string
	Translation string
	Gold        *ExportGold
}

// ExportDocument is a document's content: its units and key facts.
type ExportDocument struct {
	Units    []TurnInput // Speaker is "" for prose sentences
	KeyFacts []KeyFactInput
}

// ExportLabel is one annotator's label on one sentence (one row of a raw
// export); Labelled is false when the annotator has not labelled it.
type ExportLabel struct {
	Round                        string
	AssignmentID, UserID         int64
	Username, Status             string
	ActiveSeconds                int
	StartedAt, SubmittedAt       string
	SentenceID                   int64
	SentenceIndex                int
	Labelled                     bool
	Label                        string
	ErrorTypes                   []string // shared between labels with the same types: read only
	Explanation                  string
	Ambiguous                    *bool
	AmbiguityType, AmbiguityNote string
	UnsureNote, FirstLabel       string
	AssistantVisible             bool
	ChangedAfterReveal           bool
	UpdatedAt                    string
	Relevance                    *int
	NonSummary                   bool
	TopicCategory, Comment       string
	// AssistantLabel is the tentative label the assistant panel shows for
	// the sentence (newest real run, else a sample run); "" when none.
	AssistantLabel            string
	GoldLabel, GoldProvenance string
	// Flag is the annotator's comment flagging the sentence for the leads;
	// SkipReason why they skipped the assignment; "" when none.
	Flag, SkipReason string
}
