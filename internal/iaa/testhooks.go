package iaa

import (
	"sync/atomic"
	"testing"
)

// bootstrapGoroutines counts the goroutines the bootstrap has started to
// draw replicates.
var bootstrapGoroutines atomic.Int64

// BootstrapGoroutinesForTests returns how many goroutines the bootstrap
// has started to draw replicates since the program began, so that a test
// can check that work meant for one goroutine started none. It panics
// outside a test binary.
func BootstrapGoroutinesForTests() int64 {
	if !testing.Testing() {
		panic("iaa: BootstrapGoroutinesForTests called outside a test")
	}
	return bootstrapGoroutines.Load()
}
