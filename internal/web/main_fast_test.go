package web_test

import (
	"testing"

	"annotate/internal/testkit"
)

// TestMain runs the tests as testkit.Main does (fast password hashes, new
// databases copied from one migrated once) and then stops the browser
// tests' shared Chromium (see newBrowser).
func TestMain(m *testing.M) { testkit.Main(m, stopBrowser) }
