package assist

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
)

// seeder derives reproducible random streams for one item from the run seed
// and the item key, so that an item's stances, shuffles and request seeds do
// not depend on which other items share the run or in which order they ran.
type seeder struct {
	run int64
	key string
}

// derive hashes the run seed, the item key and a purpose into 64 bits.
func (s seeder) derive(purpose ...any) uint64 {
	h := sha256.New()
	fmt.Fprintf(h, "%d\x00%s", s.run, s.key)
	for _, p := range purpose {
		fmt.Fprintf(h, "\x00%v", p)
	}
	return binary.BigEndian.Uint64(h.Sum(nil))
}

// stream returns a generator for one purpose. PCG's output for a given seed
// is fixed, and shuffle below draws from it directly, so orders stay the same
// across Go releases.
func (s seeder) stream(purpose ...any) *rand.PCG {
	return rand.NewPCG(s.derive(append(purpose, "hi")...), s.derive(append(purpose, "lo")...))
}

// requestSeed returns a non-negative seed that fits the 32-bit seed fields
// some servers use.
func (s seeder) requestSeed(purpose ...any) int64 {
	return int64(s.derive(purpose...) & 0x7fffffff)
}

// shuffle permutes xs in place (Fisher–Yates).
func shuffle[T any](g *rand.PCG, xs []T) {
	for i := len(xs) - 1; i > 0; i-- {
		j := int(g.Uint64() % uint64(i+1))
		xs[i], xs[j] = xs[j], xs[i]
	}
}

// pick returns an index in [0, n).
func pick(g *rand.PCG, n int) int { return int(g.Uint64() % uint64(n)) }
