//go:build !race

package assist_test

// raceEnabled reports that the race detector slows everything down, so
// timing checks are skipped.
const raceEnabled = false
