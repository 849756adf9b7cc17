package main

import (
	"testing"

	"annotate/internal/testkit"
)

// must is testkit.Must: the value of a fixture call, or the test stops.
func must[T any](v T, err error) func(testing.TB) T { return testkit.Must(v, err) }
