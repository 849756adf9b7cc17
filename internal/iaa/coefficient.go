package iaa

import "math"

// z975 is the 0.975 quantile of the standard normal distribution, for
// two-sided 95% intervals.
const z975 = 1.959963984540054

// Coefficient is an agreement coefficient with a large-sample standard error
// and a 95% confidence interval Value ± 1.96·SE, clipped to [−1, 1].
type Coefficient struct {
	Value     float64 // the coefficient
	SE        float64 // 0 when there are too few units to estimate it
	Low, High float64 // 95% interval, clipped to [−1, 1]
	Units     int     // units that entered the estimate
}

func newCoefficient(v, se float64, units int) Coefficient {
	if !(se > 0) { // also catches a NaN from rounding below zero
		se = 0
	}
	return Coefficient{Value: v, SE: se, Low: clip1(v - z975*se), High: clip1(v + z975*se), Units: units}
}

func clip1(x float64) float64 { return math.Max(-1, math.Min(1, x)) }

// sqrtPos is the square root of a variance that rounding may have pushed a
// hair below zero.
func sqrtPos(v float64) float64 {
	if v <= 0 || v != v {
		return 0
	}
	return math.Sqrt(v)
}
