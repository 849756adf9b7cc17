package main

import (
	"testing"

	"annotate/internal/testkit"
)

// TestMain runs the tests with passwords hashed at bcrypt's lowest cost
// and new databases copied from one migrated once (see testkit.Main):
// the package's fixtures make many accounts and stores.
func TestMain(m *testing.M) { testkit.Main(m, nil) }
