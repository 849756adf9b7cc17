package report

// ParallelGoroutines counts the goroutines the build has started to
// compute dimensions at once.
var ParallelGoroutines = &parallelGoroutines
