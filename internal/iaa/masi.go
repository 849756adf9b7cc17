package iaa

import (
	"fmt"
	"math"
	"math/bits"
)

// maxLabel is the largest label a set value can hold: sets are bit masks
// carried exactly by a float64, whose mantissa has 53 bits.
const maxLabel = 52

// SetValue encodes a set of labels 0..52 (for instance error types) as a
// rating value for the MASI level. The empty set is 0. It panics on a label
// outside 0..52.
func SetValue(labels ...int) float64 {
	var b uint64
	for _, l := range labels {
		if l < 0 || l > maxLabel {
			panic(fmt.Sprintf("iaa: SetValue: label %d outside 0..%d", l, maxLabel))
		}
		b |= 1 << l
	}
	return float64(b)
}

// SetLabels decodes a value made by [SetValue] into its labels, ascending.
func SetLabels(v float64) []int {
	var ls []int
	for b := uint64(v); b != 0; b &= b - 1 {
		ls = append(ls, bits.TrailingZeros64(b))
	}
	return ls
}

func isSetValue(v float64) bool { return v >= 0 && v < 1<<(maxLabel+1) && v == math.Trunc(v) }

// MASIDistance is Passonneau's (2006) distance between two label sets
// encoded by [SetValue]: 1 − J·M, where J = |A∩B|/|A∪B| is the Jaccard
// index and M is 1 if A = B, 2/3 if one set contains the other, 1/3 if they
// overlap otherwise and 0 if they are disjoint. Two empty sets are at
// distance 0, an empty and a non-empty set at distance 1.
func MASIDistance(a, b float64) float64 {
	x, y := uint64(a), uint64(b)
	if x == y {
		return 0
	}
	inter := bits.OnesCount64(x & y)
	if inter == 0 {
		return 1
	}
	j := float64(inter) / float64(bits.OnesCount64(x|y))
	m := 1.0 / 3
	if x&y == x || x&y == y {
		m = 2.0 / 3
	}
	return 1 - j*m
}
