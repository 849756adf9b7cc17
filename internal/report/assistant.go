package report

import "annotate/internal/iaa"

// Conditions under which a label was last saved.
const (
	condHidden  = "hidden"            // the assistant was not shown
	condReveal  = "after_first_label" // shown after a first, blind label
	condVisible = "visible"           // shown from the start
)

// faithSpec is the faithfulness dimension at sentence level, for
// comparisons with the assistant.
var faithSpec = &spec{name: "faithfulness", title: "Faithfulness", level: LevelSentence, scale: scaleNominal,
	values: []string{"faithful", "unfaithful", "borderline"}, positive: 1}

// assistant measures the assistant's effect on the faithfulness labels of
// a scope: agreement with gold and with the assistant under each
// condition, and what happened to blind labels once it was revealed.
func (x *index) assistant(sc *scope) Assistant {
	out := Assistant{Splits: []AssistSplit{}}
	type tally struct{ labels, goldN, goldK, asN, asK, wrongN, wrongK int }
	byCond := map[string]*tally{condHidden: {}, condReveal: {}, condVisible: {}}
	var firstN, firstK, finalK, changed int
	seen := make([]bool, len(x.data.Sentences)) // by position: the sentences counted against gold
	var ref, refLab []float64
	// Faithfulness labels by code; −1 is none, and a first label that is
	// not a faithfulness label is −1 when empty and −2 otherwise.
	for _, p := range sc.parts {
		views := x.partOf(p)
		for i := range views {
			lab := views[i].faith
			if lab < 0 {
				continue
			}
			l := &views[i]
			out.Labels++
			sid := x.sentenceOf(p.lo+int32(i), l)
			as, gold := int8(-1), int8(-1)
			if pos := l.pos; pos >= 0 {
				as, gold = x.assistFaith[pos], x.goldFaith[pos]
			} else {
				as = faithCode(x.data.Assistant.Of(sid))
			}
			if as >= 0 {
				out.WithAssistant++
			}
			if gold >= 0 {
				out.WithGold++
			}
			if as >= 0 && gold >= 0 && !seen[l.pos] { // gold: the sentence has a position
				seen[l.pos] = true
				ref = append(ref, float64(gold))
				refLab = append(refLab, float64(as))
			}
			first := l.first
			cond := condHidden
			if l.visible {
				cond = condVisible
				if first != -1 {
					cond = condReveal
				}
			}
			t := byCond[cond]
			t.labels++
			if gold >= 0 {
				t.goldN++
				t.goldK += b2i(lab == gold)
			}
			if as >= 0 {
				t.asN++
				t.asK += b2i(lab == as)
				if gold >= 0 && as != gold {
					t.wrongN++
					t.wrongK += b2i(lab == as)
				}
			}
			if cond != condReveal {
				continue
			}
			out.Reveal.Revealed++
			if lab != first {
				changed++
				if as >= 0 && lab == as {
					out.Reveal.ToAssistant++
				}
				if gold >= 0 && lab == gold {
					out.Reveal.TowardGold++
				}
				if gold >= 0 && first == gold {
					out.Reveal.AwayFromGold++
				}
			}
			if as >= 0 {
				firstN++
				firstK += b2i(first == as)
				finalK += b2i(lab == as)
			}
		}
	}
	for _, cond := range []string{condHidden, condReveal, condVisible} {
		t := byCond[cond]
		out.Splits = append(out.Splits, AssistSplit{
			Condition: cond, Labels: t.labels,
			GoldAccuracy:       rate(t.goldK, t.goldN, "no label of a sentence with gold"),
			AssistantAgreement: rate(t.asK, t.asN, "no label of a sentence the assistant labelled"),
			FollowedWrong:      rate(t.wrongK, t.wrongN, "the assistant never differs from gold here"),
		})
	}
	out.Reveal.Changed = rate(changed, out.Reveal.Revealed, "no label was revealed after a blind first label")
	out.Reveal.FirstAgree = rate(firstK, firstN, "no revealed label of a sentence the assistant labelled")
	out.Reveal.FinalAgree = rate(finalK, firstN, "no revealed label of a sentence the assistant labelled")
	if len(ref) > 0 {
		out.Assistant = goldAgreement(faithSpec, iaa.ConfusionMatrix(ref, refLab))
	}
	switch {
	case out.Labels == 0:
		out.Note = "no faithfulness labels in scope yet"
	case out.WithAssistant == 0:
		out.Note = "the assistant has no output for the labelled sentences"
	}
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
