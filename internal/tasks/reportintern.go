package tasks

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"annotate/internal/domain"
)

// interner shares the strings and error-type lists that repeat across
// labels, and numbers those of sentence labels.
type interner struct {
	strs      map[string]string
	types     map[string][]string
	labelStr  map[string]uint32 // index into labelStrs
	labelStrs []string
	typeOf    map[string]uint32 // raw column → index into typeLists
	typeLists [][]string
}

// reportLabelValues are the values a sentence label can take (see the
// CHECK on sentence_labels.label), coded 0–3 in the labels query and
// numbered so in the interner's strings.
var reportLabelValues = []string{"", domain.LabelFaithful, domain.LabelUnfaithful, domain.LabelBorderline}

func newInterner() *interner {
	in := &interner{strs: map[string]string{}, types: map[string][]string{}, labelStr: map[string]uint32{},
		typeOf: map[string]uint32{"": 0, "[]": 0}, typeLists: [][]string{nil}}
	for _, v := range reportLabelValues {
		in.labelIndex(v)
	}
	return in
}

func (in *interner) str(s string) string {
	if v, ok := in.strs[s]; ok {
		return v
	}
	in.strs[s] = s
	return s
}

// labelIndex numbers a string of a sentence label.
func (in *interner) labelIndex(s string) uint32 {
	if i, ok := in.labelStr[s]; ok {
		return i
	}
	i := uint32(len(in.labelStrs))
	in.labelStr[s] = i
	in.labelStrs = append(in.labelStrs, s)
	return i
}

// typeIndex numbers the error-type list of an error_types column, decoded
// once per distinct value; a malformed value or an empty list is 0.
func (in *interner) typeIndex(raw string) uint32 {
	if i, ok := in.typeOf[raw]; ok {
		return i
	}
	var i uint32
	if ts := decodeTypes(raw); len(ts) > 0 {
		i = uint32(len(in.typeLists))
		in.typeLists = append(in.typeLists, ts)
	}
	in.typeOf[raw] = i
	return i
}

// errorTypes decodes an error_types column once per distinct value; the
// lists are shared and must not be modified.
func (in *interner) errorTypes(raw string) []string {
	if v, ok := in.types[raw]; ok {
		return v
	}
	v := decodeTypes(raw)
	in.types[raw] = v
	return v
}

// labelExtras numbers the ambiguity type and first label of the labels
// query's last column: the ambiguity type's length in bytes and a comma,
// then the two strings.
func (in *interner) labelExtras(s string) ([2]uint32, error) {
	j := strings.IndexByte(s, ',')
	n, err := strconv.Atoi(s[:max(j, 0)])
	if j < 0 || err != nil || n < 0 || n > len(s)-j-1 {
		return [2]uint32{}, fmt.Errorf("report labels: malformed strings %q", s)
	}
	rest := s[j+1:]
	return [2]uint32{in.labelIndex(rest[:n]), in.labelIndex(rest[n:])}, nil
}

var (
	reportTrue  = true
	reportFalse = false
)

// gold reads the gold column of the sentences query.
func (in *interner) gold(s string) (*domain.ReportGold, error) {
	bad := fmt.Errorf("malformed gold %q", s)
	if s == "" {
		return nil, bad
	}
	g := &domain.ReportGold{}
	switch s[0] {
	case 'y':
		g.Ambiguous = &reportTrue
	case 'f':
		g.Ambiguous = &reportFalse
	case 'n':
	default:
		return nil, bad
	}
	rest := s[1:]
	var n [2]int
	for i := range n {
		j := strings.IndexByte(rest, ',')
		v, err := strconv.Atoi(rest[:max(j, 0)])
		if j < 0 || err != nil || v < 0 {
			return nil, bad
		}
		n[i], rest = v, rest[j+1:]
	}
	if n[0]+n[1] > len(rest) {
		return nil, bad
	}
	g.Label, g.ErrorTypes, g.AmbiguityType = in.str(rest[:n[0]]), in.errorTypes(rest[n[0]:n[0]+n[1]]), in.str(rest[n[0]+n[1]:])
	return g, nil
}

// decodeTypes reads an error_types column; a malformed value counts as no
// types rather than failing the whole report.
func decodeTypes(raw string) []string {
	var out []string
	if raw == "" || json.Unmarshal([]byte(raw), &out) != nil {
		return nil
	}
	return out
}
