package loadgen_test

import (
	"os"
	"testing"

	"annotate/internal/tasks"
)

// TestMain hashes test passwords at bcrypt's lowest cost (fixtures create
// many accounts and log in often, and the default cost made hashing most
// of the package's test time), and removes the binary the tests built.
// New databases are copies of one migrated once (see
// tasks.UseSchemaTemplateForTests).
func TestMain(m *testing.M) {
	tasks.SetPasswordCostForTests(4)
	tasks.UseSchemaTemplateForTests()
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}
