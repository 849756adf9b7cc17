package app_test

import "testing"

// must returns the value of a call that should not fail, and stops the
// test when it does: ids := must(store.SummaryIDs(ctx, p, nil))(t). A
// fixture step that fails silently would let the test pass or fail for
// another reason than the one it checks.
func must[T any](v T, err error) func(testing.TB) T {
	return func(t testing.TB) T {
		t.Helper()
		if err != nil {
			t.Fatalf("fixture: %v", err)
		}
		return v
	}
}
