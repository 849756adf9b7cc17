package report_test

import (
	"os"
	"testing"

	"annotate/internal/tasks"
)

// TestMain hashes test passwords at bcrypt's lowest cost: fixtures create
// many accounts and log in often, and the default cost made hashing most
// of the package's test time.
// New databases are copies of one migrated once (see
// tasks.UseSchemaTemplateForTests).
func TestMain(m *testing.M) {
	tasks.SetPasswordCostForTests(4)
	tasks.UseSchemaTemplateForTests()
	os.Exit(m.Run())
}
