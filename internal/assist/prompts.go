package assist

import (
	"fmt"
	"strings"
	"text/template"

	"annotate/internal/domain"
)

// PromptVersion identifies the prompt texts and answer schemas below. It is
// stored with every result and mixed into every cache key; change it
// whenever a prompt or schema changes, so that exported results say which
// wording produced them.
const PromptVersion = "2026-11-2"

// DefaultGuidelines is the numbered guideline list agents cite when a
// project has not written its own.
var DefaultGuidelines = []string{
	"Judge accuracy, not coverage: leaving out details of the document, even important ones, never makes a sentence unfaithful.",
	"A paraphrase is faithful when it keeps the meaning of the document, whatever words it uses.",
	"A sentence may join information from different parts of the document, as long as the combination does not create a claim the document does not make (for example a causal link it never states).",
	"Anything the document neither states nor entails (a new person, place, number, reason or outcome) makes the sentence unfaithful, however small or plausible.",
	"Attributing a statement, action, decision or opinion to the wrong person or entity makes the sentence unfaithful.",
	"Presenting an opinion, proposal, plan, hope or possibility as an established fact, or a future event as a past one, makes the sentence unfaithful.",
	"A broader or narrower term than the document's is acceptable only if the document supports the claim it makes.",
	"A conclusion is acceptable only when the document clearly supports it; general knowledge is not evidence.",
	"The sentence need not be about the document's main point, and need not connect smoothly with the other summary sentences.",
	"Judge only the sentence under review; the rest of the summary is context for reading it.",
}

// promptData is what every template can use.
type promptData struct {
	Version        string
	Units          []Unit
	Summary        []string
	Target         int
	Topic          string
	Guidelines     []string
	ErrorTypes     []domain.TaxonomyType
	AmbiguityTypes []domain.TaxonomyType
	KeyFacts       []KeyFact
	// HideGuidelines leaves the guidelines out where they do not apply.
	HideGuidelines bool

	// Debate fields.
	Agent, Agents, Round, Rounds int
	Stance                       Label
	History                      []historyRound
	Adjudicator                  int

	// Single-protocol fields and ambiguity arguments.
	Advocate, Skeptic *Side
	Arguments         []argumentView

	// Repair field.
	Problem string
}

// historyRound is one past debate round as an agent or adjudicator sees it,
// turns already shuffled.
type historyRound struct {
	Round   int
	Opening bool
	Turns   []historyTurn
}

type historyTurn struct {
	Agent     int
	You       bool
	Stance    Label
	Label     Label
	ErrorType string
	Citations []int
	Reason    string
}

// argumentView is one argument shown to the ambiguity judge.
type argumentView struct {
	Who       string
	Label     Label
	ErrorType string
	Citations []int
	Reason    string
}

var promptFuncs = template.FuncMap{
	"inc": func(i int) int { return i + 1 },
	"ints": func(xs []int) string {
		if len(xs) == 0 {
			return "none"
		}
		s := make([]string, len(xs))
		for i, x := range xs {
			s[i] = fmt.Sprint(x)
		}
		return strings.Join(s, ", ")
	},
	"upper": func(l Label) string { return strings.ToUpper(string(l)) },
}

