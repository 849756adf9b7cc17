package jsonindent

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// randomValue is a value of nested maps, slices, strings (with quotes,
// backslashes, HTML characters, control characters and non-ASCII
// letters), numbers, booleans and nulls.
func randomValue(rng *rand.Rand, depth int) any {
	k := rng.IntN(8)
	if depth > 4 {
		k = rng.IntN(4)
	}
	switch k {
	case 0:
		return randomString(rng)
	case 1:
		return rng.NormFloat64() * 1e6
	case 2:
		return rng.IntN(3) == 0
	case 3:
		return nil
	case 4, 5:
		m := map[string]any{}
		for range rng.IntN(4) {
			m[randomString(rng)] = randomValue(rng, depth+1)
		}
		return m
	default:
		var s []any
		for range rng.IntN(4) {
			s = append(s, randomValue(rng, depth+1))
		}
		if s == nil && rng.IntN(2) == 0 {
			return []any{}
		}
		return s
	}
}

func randomString(rng *rand.Rand) string {
	parts := []string{"a", `"`, `\`, "<b>&", "\n", "\t", "é", "✓", "\x01", ":", ",", "{", "]", " "}
	var b strings.Builder
	for range rng.IntN(6) {
		b.WriteString(parts[rng.IntN(len(parts))])
	}
	return b.String()
}

// encoderOutput is what an Encoder with SetIndent("", "  ") writes.
func encoderOutput(t testing.TB, v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Encode writes what the Encoder writes, for thousands of random values
// (empty and nested objects and arrays, strings full of what needs
// escaping).
func TestEncodeAsEncoder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 5000 {
		v := randomValue(rng, 0)
		var got bytes.Buffer
		if err := Encode(&got, v); err != nil {
			t.Fatal(err)
		}
		if want := encoderOutput(t, v); !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("value %d:\n%s\nwant\n%s", i, got.Bytes(), want)
		}
	}
}

// Written in chunks of a few bytes, Encode writes the same bytes, in
// as many writes as the chunks make.
func TestEncodeInChunks(t *testing.T) {
	defer func(n int) { chunkSize = n }(chunkSize)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 2000 {
		chunkSize = 1 + rng.IntN(40)
		v := randomValue(rng, 0)
		var got countedWrites
		if err := Encode(&got, v); err != nil {
			t.Fatal(err)
		}
		want := encoderOutput(t, v)
		if !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("value %d in chunks of %d:\n%s\nwant\n%s", i, chunkSize, got.Bytes(), want)
		}
		if len(want) > 4*chunkSize+64 && got.writes < 2 {
			t.Fatalf("value %d: %d bytes in %d writes, with chunks of %d", i, len(want), got.writes, chunkSize)
		}
	}
}

// countedWrites is a buffer that counts the writes it takes.
type countedWrites struct {
	bytes.Buffer
	writes int
}

func (c *countedWrites) Write(p []byte) (int, error) {
	c.writes++
	return c.Buffer.Write(p)
}

// Append on any valid JSON that json.Compact makes is json.Indent's
// output; on other input it returns without reading past it.
func FuzzAppend(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":[1,{"b":"c\"}"}],"d":{}}`, `"\\"`, `[[],[[]],{"":null}]`, `{"x":"a\\\"b"}`, `"unterminated`, `{]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		Append(nil, src) // any input: no panic
		var compact bytes.Buffer
		if json.Compact(&compact, src) != nil {
			return
		}
		var want bytes.Buffer
		if err := json.Indent(&want, compact.Bytes(), "", "  "); err != nil {
			t.Fatal(err)
		}
		if got := Append(nil, compact.Bytes()); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("%q:\n%s\nwant\n%s", compact.Bytes(), got, want.Bytes())
		}
	})
}
