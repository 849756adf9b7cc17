package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"annotate/internal/agreement"
	"annotate/internal/csvsafe"
	"annotate/internal/domain"
	"annotate/internal/iaa"
)

// WriteRatings writes the labels of one dimension at one level as a
// ratings file (CSV with the header unit,coder,value, one row per rating),
// the input of "annotate agreement --ratings". opt.Dimension must name one
// level ("faithfulness@sentence"); opt.Round limits the labels as in Build.
//
// A summary sentence is named ["DOCUMENT","SUMMARY",N] and a summary
// ["DOCUMENT","SUMMARY"] (JSON arrays of the ids the imported files gave
// them and the sentence's number as exports give it, [tasks.UnitNames]),
// so rows join back to the source; key-fact alignments are k<key fact>-s<sentence> or
// m<summary>-k<key fact> (row ids). Nominal values are written by name, ordinal ones as numbers,
// and a set of error types as its names joined by "+" ("none" for the
// empty set). Three comment lines before the header name the dimension, the
// level the report reads it at (masi for sets) and the Cohen's κ weights
// it uses; "annotate agreement --ratings" takes the last two as defaults.
func WriteRatings(w io.Writer, d *domain.ReportData, set domain.Settings, opt Options) error {
	x := newIndex(d, set)
	var roundID int64
	for _, r := range d.Rounds {
		if r.Name == opt.Round {
			roundID = r.ID
		}
	}
	if opt.Round != "" && roundID == 0 {
		return domain.Errorf(domain.ENotFound, "round %q not found", opt.Round)
	}
	sc := x.scope(roundID, opt.IncludeDrafts)
	srcs, err := keep(x.sources(), opt.Dimension)
	if err != nil {
		return err
	}
	if len(srcs) != 1 {
		var keys []string
		for _, src := range srcs {
			keys = append(keys, src.spec.key())
		}
		return domain.Errorf(domain.EInvalid, "a ratings file holds one dimension at one level; choose one with --dimension NAME@LEVEL, one of: %s", strings.Join(keys, ", "))
	}
	rt := x.ratings(srcs[0], sc)
	// The comments say how the report reads the values, so that
	// "annotate agreement --ratings" with no flags computes what it does.
	lvl, wts := rt.spec.iaaLevel(), rt.spec.weights()
	if _, err := fmt.Fprintf(w, "# dimension: %s\n# %s: %s\n# %s: %s\n", rt.spec.key(), agreement.MetaLevel, lvl, agreement.MetaWeights, wts); err != nil {
		return err
	}
	if rt.spec.span > 0 && wts != iaa.Unweighted {
		if _, err := fmt.Fprintf(w, "# %s: %s\n", agreement.MetaSpan, strconv.FormatFloat(rt.spec.span, 'f', -1, 64)); err != nil {
			return err
		}
	}
	cw := csvsafe.NewWriter(w)
	writeRow(cw, []string{"unit", "coder", "value"})
	var names *domain.UnitNames
	if d.UnitNames != nil {
		if names, err = d.UnitNames(); err != nil {
			return err
		}
	}
	for u, k := range rt.keys {
		name := unitName(rt.spec, k, names)
		coders, codes := rt.c.Unit(u)
		for i, k := range codes {
			writeRow(cw, []string{name, sc.coders[coders[i]], rt.spec.valueName(rt.c.Values[k])})
		}
	}
	cw.Flush()
	return cw.Error()
}

// unitName names a unit of a dimension in a ratings file: a summary, a
// sentence or a key fact's alignment with either by its stable name when
// names has it, else by row ids.
func unitName(s *spec, k unitKey, names *domain.UnitNames) string {
	id := func(p string, n int64) string { return p + strconv.FormatInt(n, 10) }
	switch {
	case k.b == 0 && s.level == LevelSentence:
		if n, ok := names.Sentence(k.a); ok {
			return n
		}
		return id("s", k.a)
	case k.b == 0:
		if n, ok := names.Summary(k.a); ok {
			return n
		}
		return id("m", k.a)
	case s.level == LevelSentence:
		if n, ok := names.SentenceKeyFact(k.b, k.a); ok {
			return n
		}
		return fmt.Sprintf("k%d-s%d", k.a, k.b)
	}
	if n, ok := names.SummaryKeyFact(k.a, k.b); ok {
		return n
	}
	return fmt.Sprintf("m%d-k%d", k.a, k.b)
}
