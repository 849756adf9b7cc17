package importer

import (
	"fmt"
	"slices"
	"strings"

	"annotate/internal/domain"
)

// maxRoundName bounds the name of a round given with imported labels, as
// it bounds a round made by hand.
const maxRoundName = domain.MaxNameLen

// annotatorAndRound checks who gave a label and in which round.
func (r *resolver) annotatorAndRound(user, round *string, at *Error, path string) {
	*user = strings.TrimSpace(*user)
	if *user == "" {
		r.c.addf(at, joinField(path, "annotator"), "missing: each label names its annotator")
	} else if err := domain.ValidateUsername(*user); err != nil {
		r.c.addf(at, joinField(path, "annotator"), "%q: %s", *user, domain.ErrorMessage(err))
	}
	*round = strings.TrimSpace(*round)
	// The checks a round made on the Rounds page passes: a name is
	// printed by the command line and shown on pages, so it holds no
	// control characters (terminal escapes, line breaks).
	if err := domain.CheckText("round", *round, maxRoundName, false); err != nil {
		r.c.addf(at, joinField(path, "round"), "%s", strings.TrimPrefix(domain.ErrorMessage(err), "round: "))
	}
	if *round == "" {
		*round = domain.ImportedRound
	}
}

// labelKey identifies one annotator's label on one sentence (index ≥ 1)
// or summary (index 0) in one round, to find repeats within an import.
type labelKey struct {
	summary, annotator, round string
	sentence                  int
}

// sentenceLabel checks an annotator's label on a sentence the way gold is
// checked, and that the annotator labels it once per round.
func (r *resolver) sentenceLabel(l *domain.SentenceLabelInput, sentence int, at *Error, path string) {
	r.annotatorAndRound(&l.Annotator, &l.Round, at, path)
	g := domain.GoldInput{Label: l.Label, ErrorTypes: l.ErrorTypes, Explanation: l.Explanation, Ambiguous: l.Ambiguous,
		AmbiguityType: l.AmbiguityType, AmbiguityNote: l.AmbiguityNote}
	if g.Label == "" && g.Ambiguous == nil && strings.TrimSpace(g.AmbiguityType) == "" {
		if len(l.Scores) == 0 {
			r.c.addf(at, joinField(path, "label"), "missing: a label needs a label, an ambiguity flag, scores, or some of them")
		}
	} else {
		r.gold(&g, at, path)
	}
	l.Label, l.ErrorTypes, l.Explanation, l.Ambiguous = g.Label, g.ErrorTypes, g.Explanation, g.Ambiguous
	l.AmbiguityType, l.AmbiguityNote = g.AmbiguityType, g.AmbiguityNote
	l.UnsureNote = strings.TrimSpace(l.UnsureNote)
	r.checkScores(l.Scores, domain.LevelSentence, at, path)
	r.once(labelKey{sentence: sentence, annotator: l.Annotator, round: l.Round}, at, path)
}

// summaryLabel checks an annotator's summary-level label.
func (r *resolver) summaryLabel(l *domain.SummaryLabelInput, at *Error, path string) {
	r.annotatorAndRound(&l.Annotator, &l.Round, at, path)
	if l.Relevance != nil && (*l.Relevance < domain.RelevanceMin || *l.Relevance > domain.RelevanceMax) {
		r.c.addf(at, joinField(path, "relevance"), "%d is not between %d and %d", *l.Relevance, domain.RelevanceMin, domain.RelevanceMax)
	}
	l.TopicCategory = strings.ToLower(strings.TrimSpace(l.TopicCategory))
	switch l.TopicCategory {
	case "", "main", "marginal":
	default:
		r.c.addf(at, joinField(path, "topic_category"), "%q is not one of main, marginal", l.TopicCategory)
	}
	l.Comment = strings.TrimSpace(l.Comment)
	r.checkScores(l.Scores, domain.LevelSummary, at, path)
	r.once(labelKey{annotator: l.Annotator, round: l.Round}, at, path)
}

// once reports a label given twice by one annotator in one round. The
// summary is the one being resolved (r.current).
func (r *resolver) once(k labelKey, at *Error, path string) {
	k.summary = r.current
	if first, dup := r.labels[k]; dup {
		r.c.addf(at, joinField(path, "annotator"), "%s already labels this in round %q (at %s)", k.annotator, k.round, first)
		return
	}
	r.labels[k] = fmt.Sprintf("%s: %s", locString(at), path)
}

// checkScores checks scale values against the scales the files define;
// values for other scales are checked against the project's when the
// import is written.
func (r *resolver) checkScores(scores map[string]any, level string, at *Error, path string) {
	for name, v := range scores {
		i := slices.IndexFunc(r.c.scales, func(s domain.Scale) bool { return s.Name == name })
		if i < 0 {
			continue
		}
		sc := r.c.scales[i]
		field := joinField(path, "scores."+name)
		if sc.Level != level {
			r.c.addf(at, field, "the scale is given per %s, not per %s", sc.Level, level)
		} else if _, err := sc.ScoreValue(v); err != nil {
			r.c.addf(at, field, "%s", domain.ErrorMessage(err))
		}
	}
}
