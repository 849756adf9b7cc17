package report

import (
	"slices"
	"strconv"

	"annotate/internal/domain"
)

// scaleInterval compares numeric values by their squared difference
// (Krippendorff's interval metric); scales get it beside ordinal.
const scaleInterval = "interval"

// scaleSources lists the project's own rating scales (see tasks.Scale) as
// report dimensions, at the level each is given: an integer scale twice, as
// NAME (ordinal α) and NAME:interval (interval α); a categorical scale
// once, nominal. Scales have no gold.
func (x *index) scaleSources() []source {
	var out []source
	for _, s := range x.settings.Scales {
		var specs []*spec
		if s.Numeric() {
			title := s.Label() + " (" + strconv.Itoa(*s.Min) + "–" + strconv.Itoa(*s.Max) + ")"
			specs = []*spec{
				{name: s.Name, title: title, level: s.Level, scale: scaleOrdinal, positive: -1, span: float64(*s.Max - *s.Min)},
				{name: s.Name + ":interval", title: title + ", interval", level: s.Level, scale: scaleInterval, positive: -1, span: float64(*s.Max - *s.Min)},
			}
		} else {
			specs = []*spec{{name: s.Name, title: s.Label(), level: s.Level, scale: scaleNominal, values: s.Categories, positive: -1}}
		}
		for _, sp := range specs {
			out = append(out, source{
				spec: sp,
				collect: func(sc *scope, c *collector) {
					for i := range sc.which {
						a := sc.assignment(i)
						coder := int(sc.parts[i].coder)
						for _, v := range x.data.Scores[a.ID] {
							if v.Scale != s.Name || (v.SentenceID == 0) != (s.Level == domain.LevelSummary) {
								continue
							}
							unit := unitKey{a.SummaryID, 0}
							if v.SentenceID != 0 {
								unit = unitKey{v.SentenceID, 0}
							}
							c.add(unit, coder, scaleValue(s, v.Value))
						}
					}
				},
			})
		}
	}
	return out
}

// scaleValue is a stored value as a number: the integer, or the index of
// the category; NaN when it is no longer a value of the scale.
func scaleValue(s domain.Scale, v string) float64 {
	if s.Numeric() {
		n, err := strconv.Atoi(v)
		if err != nil || n < *s.Min || n > *s.Max {
			return nan
		}
		return float64(n)
	}
	if i := slices.Index(s.Categories, v); i >= 0 {
		return float64(i)
	}
	return nan
}
