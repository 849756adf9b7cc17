package report

// ParallelGoroutines counts the goroutines the build has started to
// compute dimensions at once.
var ParallelGoroutines = &parallelGoroutines

// SeededProject makes reportseed's project with o in a new database and
// opens it (see seededStore), for the package's external tests.
var SeededProject = seededStore
