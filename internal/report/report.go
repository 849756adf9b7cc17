package report

import "annotate/internal/agreement"

// Report is the agreement report of one project and round (or all rounds).
// It marshals to JSON with the field names below, which are kept stable.
// Every number is finite: a statistic without a value carries
// {"undefined": "reason"} instead.
type Report struct {
	Project    string      `json:"project"`    // the project's slug
	Round      string      `json:"round"`      // the round reported on; "" for all rounds
	Rounds     []RoundInfo `json:"rounds"`     // every round of the project, oldest first
	Annotators []string    `json:"annotators"` // usernames of the annotators with labels in scope, sorted
	// Bootstrap is the number of replicates drawn for each α interval (0:
	// none); each α's own bootstrap and bootstrap_undefined give how many
	// of them its interval used and how many were left out with α
	// undefined on them.
	Bootstrap int `json:"bootstrap"`
	// BootstrapMethod is what the bootstrap resampled: "units" (units with
	// all their labels; Zapf et al. 2016) or "pairs" (pairable values;
	// Hayes & Krippendorff 2007); empty without a bootstrap.
	BootstrapMethod string `json:"bootstrap_method,omitempty"`
	// SubmittedOnly says whether only submitted assignments were counted
	// (the default) or drafts too; it applies to every dimension.
	SubmittedOnly bool `json:"submitted_only"`
	// Dimensions holds one entry per label dimension and level.
	Dimensions []Dimension `json:"dimensions"`
	// PerAnnotator holds each annotator against the rest and against gold.
	PerAnnotator []Annotator `json:"per_annotator"`
	// Assistant is the assistant's effect on the labels in scope.
	Assistant Assistant `json:"assistant"`
	// Trend holds the statistics of every round, oldest first.
	Trend []TrendRound `json:"trend"`
	// Disagreements lists the sentences annotators split on most, worst
	// first (at most MaxDisagreements); DisagreementsTotal counts them all.
	Disagreements      []Disagreement `json:"disagreements"`
	DisagreementsTotal int            `json:"disagreements_total"`
}

