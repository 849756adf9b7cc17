package assist

import (
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Evidence is a document unit found for a summary sentence.
type Evidence struct {
	// Unit is the 1-based unit number.
	Unit int `json:"unit"`
	// Score is the unit's BM25 score against the sentence.
	Score float64 `json:"score"`
}

// Finder ranks the units of one document against summary sentences without
// a model, so that evidence can be highlighted offline and before any LLM
// run. It scores with BM25 over lowercased word tokens (English and other
// space-separated scripts, with a small stopword list) and over character
// bigrams for Chinese, Japanese and Korean runs, which need no segmenter.
// Build one per document and reuse it for all its sentences; a Finder is
// safe for concurrent use.
type Finder struct {
	vocab    map[string]int32
	postings [][]posting // by term id
	idf      []float64   // by term id
	lengths  []float64   // by unit index
	avgLen   float64
}

type posting struct {
	unit int32
	tf   int32
}

// BM25 parameters, the customary values.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// NewFinder indexes the document's units; speaker names count as text, so a
// sentence naming a speaker favours that speaker's turns.
func NewFinder(units []Unit) *Finder {
	f := &Finder{vocab: map[string]int32{}, lengths: make([]float64, len(units))}
	var buf []string
	counts := map[int32]int32{}
	total := 0.0
	for u, unit := range units {
		buf = tokenize(unit.Speaker, buf[:0])
		buf = tokenize(unit.Text, buf)
		clear(counts)
		for _, tok := range buf {
			id, ok := f.vocab[tok]
			if !ok {
				id = int32(len(f.postings))
				f.vocab[tok] = id
				f.postings = append(f.postings, nil)
			}
			counts[id]++
		}
		for id, tf := range counts {
			f.postings[id] = append(f.postings[id], posting{unit: int32(u), tf: tf})
		}
		f.lengths[u] = float64(len(buf))
		total += float64(len(buf))
	}
	if len(units) > 0 {
		f.avgLen = max(total/float64(len(units)), 1)
	}
	n := float64(len(units))
	f.idf = make([]float64, len(f.postings))
	for id, p := range f.postings {
		df := float64(len(p))
		f.idf[id] = math.Log(1 + (n-df+0.5)/(df+0.5))
	}
	return f
}

// termWeight is BM25's contribution of one term with frequency tf to a text
// of the given length.
func (f *Finder) termWeight(id int32, tf, length float64) float64 {
	return f.idf[id] * tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*length/f.avgLen))
}

// query returns the distinct known terms of a sentence.
func (f *Finder) query(sentence string) []int32 {
	var ids []int32
	for _, tok := range tokenize(sentence, nil) {
		if id, ok := f.vocab[tok]; ok && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids
}

// Rank returns every unit sharing a term with the sentence, best first
// (ties by unit number).
func (f *Finder) Rank(sentence string) []Evidence {
	ranked, _ := f.rank(f.query(sentence))
	return ranked
}

// rank scores units for the query and also returns, per ranked unit, the
// frequency of each query term in it, which Premise needs.
func (f *Finder) rank(q []int32) ([]Evidence, map[int32][]float64) {
	tfs := map[int32][]float64{}
	for qi, id := range q {
		for _, p := range f.postings[id] {
			row := tfs[p.unit]
			if row == nil {
				row = make([]float64, len(q))
				tfs[p.unit] = row
			}
			row[qi] = float64(p.tf)
		}
	}
	out := make([]Evidence, 0, len(tfs))
	for u, row := range tfs {
		score := 0.0
		for qi, tf := range row {
			if tf > 0 {
				score += f.termWeight(q[qi], tf, f.lengths[u])
			}
		}
		out = append(out, Evidence{Unit: int(u) + 1, Score: score})
	}
	slices.SortFunc(out, func(a, b Evidence) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		return a.Unit - b.Unit
	})
	return out, tfs
}

