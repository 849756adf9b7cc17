package importer

import (
	"fmt"
	"slices"
	"strings"

	"annotate/internal/domain"
)

// identicalScales warns about scales that hold the same value as another
// scale on every label that gives both, on at least two labels: usually a
// column copied twice or one scale imported under two names, which would
// count its agreement twice.
func identicalScales(docs []domain.DocumentInput, labels []domain.LabelRecord, c *collector) {
	type pair struct{ a, b string }
	seen := map[pair]int{}    // labels giving both
	differ := map[pair]bool{} // a label where they differ
	look := func(scores map[string]any) {
		names := make([]string, 0, len(scores))
		for n := range scores {
			names = append(names, n)
		}
		slices.Sort(names)
		for i, a := range names {
			for _, b := range names[i+1:] {
				p := pair{a, b}
				seen[p]++
				if fmt.Sprint(scores[a]) != fmt.Sprint(scores[b]) {
					differ[p] = true
				}
			}
		}
	}
	for _, d := range docs {
		for _, s := range d.Summaries {
			for _, l := range s.Labels {
				look(l.Scores)
			}
			for _, x := range s.Sentences {
				for _, l := range x.Labels {
					look(l.Scores)
				}
			}
		}
	}
	for _, r := range labels {
		if r.Label != nil {
			look(r.Label.Scores)
		} else if r.SummaryLabel != nil {
			look(r.SummaryLabel.Scores)
		}
	}
	var same []string
	for p, n := range seen {
		if n >= 2 && !differ[p] {
			same = append(same, fmt.Sprintf("%s and %s (%d labels)", p.a, p.b, n))
		}
	}
	if len(same) > 0 {
		slices.Sort(same)
		c.warnf("scales with the same value on every label that gives both: %s; check that no column was copied twice", strings.Join(same, "; "))
	}
}
