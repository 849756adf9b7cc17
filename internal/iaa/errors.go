package iaa

import "errors"

// ErrUndefined matches every [*UndefinedError] under errors.Is.
var ErrUndefined = errors.New("statistic undefined")

// UndefinedError reports that a statistic has no value on the data given and
// says why, so that callers can show the reason instead of a number.
type UndefinedError struct {
	Stat   string // the statistic, e.g. "Krippendorff's alpha"
	Reason string // why it is undefined, in words for a report
}

// Error returns "<stat> undefined: <reason>".
func (e *UndefinedError) Error() string { return e.Stat + " undefined: " + e.Reason }

// Is reports whether target is [ErrUndefined].
func (e *UndefinedError) Is(target error) bool { return target == ErrUndefined }

func undefined(stat, reason string) error { return &UndefinedError{Stat: stat, Reason: reason} }

// Reasons shared by several statistics, worded once so reports read alike.
const (
	reasonNoPairable  = "no unit has two or more ratings"
	reasonOneCategory = "all ratings fall in a single category"
	reasonNoOverlap   = "no unit was rated by both coders"
	reasonOneOverlap  = "only one unit was rated by both coders; agreement needs at least two"
	reasonOnePairable = "only one unit has two or more ratings; agreement needs at least two"
)