// Premise grows a premise for the sentence after INFUSE: it takes units in
// rank order and keeps adding the next one while the BM25 score of the
// joined premise against the sentence rises, stopping at the first unit that
// does not help or at limit units. A unit that repeats terms already covered
// lengthens the premise without adding matches and so lowers the score; a
// unit that brings terms the premise lacked raises it. The units are
// returned in rank order with their own scores.
func (f *Finder) Premise(sentence string, limit int) []Evidence {
	q := f.query(sentence)
	ranked, tfs := f.rank(q)
	if limit <= 0 || len(ranked) == 0 {
		return []Evidence{}
	}
	joined := make([]float64, len(q))
	length, best := 0.0, 0.0
	out := []Evidence{}
	for _, e := range ranked {
		if len(out) == limit {
			break
		}
		row := tfs[int32(e.Unit-1)]
		newLen := length + f.lengths[e.Unit-1]
		score := 0.0
		for qi, id := range q {
			if tf := joined[qi] + row[qi]; tf > 0 {
				score += f.termWeight(id, tf, newLen)
			}
		}
		if score <= best*(1+1e-9) {
			break
		}
		for qi := range q {
			joined[qi] += row[qi]
		}
		length, best = newLen, score
		out = append(out, e)
	}
	return out
}

// FindEvidence returns the grown premise of each sentence against units.
func FindEvidence(units []Unit, sentences []string, limit int) [][]Evidence {
	f := NewFinder(units)
	out := make([][]Evidence, len(sentences))
	for i, s := range sentences {
		out[i] = f.Premise(s, limit)
	}
	return out
}

// isCJK reports whether r belongs to a script written without spaces
// between words.
func isCJK(r rune) bool {
	if r < 0x1100 {
		return false
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// tokenize appends the tokens of s to dst: lowercased words without
// stopwords (a possessive 's and a plural s dropped), and character bigrams
// of CJK runs (a lone character stands for itself).
func tokenize(s string, dst []string) []string {
	var word strings.Builder
	cjkStart, cjkLen := -1, 0
	flushWord := func() {
		if word.Len() == 0 {
			return
		}
		w := strings.TrimSuffix(word.String(), "'s")
		w = strings.ReplaceAll(w, "'", "")
		word.Reset()
		if w == "" || stopwords[w] {
			return
		}
		dst = append(dst, stem(w))
	}
	flushCJK := func(end int) {
		if cjkStart < 0 {
			return
		}
		run := s[cjkStart:end]
		if cjkLen == 1 {
			dst = append(dst, run)
		} else {
			for i := 0; i < len(run); {
				_, w1 := utf8.DecodeRuneInString(run[i:])
				if i+w1 >= len(run) {
					break
				}
				_, w2 := utf8.DecodeRuneInString(run[i+w1:])
				dst = append(dst, run[i:i+w1+w2])
				i += w1
			}
		}
		cjkStart, cjkLen = -1, 0
	}
	for i, r := range s {
		switch {
		case isCJK(r):
			flushWord()
			if cjkStart < 0 {
				cjkStart = i
			}
			cjkLen++
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			flushCJK(i)
			word.WriteRune(unicode.ToLower(r))
		case (r == '\'' || r == '’') && word.Len() > 0:
			word.WriteByte('\'')
		default:
			flushWord()
			flushCJK(i)
		}
	}
	flushWord()
	flushCJK(len(s))
	return dst
}

// stem drops a plural s, so that "councils" meets "council" (a possessive
// 's is gone before this).
func stem(w string) string {
	if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is") {
		w = w[:len(w)-1]
	}
	return w
}

// stopwords are frequent English function words that say nothing about
// which unit supports a sentence.
var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the and or but if then than so of to in on at by for with from
		into onto about as is are was were be been being am do does did doing have has had having
		it its this that these those there here he him his she her they them their we us our you
		your i me my not no nor also very just too can could will would shall should may might must
		which who whom whose what when where why how all any each both some such only own same
		other more most over under again further once up down out off while during before after
		above below between through because until against`) {
		m[w] = true
	}
	return m
}()
