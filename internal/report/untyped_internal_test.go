package report

import (
	"math"
	"testing"
)

// An unfaithful label naming no error type (imported, a draft, or gold
// resolved from annotators who agreed on the label but not the types)
// counted as the empty set of error types: the set of a faithful label,
// with which it then agreed on the error-type dimensions and against
// which annotators' types were scored as wrong. Its set is now unknown.
func TestUntypedUnfaithfulHasNoErrorSet(t *testing.T) {
	for _, c := range []struct {
		name string
		l    label
		want float64 // NaN: no set
	}{
		{"faithful", label{faith: 0}, 0},
		{"unfaithful with types", label{faith: 1, mask: 0b101}, 0b101},
		{"unfaithful without types", label{faith: 1}, math.NaN()},
		{"borderline without types", label{faith: 2}, 0},
		{"no label", label{faith: -1, empty: true}, math.NaN()},
	} {
		v, ok := errorSet(&c.l)
		if math.IsNaN(c.want) {
			if ok {
				t.Errorf("%s: set %v, want none", c.name, v)
			}
		} else if !ok || v != c.want {
			t.Errorf("%s: set %v (%v), want %v", c.name, v, ok, c.want)
		}
	}
	// A summary's union needs every sentence's set.
	if v := unionOf()([]*label{{faith: 1, mask: 0b1}, {faith: 1}}); !math.IsNaN(v) {
		t.Errorf("union over an untyped unfaithful sentence: %v, want none", v)
	}
	if v := unionOf()([]*label{{faith: 1, mask: 0b1}, {faith: 0}}); v != 0b1 {
		t.Errorf("union: %v, want 1", v)
	}
}
