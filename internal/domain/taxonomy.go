package domain

import (
	"strings"
)

// TaxonomyType is one entry of a label taxonomy: a stable code stored with
// labels, the name shown to people, its group and a definition.
type TaxonomyType struct {
	Code       string `json:"code"`
	Name       string `json:"name"`
	Group      string `json:"group,omitempty"`
	Definition string `json:"definition,omitempty"`
}

// AmbiguityTypes is the 16-type ambiguity taxonomy of MADISSE (seed 000,
// Table 6 and Appendix B), in the paper's order. Definitions are condensed
// for the guidelines drawer.
var AmbiguityTypes = []TaxonomyType{
	{"deduction", "Deduction", "Implicit reasoning", "The summary draws a conclusion by reasoning from premises in the document; the conclusion itself is not stated there."},
	{"commonsense_inference", "Common-sense inference", "Implicit reasoning", "The summary adds what general world knowledge suggests, beyond what the document says."},
	{"value_inference", "Value-based inference", "Implicit reasoning", "The summary rests on an assumed value judgement (good, bad, important) that the document does not make."},
	{"other_implicit_reasoning", "Other implicit reasoning", "Implicit reasoning", "Some other unstated reasoning step decides whether the summary can be judged faithful."},
	{"hypernymy", "Hypernymy/Generalization", "Meaning", "The summary uses a broader term than the document, broad enough that matching the claim to the source becomes uncertain."},
	{"hyponymy", "Hyponymy/Specialization", "Meaning", "The summary uses a narrower, more specific term than the document supports."},
	{"synonymy", "Synonymy/Paraphrasing", "Meaning", "A paraphrase keeps the literal meaning but builds it differently, so that readers can take it two ways."},
	{"structural_ambiguity", "Structural ambiguity", "Meaning", "A phrase or sentence of the summary has more than one valid syntactic parse and the intended one is unclear."},
	{"lexical_ambiguity", "Lexical ambiguity", "Meaning", "A word of the summary has several valid senses and the intended one is unclear."},
	{"vagueness", "Vagueness", "Meaning", "Part of the summary is so underspecified that it is unclear which claim is being made."},
	{"non_assertion", "Non-assertion", "Meaning", "The sentence does not clearly assert anything that could be checked (a question, a hedge, a meta remark)."},
	{"other_meaning", "Other meaning phenomenon", "Meaning", "Another property of the summary's literal meaning makes its faithfulness hard to judge."},
	{"decontextualization", "Decontextualization", "Context", "Information is taken out of the context that gave it its meaning (a hypothetical stated as fact, a qualification dropped)."},
	{"conflation", "Conflation", "Context", "The summary merges pieces of information that stand separately in the document."},
	{"other_context", "Other context phenomenon", "Context", "Another mismatch between the summary and the document's contexts, such as an implied causal link between separate passages."},
	{"other_evaluability", "Other evaluability issue", "Other", "Any other reason the sentence cannot be judged reliably."},
}

// ErrorPresets are the built-in error-type taxonomies a project can use.
var ErrorPresets = map[string][]TaxonomyType{
	"tofueval": {
		{"extrinsic_information", "Extrinsic Information", "", "The sentence contains information that is not in the document and cannot be inferred from it."},
		{"mis_referencing", "Mis-Referencing", "", "A property or event is attributed to the wrong entity or speaker."},
		{"opinion_as_fact", "Stating Opinion as Fact", "", "A speaker's opinion, proposal or hope is stated as an established fact."},
		{"reasoning_error", "Reasoning Error", "", "The sentence draws a conclusion that does not follow from the document."},
		{"tense_modality", "Tense/Modality Error", "", "Tense or modality is wrong: a plan stated as done, a possibility as certain."},
		{"contradiction", "Contradiction", "", "The sentence says the opposite of the document."},
		{"nuanced_meaning_shift", "Nuanced Meaning Shift", "", "The sentence subtly shifts the meaning of what the document says."},
	},
	"msumbench": {
		{"out_of_article", "Out-of-article error", "", "The sentence adds facts that are not in the source."},
		{"entity", "Entity error", "", "An entity (name, number, date, place) is wrong."},
		{"relation", "Relation error", "", "A relation between entities (predicate, role, direction) is wrong."},
		{"sentence", "Sentence error", "", "The whole sentence misrepresents the source."},
	},
	"frank": {
		{"PredE", "Predicate error", "Semantic frame", "The predicate is inconsistent with the source."},
		{"EntE", "Entity error", "Semantic frame", "The core arguments or attributes of the predicate are wrong."},
		{"CircE", "Circumstance error", "Semantic frame", "Time, place or manner of the event is wrong."},
		{"CorefE", "Coreference error", "Discourse", "A pronoun or reference points to the wrong or no entity."},
		{"LinkE", "Discourse link error", "Discourse", "Statements are linked wrongly (causal, temporal order)."},
		{"OutE", "Out-of-article error", "Content verifiability", "The sentence contains information not in the source."},
		{"GramE", "Grammatical error", "Content verifiability", "The sentence is ungrammatical to the point that it cannot be verified."},
	},
}

// AmbiguityType returns the ambiguity type with the given code.
func AmbiguityType(code string) (TaxonomyType, bool) {
	for _, t := range AmbiguityTypes {
		if t.Code == code {
			return t, true
		}
	}
	return TaxonomyType{}, false
}

// ParseTaxonomyLines reads a custom error taxonomy written one type a line
// as "code | name | definition" (name and definition may be left out);
// blank lines and lines starting with '#' are skipped. Validation is Settings.Validate's.
func ParseTaxonomyLines(text string) []TaxonomyType {
	var out []TaxonomyType
	for _, line := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(line); t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		parts := strings.SplitN(line, "|", 3)
		for len(parts) < 3 {
			parts = append(parts, "")
		}
		out = append(out, TaxonomyType{Code: strings.TrimSpace(parts[0]), Name: strings.TrimSpace(parts[1]), Definition: strings.TrimSpace(parts[2])})
	}
	return out
}

// FormatTaxonomyLines writes types as ParseTaxonomyLines reads them.
func FormatTaxonomyLines(types []TaxonomyType) string {
	lines := make([]string, 0, len(types))
	for _, t := range types {
		lines = append(lines, t.Code+" | "+t.Name+" | "+t.Definition)
	}
	return strings.Join(lines, "\n")
}
