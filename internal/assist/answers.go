package assist

import (
	"slices"
)

// The answer types below mirror the schemas built next to them; the JSON
// field names are what the prompts ask for.

// sideAnswer is an Advocate's or a Skeptic's answer.
type sideAnswer struct {
	Citations  []int  `json:"citations"`
	Guidelines []int  `json:"guidelines"`
	Reason     string `json:"reason"`
	ErrorType  string `json:"error_type"`
}

// verdictAnswer is an adjudicator's answer. The label and its error type
// sit together in one object, so that the schema can tie them (an
// unfaithful label names a real error type) with a choice below the root,
// where OpenAI's strict mode allows one.
type verdictAnswer struct {
	AdvocateHolds *bool       `json:"advocate_holds"`
	SkepticHolds  *bool       `json:"skeptic_holds"`
	Report        string      `json:"report"`
	Citations     []int       `json:"citations"`
	Verdict       labelAnswer `json:"verdict"`
}

// labelAnswer is a verdict's label and error type.
type labelAnswer struct {
	Label     Label  `json:"label"`
	ErrorType string `json:"error_type"`
}

// turnAnswer is a debate agent's answer for one round.
type turnAnswer struct {
	Citations  []int  `json:"citations"`
	Guidelines []int  `json:"guidelines"`
	Reason     string `json:"reason"`
	Label      Label  `json:"label"`
	ErrorType  string `json:"error_type"`
}

func citationsSchema(it Item, minItems int) *Schema {
	return Array("document unit numbers", Integer("a document unit number", 1, len(it.DocUnits)), minItems, -1)
}

func guidelinesSchema(it Item) *Schema {
	return Array("guideline numbers", Integer("a guideline number", 1, len(it.guidelines())), 0, -1)
}

func labelSchema() *Schema {
	return Enum("the faithfulness label", labelValues...)
}

func errorTypeSchema(it Item, withNone bool) *Schema {
	codes := it.errorCodes()
	if withNone {
		codes = append([]string{noneCode}, codes...)
	}
	return Enum("an error type code", codes...)
}

func advocateSchema(it Item) *Schema {
	return Object(
		Prop("citations", citationsSchema(it, 1)),
		Prop("guidelines", guidelinesSchema(it)),
		Prop("reason", String("the argument that the sentence is faithful")),
	)
}

func skepticSchema(it Item) *Schema {
	return Object(
		Prop("citations", citationsSchema(it, 1)),
		Prop("guidelines", guidelinesSchema(it)),
		Prop("reason", String("the argument that the sentence is unfaithful")),
		Prop("error_type", errorTypeSchema(it, false)),
	)
}

func adjudicatorSchema(it Item) *Schema {
	return Object(
		Prop("advocate_holds", Boolean("whether the Advocate's evidence and argument hold up")),
		Prop("skeptic_holds", Boolean("whether the Skeptic's evidence and argument hold up")),
		Prop("report", String("the report of the checks and the decision")),
		Prop("citations", citationsSchema(it, 0)),
		Prop("verdict", verdictSchema(it)),
	)
}

func debateAdjudicatorSchema(it Item) *Schema {
	return Object(
		Prop("report", String("the report of the checks and the decision")),
		Prop("citations", citationsSchema(it, 0)),
		Prop("verdict", verdictSchema(it)),
	)
}

// turnSchema leaves a debate agent's error type free: its turn is an
// argument, and the verdicts that count are the adjudicators'.
func turnSchema(it Item) *Schema {
	return Object(
		Prop("citations", citationsSchema(it, 0)),
		Prop("guidelines", guidelinesSchema(it)),
		Prop("reason", String("the argument for this round")),
		Prop("label", labelSchema()),
		Prop("error_type", errorTypeSchema(it, true)),
	)
}

// verdictSchema states that an unfaithful verdict names a real error
// type: one variant per label, the unfaithful one without "none" among its
// error types.
func verdictSchema(it Item) *Schema {
	return Variants("the label and its error type", Object(
		Prop("label", labelSchema()),
		Prop("error_type", errorTypeSchema(it, true)),
	), "label", map[string]map[string]*Schema{
		string(Unfaithful): {"error_type": errorTypeSchema(it, false)},
	})
}

// errorTypeFor keeps an error type only where it means something: on an
// unfaithful label, and never the "none" placeholder.
func errorTypeFor(l Label, code string) string {
	if l != Unfaithful || code == noneCode {
		return ""
	}
	return code
}

// dedupe drops repeated numbers, keeping the model's order (most relevant
// first, as the prompts ask).
func dedupe(xs []int) []int {
	out := make([]int, 0, len(xs))
	for _, x := range xs {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}
