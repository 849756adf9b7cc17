package report

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
	seen := map[int64]bool{}
	var ref, lab []float64
	for _, a := range sc.assignments {
		for i := range x.labels[a.ID] {
			l := &x.labels[a.ID][i]
			if _, ok := faithCodes[l.Label]; !ok {
				continue
			}
			out.Labels++
			as := x.data.Assistant[l.SentenceID]
			if _, ok := faithCodes[as]; !ok {
				as = ""
			}
			gold := ""
			if g := x.goldLabel(l.SentenceID); g != nil {
				if _, ok := faithCodes[g.Label]; ok {
					gold = g.Label
				}
			}
			if as != "" {
				out.WithAssistant++
			}
			if gold != "" {
				out.WithGold++
			}
			if as != "" && gold != "" && !seen[l.SentenceID] {
				seen[l.SentenceID] = true
				ref = append(ref, faithCodes[gold])
				lab = append(lab, faithCodes[as])
			}
			cond := condHidden
			if l.AssistantVisible {
				cond = condVisible
				if l.FirstLabel != "" {
					cond = condReveal
				}
			}
			t := byCond[cond]
			t.labels++
			if gold != "" {
				t.goldN++
				t.goldK += b2i(l.Label == gold)
			}
			if as != "" {
				t.asN++
				t.asK += b2i(l.Label == as)
				if gold != "" && as != gold {
					t.wrongN++
					t.wrongK += b2i(l.Label == as)
				}
			}
			if cond != condReveal {
				continue
			}
			out.Reveal.Revealed++
			if l.Label != l.FirstLabel {
				changed++
				if as != "" && l.Label == as {
					out.Reveal.ToAssistant++
				}
				if gold != "" && l.Label == gold {
					out.Reveal.TowardGold++
				}
				if gold != "" && l.FirstLabel == gold {
					out.Reveal.AwayFromGold++
				}
			}
			if as != "" {
				firstN++
				firstK += b2i(l.FirstLabel == as)
				finalK += b2i(l.Label == as)
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
		out.Assistant = goldAgreement(faithSpec, ref, lab)
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