// prompts holds every template; each top-level name is rendered by
// render. Wording is the project's own, written after the MSumBench and
// MADISSE descriptions of the roles.
var prompts = template.Must(template.New("").Funcs(promptFuncs).Parse(`
{{- define "faithfulness" -}}
You help linguists decide whether a sentence of a summary is faithful to its source document. A sentence is faithful when everything it asserts is stated in the document or clearly follows from it; it is unfaithful when any part of it is missing from the document, contradicts it or distorts it. The document is split into numbered units, and evidence is cited by unit number.
{{- end}}

{{- define "context" -}}
Document, in {{len .Units}} numbered units:
<document>
{{range $i, $u := .Units}}[{{inc $i}}] {{if $u.Speaker}}{{$u.Speaker}}: {{end}}{{$u.Text}}
{{end -}}
</document>
{{if .Topic}}
The summary was written about this topic: {{.Topic}}
{{end}}
Summary, in {{len .Summary}} sentences (the sentence under review is marked >>>):
<summary>
{{range $i, $s := .Summary}}{{if eq $i $.Target}}>>> {{end}}({{inc $i}}) {{$s}}
{{end -}}
</summary>

Sentence under review (summary sentence {{inc .Target}}):
<sentence>{{index .Summary .Target}}</sentence>
{{if not .HideGuidelines}}
Guidelines:
{{range $i, $g := .Guidelines}}{{inc $i}}. {{$g}}
{{end -}}
{{end -}}
{{- end}}

{{- define "errortypes" -}}
Error types:
{{range .ErrorTypes}}- {{.Code}} ({{.Name}}){{if .Definition}}: {{.Definition}}{{end}}
{{end -}}
{{- end}}

{{- define "system_advocate" -}}
{{template "faithfulness" .}}

You are the ADVOCATE. Your task is to build the strongest honest case that the sentence under review is faithful. Find the document units that support each part of it; if nothing matches exactly, cite the closest units that contain its key entities, events, numbers or relations, and always cite at least one. Explain how the sentence lines up with them, and why any rewording, generalisation or combination keeps the document's meaning. Name the guidelines your case rests on. Never claim that a unit says something it does not say.
{{- end}}

{{- define "system_skeptic" -}}
{{template "faithfulness" .}}

You are the SKEPTIC. Your task is to find the strongest reason why the sentence under review may be unfaithful. Look for added facts, wrong names, numbers, dates or speakers, reversed or altered relations, opinions or plans stated as facts, wrong tense or certainty, and subtle shifts of meaning. Cite the units that show the problem; if the problem is that the document lacks something, cite the units closest to the claim. Always cite at least one unit, name the error type from the list that fits best, and explain the problem concisely. Never claim that a unit says something it does not say.
{{- end}}

{{- define "system_adjudicator" -}}
{{template "faithfulness" .}}

You are the ADJUDICATOR. An Advocate has argued that the sentence under review is faithful and a Skeptic that it is not. Check each side in turn: do the units it cites really say what it claims, and does its argument respect the guidelines (for instance, an omitted detail or a faithful paraphrase is not an error)? Set aside any claim that fails these checks. Then decide for yourself: label the sentence faithful or unfaithful, give the error type if it is unfaithful ("none" if it is faithful), cite the units your decision rests on, and write a short report saying which side holds up and why.
{{- end}}

{{- define "system_agent" -}}
{{template "faithfulness" .}}

You are Agent {{.Agent}}, one of {{.Agents}} evaluator agents debating whether the sentence under review is faithful. The debate lasts at most {{.Rounds}} rounds and ends as soon as all agents give the same label. Ground every point in the numbered document units and refer to the guidelines by number. Engage with the other agents: say where their arguments are right or wrong, and ask what they would need to see. Change your label only when an argument convinces you; holding your position is fine when the evidence supports it.
{{- if .Stance}}

Your assigned opening stance: the sentence is {{.Stance}}. This is the first round: make the strongest case for this stance that the evidence honestly allows.
{{- end}}
{{- end}}

{{- define "system_debate_adjudicator" -}}
{{template "faithfulness" .}}

You are Adjudicator {{.Adjudicator}}. Evaluator agents debated whether the sentence under review is faithful and did not reach agreement. Their arguments are listed in no particular order. Check whether each argument rests on what the cited units actually say and applies the guidelines correctly, and set aside those that misread the document or misuse a guideline. Then make the final call with your own judgement: a label, the error type ("none" if faithful), the units your decision rests on, and a short report naming the agents you agree with and why.
{{- end}}

{{- define "system_ambiguity" -}}
{{template "faithfulness" .}}

Your task is to judge whether the sentence under review is ambiguous: whether the document allows one reasonable reading under which the sentence is faithful and another under which it is unfaithful. You see the arguments others made on both sides. First set aside arguments that misread the document or misapply the guidelines. Call the sentence ambiguous only if sound arguments remain on both sides; a sentence that is simply right or simply wrong is not ambiguous. If it is ambiguous, choose the one type from the taxonomy that best explains why the two readings exist; otherwise answer "none".
{{- end}}

{{- define "system_keyfacts" -}}
{{template "faithfulness" .}}

Your task is to align the sentence under review with a list of key facts drawn from the document. The sentence contains a key fact when it states that fact or something that entails it, in any wording. Partial mentions do not count: every essential part of the key fact must be there. List each key fact the sentence contains with a brief reason, and return an empty list when it contains none.
{{- end}}

{{- define "user_advocate" -}}
{{template "context" .}}
{{template "errortypes" .}}
Make the case that the sentence under review is faithful. Answer with a JSON object: "citations" (unit numbers that support the sentence, at least one), "guidelines" (numbers of the guidelines you rely on) and "reason" (a concise argument that refers to the cited units as [n]).
{{- end}}

{{- define "user_skeptic" -}}
{{template "context" .}}
{{template "errortypes" .}}
Make the case that the sentence under review is unfaithful. Answer with a JSON object: "citations" (unit numbers that show the problem, at least one), "guidelines" (numbers of the guidelines the sentence breaks), "reason" (a concise argument that refers to the cited units as [n]) and "error_type" (the code of the error type that fits best).
{{- end}}

{{- define "user_adjudicator" -}}
{{template "context" .}}
{{template "errortypes" .}}
The ADVOCATE argues the sentence is faithful, citing units {{ints .Advocate.Citations}}{{if .Advocate.Guidelines}} and guidelines {{ints .Advocate.Guidelines}}{{end}}:
<advocate>{{.Advocate.Reason}}</advocate>

The SKEPTIC argues the sentence is unfaithful ({{.Skeptic.ErrorType}}), citing units {{ints .Skeptic.Citations}}{{if .Skeptic.Guidelines}} and guidelines {{ints .Skeptic.Guidelines}}{{end}}:
<skeptic>{{.Skeptic.Reason}}</skeptic>

Answer with a JSON object: "advocate_holds" (true if the Advocate's units say what it claims and its argument follows the guidelines), "skeptic_holds" (the same for the Skeptic), "report" (a short report of your checks and your decision), "citations" (the units your decision rests on) and "verdict" (an object with "label", "faithful" or "unfaithful", and "error_type", an error type code if unfaithful, "none" if faithful).
{{- end}}

{{- define "history" -}}
{{range $i, $h := .History}}{{if $i}}
{{end}}{{if .Opening}}Opening stances:
{{range .Turns}}- Agent {{.Agent}}{{if .You}} (you){{end}}: the sentence is {{.Stance}}.
{{end}}{{else}}Round {{.Round}}:
{{range .Turns}}- Agent {{.Agent}}{{if .You}} (you){{end}} says {{upper .Label}}{{if .ErrorType}} ({{.ErrorType}}){{end}}, citing units {{ints .Citations}}: {{.Reason}}
{{end}}{{end}}{{end -}}
{{- end}}

{{- define "user_agent" -}}
{{template "context" .}}
{{template "errortypes" .}}
This is round {{.Round}} of at most {{.Rounds}}. The debate so far:
<debate>
{{template "history" .}}</debate>

Give your argument for this round. Answer with a JSON object: "citations" (unit numbers you rely on), "guidelines" (numbers of the guidelines you rely on), "reason" (your argument, answering the other agents where useful and referring to units as [n]), "label" ("faithful" or "unfaithful") and "error_type" (an error type code if unfaithful, "none" if faithful).
{{- end}}

{{- define "user_debate_adjudicator" -}}
{{template "context" .}}
{{template "errortypes" .}}
The debate:
<debate>
{{template "history" .}}</debate>

Answer with a JSON object: "report" (who agrees with whom, which arguments hold up, and your decision), "citations" (the units your decision rests on) and "verdict" (an object with "label", "faithful" or "unfaithful", and "error_type", an error type code if unfaithful, "none" if faithful).
{{- end}}

{{- define "user_ambiguity" -}}
{{template "context" .}}
Ambiguity taxonomy:
{{range .AmbiguityTypes}}- {{.Code}} ({{.Name}}, {{.Group}}): {{.Definition}}
{{end}}
Arguments made about the sentence:
<arguments>
{{range .Arguments}}- {{.Who}} says {{upper .Label}}{{if .ErrorType}} ({{.ErrorType}}){{end}}, citing units {{ints .Citations}}: {{.Reason}}
{{end -}}
</arguments>

Answer with a JSON object: "reason" (which arguments are sound, and whether both readings are reasonable) and "judgement" (an object with "ambiguous", true or false, and "type", the taxonomy code if ambiguous, "none" otherwise).
{{- end}}

{{- define "user_keyfacts" -}}
{{template "context" .}}
Key facts:
{{range .KeyFacts}}- {{.ID}}: {{.Text}}{{if .Category}} [{{.Category}}]{{end}}
{{end}}
Answer with a JSON object: "matches", a list of the key facts the sentence under review contains, each with "id" (the key fact's id) and "reason" (a brief justification).
{{- end}}

{{- define "repair" -}}
Your answer was rejected: {{.Problem}}. Reply again with only a JSON object that satisfies the required schema, correcting this problem and keeping the rest of your answer.
{{- end}}
`))

// newPromptData fills the fields every prompt uses.
func newPromptData(it Item) promptData {
	return promptData{
		Version:        PromptVersion,
		Units:          it.DocUnits,
		Summary:        it.Summary,
		Target:         it.Target,
		Topic:          it.Topic,
		Guidelines:     it.guidelines(),
		ErrorTypes:     it.errorTypes(),
		AmbiguityTypes: domain.AmbiguityTypes,
		KeyFacts:       it.KeyFacts,
	}
}

// render executes the named template. The templates are fixed and tested,
// so a failure is a programming error.
func render(name string, d promptData) string {
	var b strings.Builder
	if err := prompts.ExecuteTemplate(&b, name, d); err != nil {
		panic(fmt.Sprintf("assist: prompt %s: %v", name, err))
	}
	return b.String()
}

// repairPrompt asks the model to correct an answer that broke its schema.
func repairPrompt(problem error) string {
	return render("repair", promptData{Problem: problem.Error()})
}
