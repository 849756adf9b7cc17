package iaa

import "slices"

// ValueCoder numbers distinct rating values as they come and, once all
// have come, renumbers them in ascending order: the codes and Values of a
// [Coded]. Small non-negative integers, the usual ratings, are found in
// an array rather than a map.
type ValueCoder struct {
	small  []int32 // code+1 of the small non-negative integer values
	other  map[float64]int32
	values []float64 // by code, in order of first appearance
}

// Code returns v's code, numbering v if it is new; v must not be NaN.
func (vc *ValueCoder) Code(v float64) int32 {
	if isSmall(v) {
		if vc.small == nil {
			vc.small = make([]int32, smallLimit)
		}
		if k := vc.small[int(v)]; k > 0 {
			return k - 1
		}
		vc.values = append(vc.values, v)
		vc.small[int(v)] = int32(len(vc.values))
		return int32(len(vc.values) - 1)
	}
	if k, ok := vc.other[v]; ok {
		return k
	}
	if vc.other == nil {
		vc.other = map[float64]int32{}
	}
	k := int32(len(vc.values))
	vc.other[v] = k
	vc.values = append(vc.values, v)
	return k
}

// Ascending returns the values numbered so far in ascending order, and
// renum, which gives each code its value's place among them.
func (vc *ValueCoder) Ascending() (values []float64, renum []int32) {
	order := make([]int32, len(vc.values))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(x, y int32) int {
		a, c := vc.values[x], vc.values[y]
		switch {
		case a < c:
			return -1
		case a > c:
			return 1
		}
		return 0
	})
	renum = make([]int32, len(order))
	values = make([]float64, len(order))
	for k, old := range order {
		renum[old] = int32(k)
		values[k] = vc.values[old]
	}
	return values, renum
}
