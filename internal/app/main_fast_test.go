package app_test

import (
	"os"
	"testing"

	"annotate/internal/tasks"
)

// TestMain makes the package's new databases copies of one migrated once
// (see tasks.UseSchemaTemplateForTests): its tests open many.
func TestMain(m *testing.M) {
	tasks.UseSchemaTemplateForTests()
	os.Exit(m.Run())
}
