package assist

import (
	"context"
	"fmt"

	"annotate/internal/domain"
)

type ambiguityAnswer struct {
	Reason    string          `json:"reason"`
	Judgement judgementAnswer `json:"judgement"`
}

// judgementAnswer is whether the sentence is ambiguous and of which type.
type judgementAnswer struct {
	Ambiguous bool   `json:"ambiguous"`
	Type      string `json:"type"`
}

func ambiguitySchema() *Schema {
	codes := []string{noneCode}
	for _, t := range domain.AmbiguityTypes {
		codes = append(codes, t.Code)
	}
	// Two variants, below the root, tie the type to the answer: ambiguous
	// names a real type; not ambiguous may say none.
	variant := func(amb bool, types []string) *Schema {
		return Object(
			Prop("ambiguous", &Schema{Type: "boolean", Description: "whether sound arguments exist on both sides", Const: &amb}),
			Prop("type", Enum("the ambiguity type code, or none", types...)),
		)
	}
	return Object(
		Prop("reason", String("which arguments are sound and whether both readings are reasonable")),
		Prop("judgement", Choice("whether the sentence is ambiguous, and its type", variant(true, codes[1:]), variant(false, codes))),
	)
}

// judgeAmbiguity asks whether sound arguments exist on both sides of the
// sentence, after MADISSE's best-performing detector: the judge reads the
// arguments already made and the ambiguity taxonomy. The no-movement signal
// computed by the debate is kept.
func (c *Client) judgeAmbiguity(ctx context.Context, m *meter, it Item, sd seeder, res *SentenceResult) error {
	d := newPromptData(it)
	d.Arguments = ambiguityArguments(res)
	var a ambiguityAnswer
	q := Question{
		Name:   "ambiguity",
		System: render("system_ambiguity", d),
		User:   render("user_ambiguity", d),
		Schema: ambiguitySchema(),
		Seed:   sd.requestSeed("ambiguity"),
	}
	if err := c.ask(ctx, m, q, &a); err != nil {
		return fmt.Errorf("ambiguity: %w", err)
	}
	amb := res.Ambiguity
	if amb == nil {
		amb = &Ambiguity{}
	}
	amb.Judged, amb.Ambiguous, amb.Reason, amb.Type = true, a.Judgement.Ambiguous, a.Reason, ""
	if a.Judgement.Ambiguous {
		amb.Type = a.Judgement.Type
	}
	res.Ambiguity = amb
	return nil
}

// ambiguityArguments lists what each side argued: the two single-protocol
// cases, or every turn of every debate round, so that a debate settled by
// agreement still shows the judge the case it started from.
func ambiguityArguments(res *SentenceResult) []argumentView {
	var out []argumentView
	if len(res.Sessions) == 0 {
		if res.Advocate != nil {
			a := res.Advocate
			out = append(out, argumentView{Who: "The Advocate", Label: a.Label, Citations: a.Citations, Reason: a.Reason})
		}
		if res.Skeptic != nil {
			s := res.Skeptic
			out = append(out, argumentView{Who: "The Skeptic", Label: s.Label, ErrorType: s.ErrorType, Citations: s.Citations, Reason: s.Reason})
		}
		return out
	}
	for _, s := range res.Sessions {
		for _, round := range s.Rounds {
			for _, t := range round {
				who := fmt.Sprintf("Agent %d in round %d", t.Agent, t.Round)
				if len(res.Sessions) > 1 {
					who = fmt.Sprintf("Agent %d of session %d in round %d", t.Agent, t.Session, t.Round)
				}
				out = append(out, argumentView{Who: who, Label: t.Label, ErrorType: t.ErrorType, Citations: t.Citations, Reason: t.Reason})
			}
		}
	}
	return out
}
