package tasks

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/crypto/bcrypt"
)

// passwordCost is bcrypt's cost for new password hashes. It is
// bcrypt.DefaultCost in the program; only tests may lower it.
var passwordCost atomic.Int32

func init() { passwordCost.Store(int32(bcrypt.DefaultCost)) }

// PasswordCost returns bcrypt's cost for new password hashes.
func PasswordCost() int { return int(passwordCost.Load()) }

// SetPasswordCostForTests lowers bcrypt's cost so that test fixtures do not
// spend most of their time hashing. It panics outside a test binary, so the
// shipped program always hashes at bcrypt.DefaultCost or more.
func SetPasswordCostForTests(cost int) {
	if !testing.Testing() {
		panic("tasks: SetPasswordCostForTests called outside a test")
	}
	if cost < bcrypt.MinCost || cost > bcrypt.MaxCost {
		panic(fmt.Sprintf("tasks: bcrypt cost %d out of range", cost))
	}
	passwordCost.Store(int32(cost))
}

var (
	dummyMu     sync.Mutex
	dummyHashes = map[int][]byte{}
)

// dummyHash is a hash at the current cost that Authenticate compares
// against for unknown usernames, so they take as long as known ones.
func dummyHash() []byte {
	cost := PasswordCost()
	dummyMu.Lock()
	defer dummyMu.Unlock()
	h, ok := dummyHashes[cost]
	if !ok {
		h, _ = bcrypt.GenerateFromPassword([]byte("not a real password"), cost)
		dummyHashes[cost] = h
	}
	return h
}
