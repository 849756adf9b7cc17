package loadgen_test

import (
	"os"
	"testing"

	"annotate/internal/testkit"
)

// TestMain runs the tests as testkit.Main does (fast password hashes, new
// databases copied from one migrated once) and then removes the binary
// they built.
func TestMain(m *testing.M) {
	testkit.Main(m, func() {
		if buildDir != "" {
			os.RemoveAll(buildDir)
		}
	})
}
