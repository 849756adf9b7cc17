package report

import (
	"annotate/internal/iaa"
)

// keyFactRatings makes the ratings of the key-fact alignment at sentence
// level: a unit for each key fact of a summary with each of its
// sentences, rated present by an annotator who linked them and absent by
// the summary's other annotators. Every assignment rates every unit of
// its summary, so the units of a summary and their ratings are written in
// place, summary after summary, with no builder: with five key facts a
// document, 1.5 million sentence labels make 2.5 million units and 7.5
// million ratings, which a builder held three times over (its rows,
// their copies grown by appending, and the sorted result).
//
// The units are numbered as a collector adding the scope's assignments
// in turn would number them: a summary's when its first assignment
// comes, key fact by key fact and each key fact sentence by sentence; a
// unit's ratings are in coder order, an annotator's later assignment of
// the same summary counting rather than the earlier (see
// [iaa.CodedBuilder]).
func (x *index) keyFactRatings(sp *spec, sc *scope) ratings {
	// The scope's assignments by summary, the summaries in order of
	// their first assignment.
	at := make([]int32, len(x.summaryIDs)+1)
	var order []int32
	for i := range sc.which {
		u := sc.parts[i].summary
		if at[u+1] == 0 {
			order = append(order, u)
		}
		at[u+1]++
	}
	for u := range len(x.summaryIDs) {
		at[u+1] += at[u]
	}
	byWhich := make([]int32, len(sc.which))
	next := append([]int32(nil), at[:len(x.summaryIDs)]...)
	for i := range sc.which {
		u := sc.parts[i].summary
		byWhich[next[u]] = int32(i)
		next[u]++
	}
	next = nil
	// raters sets coders to the summary's annotators in coder order and
	// last to each one's last assignment (a position in sc.which). A
	// scope holds one assignment of a summary per annotator (see
	// index.scope), but the ratings stay those of a builder if not.
	var coders, last []int32
	raters := func(u int32) {
		coders, last = coders[:0], last[:0]
		for _, i := range byWhich[at[u]:at[u+1]] {
			cd := sc.parts[i].coder
			k := 0
			for k < len(coders) && coders[k] != cd {
				k++
			}
			if k == len(coders) {
				coders, last = append(coders, cd), append(last, i)
			} else {
				last[k] = i
			}
		}
		// In coder order, as a matrix row (and CodedBuilder) has them.
		for k := 1; k < len(coders); k++ {
			for j := k; j > 0 && coders[j] < coders[j-1]; j-- {
				coders[j], coders[j-1] = coders[j-1], coders[j]
				last[j], last[j-1] = last[j-1], last[j]
			}
		}
	}
	units, rated := 0, 0
	for _, u := range order {
		raters(u)
		n := len(x.keyFactsOf(u)) * int(x.summaryLen[u])
		units, rated = units+n, rated+n*len(coders)
	}
	keys := make([]unitKey, 0, units)
	start := make([]int, 1, units+1)
	coder, code := make([]int32, 0, rated), make([]int32, 0, rated)
	// present marks, for each annotator of the summary, the units it
	// linked.
	var present []bool
	var vc iaa.ValueCoder
	codes := [2]int32{-1, -1}
	for _, u := range order {
		raters(u)
		kfs := x.keyFactsOf(u)
		first, n := x.summaryFirst[u], int(x.summaryLen[u])
		sents := x.data.Sentences[first : int(first)+n]
		grid := len(kfs) * n
		present = present[:0]
		for range len(coders) * grid {
			present = append(present, false)
		}
		for c, i := range last {
			for _, l := range x.linksOf(sc, int(i)) {
				p, ok := x.sentPos.of(l.SentenceID)
				s := int(p - first)
				if !ok || s < 0 || s >= n {
					continue
				}
				for k, kf := range kfs {
					if kf == l.KeyFactID {
						present[c*grid+k*n+s] = true
					}
				}
			}
		}
		for k, kf := range kfs {
			for s := range sents {
				keys = append(keys, unitKey{kf, sents[s].ID})
				for c, cd := range coders {
					v := 0
					if present[c*grid+k*n+s] {
						v = 1
					}
					if codes[v] < 0 {
						codes[v] = vc.Code(float64(v))
					}
					coder, code = append(coder, cd), append(code, codes[v])
				}
				start = append(start, len(code))
			}
		}
	}
	values, renum := vc.Ascending()
	for i, k := range code {
		code[i] = renum[k]
	}
	return ratings{spec: sp, keys: keys, c: &iaa.Coded{Coders: len(sc.coders), Values: values, Start: start, Coder: coder, Code: code}}
}

// keyFactsOf returns the key facts of the summary at position u.
func (x *index) keyFactsOf(u int32) []int64 {
	if x.keyFacts == nil {
		return nil
	}
	return x.keyFacts[u]
}
