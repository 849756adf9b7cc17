package iaa

import "fmt"

// Level is a level of measurement for Krippendorff's α; it chooses the
// difference function δ²(c, k) between two values (Krippendorff 2011).
type Level int

const (
	// Nominal: δ² = 0 if c = k, else 1.
	Nominal Level = iota
	// Ordinal: δ² = (Σ_{g=c}^{k} n_g − (n_c + n_k)/2)², with n_g the number
	// of pairable values equal to g; equivalently the squared difference of
	// the two values' mid-ranks.
	Ordinal
	// Interval: δ² = (c − k)².
	Interval
	// Ratio: δ² = ((c − k)/(c + k))², for non-negative values (0 when c = k = 0).
	Ratio
	// MASI: δ = 1 − J·M between two sets of labels encoded by [SetValue]
	// (Passonneau 2006); see [MASIDistance].
	MASI
)

// String returns the level's name as ParseLevel accepts it.
func (l Level) String() string {
	switch l {
	case Nominal:
		return "nominal"
	case Ordinal:
		return "ordinal"
	case Interval:
		return "interval"
	case Ratio:
		return "ratio"
	case MASI:
		return "masi"
	}
	return fmt.Sprintf("Level(%d)", int(l))
}

// ParseLevel accepts "nominal", "ordinal", "interval", "ratio" and "masi".
func ParseLevel(s string) (Level, error) {
	for l := Nominal; l <= MASI; l++ {
		if s == l.String() {
			return l, nil
		}
	}
	return 0, fmt.Errorf("iaa: unknown level %q (want nominal, ordinal, interval, ratio or masi)", s)
}