// RoundInfo names a round of the project.
type RoundInfo struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`   // calibration or production
	Status string `json:"status"` // open or closed
}

// Dimension is the agreement on one label dimension at one level.
type Dimension struct {
	// Name identifies the dimension: faithfulness, error_type:CODE (one
	// error type against the rest), error_types (the set, MASI), ambiguity,
	// ambiguity_type, key_facts, relevance or topic_category.
	Name  string `json:"name"`
	Title string `json:"title"` // the name for people
	// Level is sentence (one unit per summary sentence; for key facts, per
	// key fact and sentence) or summary (one unit per summary; for key
	// facts, per key fact and summary).
	Level string `json:"level"`
	// Scale is how values compare: nominal, ordinal or masi (sets of labels).
	Scale    string     `json:"scale"`
	Units    int        `json:"units"`          // units with at least one rating
	Pairable int        `json:"pairable_units"` // units with two or more ratings
	Ratings  int        `json:"ratings"`        // ratings in all
	Values   []ValueUse `json:"values"`         // how often each value was given
	// Statistics are those of `annotate agreement --ratings`: α at the
	// dimension's scale with a bootstrap interval, Fleiss' κ, the mean
	// pairwise Cohen's κ (quadratic weights for ordinal scales), percent
	// agreement, Scott's π and Gwet's AC1. For sets the κ-type statistics
	// compare whole sets (exact match); α uses the MASI distance.
	Statistics agreement.Statistics `json:"statistics"`
	// IntervalCaution, when not empty, says that too few pairable ratings
	// differ from the most common value for the intervals of α, Fleiss'
	// κ, Scott's π and the pairwise Cohen's κ to be trusted (see
	// agreement.RareValueRatings).
	IntervalCaution string `json:"interval_caution,omitempty"`
	// Pairwise is Cohen's κ for every pair of annotators who labelled a
	// unit in common, by username.
	Pairwise []agreement.Pair `json:"pairwise"`
}

// Key is the dimension's name and level, as in "faithfulness@sentence".
func (d *Dimension) Key() string { return d.Name + "@" + d.Level }

// ValueUse counts the ratings with one value.
type ValueUse struct {
	Value   string `json:"value"`
	Ratings int    `json:"ratings"`
}

// Annotator is one annotator's agreement with the others and with gold.
type Annotator struct {
	Name   string `json:"annotator"`
	Labels int    `json:"sentence_labels"` // sentences labelled in scope
	// SecondsPerSentence is the annotator's active seconds on the
	// summaries in scope with time recorded, over the sentences they
	// labelled in them; absent when no time was recorded.
	SecondsPerSentence *float64              `json:"seconds_per_sentence,omitempty"`
	Dimensions         []AnnotatorDimension  `json:"dimensions"`
	Disagree           []DisagreementPattern `json:"disagree_most"` // where they part from the others most, worst first
}

// AnnotatorDimension is one annotator on one dimension.
type AnnotatorDimension struct {
	Dimension string `json:"dimension"`
	Level     string `json:"level"`
	// Agreement is the mean, over the units this annotator and at least
	// one other rated, of the share of the others' ratings that equal
	// theirs (1 − MASI distance for sets), with a normal 95% interval over
	// units.
	Agreement agreement.Statistic `json:"agreement_with_rest"`
	// KappaMajority is Cohen's κ between this annotator and the plurality
	// value of the others, on units where the others have a single
	// plurality value (not for sets).
	KappaMajority agreement.Statistic `json:"kappa_vs_majority"`
	// AlphaWithout is α of the group without this annotator: if it is
	// higher than the dimension's α, this annotator lowers agreement.
	AlphaWithout agreement.Statistic `json:"alpha_without"`
	// Gold compares the annotator with gold, when the dimension has gold.
	Gold *GoldAgreement `json:"gold,omitempty"`
}

// GoldAgreement is an annotator (or the assistant) against gold labels.
type GoldAgreement struct {
	N int `json:"n"` // units with both a label and gold, as scored
	// Independent counts the units scored against gold the annotator's
	// label did not help make: imported or adjudicated gold.
	Independent int `json:"independent_gold"`
	// LeaveOneOut counts the units without such gold, because their gold
	// was made from the annotators' own labels (unanimous, or a majority
	// accepted) or they have none yet: there the annotator is scored
	// against the strict majority of the other annotators' labels in the
	// report's scope, when at least two others rated the unit, never
	// against gold their own label helped make.
	LeaveOneOut int `json:"leave_one_out_gold"`
	// Unscored counts the units whose gold the annotators made that are
	// left out because fewer than two others rated them or the others had
	// no strict majority.
	Unscored int                 `json:"unscored_own_gold"`
	Accuracy Rate                `json:"accuracy"`
	Kappa    agreement.Statistic `json:"cohen_kappa"`
	// BalancedAccuracy is the mean, over the gold values present, of the
	// share of units with that gold given that value (the recall of each;
	// see iaa.BalancedAccuracy): on the dimensions with a positive class
	// (faithfulness, yes/no, present) only.
	BalancedAccuracy *agreement.Statistic `json:"balanced_accuracy,omitempty"`
	Confusion        Confusion            `json:"confusion"`
}

// Confusion is a confusion matrix: Counts[i][j] units whose gold is
// Values[i] and whose label is Values[j].
type Confusion struct {
	Values []string `json:"values"`
	Counts [][]int  `json:"counts"`
}

// DisagreementPattern is a way one annotator departs from the others: on
// Count of the Of units compared, they gave Theirs where the others'
// plurality was Others.
type DisagreementPattern struct {
	Dimension string `json:"dimension"`
	Level     string `json:"level"`
	Theirs    string `json:"theirs"`
	Others    string `json:"others"`
	Count     int    `json:"count"`
	Of        int    `json:"of"`
}

// Rate is a proportion K/N with its Wilson 95% interval, or Undefined with
// the reason when N is 0.
type Rate struct {
	K         int         `json:"k"`
	N         int         `json:"n"`
	Value     *float64    `json:"value,omitempty"`
	CI95      *[2]float64 `json:"ci95,omitempty"`
	Undefined string      `json:"undefined,omitempty"`
}

// Assistant is the assistant's effect on the sentence labels in scope.
type Assistant struct {
	// Note says why the figures are empty, when they are.
	Note string `json:"note,omitempty"`
	// Labels counts the sentence labels in scope; WithAssistant those of a
	// sentence with a tentative label from the assistant; WithGold those
	// of a sentence with gold.
	Labels        int `json:"labels"`
	WithAssistant int `json:"with_assistant"`
	WithGold      int `json:"with_gold"`
	// Assistant is the assistant's own tentative label against gold.
	Assistant *GoldAgreement `json:"assistant_vs_gold,omitempty"`
	// Splits compares labels saved with the assistant hidden, visible
	// after a first label, and visible from the start.
	Splits []AssistSplit `json:"splits"`
	// Reveal follows labels first given blind and then seen with the
	// assistant.
	Reveal Reveal `json:"reveal"`
}

// AssistSplit is the labels saved under one assistant condition.
type AssistSplit struct {
	Condition string `json:"condition"` // hidden, after_first_label or visible
	Labels    int    `json:"labels"`
	// GoldAccuracy is the share of labels equal to gold.
	GoldAccuracy Rate `json:"gold_accuracy"`
	// AssistantAgreement is the share of labels equal to the assistant's.
	AssistantAgreement Rate `json:"assistant_agreement"`
	// FollowedWrong is, where the assistant's label differs from gold, the
	// share of labels equal to the assistant's.
	FollowedWrong Rate `json:"followed_when_wrong"`
}

// Reveal follows labels given first with the assistant hidden and saved
// again after it was revealed.
type Reveal struct {
	Revealed int `json:"revealed"` // labels with a first, blind label and a later one seen with the assistant
	// Changed is the share of those whose final label differs from the first.
	Changed Rate `json:"changed"`
	// ToAssistant, TowardGold and AwayFromGold count the changes that
	// moved to the assistant's label, to gold, and from gold.
	ToAssistant  int `json:"changed_to_assistant"`
	TowardGold   int `json:"changed_toward_gold"`
	AwayFromGold int `json:"changed_away_from_gold"`
	// FirstAgree and FinalAgree are the shares of first and final labels
	// equal to the assistant's, on sentences where it has one.
	FirstAgree Rate `json:"first_agrees_with_assistant"`
	FinalAgree Rate `json:"final_agrees_with_assistant"`
}

// TrendRound is the point estimates of every dimension in one round.
type TrendRound struct {
	Round      string       `json:"round"`
	Kind       string       `json:"kind"`
	Dimensions []TrendPoint `json:"dimensions"`
}

// TrendPoint is one dimension's statistics in one round, without bootstrap.
type TrendPoint struct {
	Dimension  string               `json:"dimension"`
	Level      string               `json:"level"`
	Units      int                  `json:"units"`
	Ratings    int                  `json:"ratings"`
	Statistics agreement.Statistics `json:"statistics"`
	// IntervalCaution is as for Dimension: too few ratings differ from
	// the most common value in this round for its intervals to be trusted.
	IntervalCaution string `json:"interval_caution,omitempty"`
}

// Disagreement is one sentence the annotators split on.
type Disagreement struct {
	SentenceID int64  `json:"sentence_id"`
	SummaryID  int64  `json:"summary_id"`
	Document   string `json:"document"` // external ids
	Summary    string `json:"summary"`
	Index      int    `json:"index"` // 1-based sentence number
	Text       string `json:"text"`
	// Split is the share of pairs of faithfulness labels that disagree.
	Split float64 `json:"split"`
	// ErrorDistance is the mean MASI distance between the error-type sets.
	ErrorDistance float64 `json:"error_distance"`
	// AmbiguitySplit is the share of pairs of ambiguity flags that disagree.
	AmbiguitySplit float64 `json:"ambiguity_split"`
	Votes          []Vote  `json:"votes"`       // faithfulness labels and who gave them
	ErrorTypes     []Vote  `json:"error_types"` // error types and who chose them
	Gold           string  `json:"gold,omitempty"`
	Assistant      string  `json:"assistant,omitempty"`
	// Flags are the annotators' flags on the sentence, raised for the
	// leads; a flagged sentence is listed first even if all agreed.
	Flags []Flag `json:"flags,omitempty"`
	// Assignment is the id of one rater's assignment of the summary, for a
	// link to the labelling page (read-only for leads) where the
	// adjudication page is not open to the reader.
	Assignment int64 `json:"assignment"`
}

// Flag is one annotator's flag on a sentence and the note they left.
type Flag struct {
	Annotator string `json:"annotator"`
	Note      string `json:"note"`
}

// Vote is a value and the annotators who gave it.
type Vote struct {
	Value      string   `json:"value"`
	Annotators []string `json:"annotators"`
}

// MaxDisagreements bounds the disagreement list of a report.
const MaxDisagreements = 100
