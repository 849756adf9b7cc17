// Command benchdata writes a ratings file for measuring
// `annotate agreement --ratings`:
//
//	benchdata [--units 1000000] [--coders 3] [--order unit|coder|shuffled] [--seed 1] [--out FILE]
//
// The file is CSV with the header unit,coder,value and one row per unit
// and coder: units u0000001…, coders c1…, values 1–5 (a true value per
// unit that each coder keeps with probability 0.7, otherwise a random
// one; about 2% of the values are empty). The ratings depend only on
// --units, --coders and --seed; --order only says how the rows are laid
// out: unit-major (each unit's rows together), coder-major (every row of
// the first coder, then the second's, …) or shuffled (a random order
// drawn from the seed). The same seed therefore gives the same ratings,
// and the same α, in every order.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
)

func main() {
	units := flag.Int("units", 1_000_000, "units")
	coders := flag.Int("coders", 3, "coders per unit")
	order := flag.String("order", "unit", "row order: unit (unit-major), coder (coder-major) or shuffled")
	seed := flag.Uint64("seed", 1, "random seed")
	out := flag.String("out", "-", "file to write (- for standard output)")
	flag.Parse()
	if *units < 1 || *coders < 1 || *units > 9_999_999 {
		fmt.Fprintln(os.Stderr, "benchdata: --units must be 1…9999999 and --coders at least 1")
		os.Exit(2)
	}
	var w io.Writer = os.Stdout
	if *out != "-" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchdata:", err)
			os.Exit(1)
		}
		defer f.Close()
		w = f
	}
	if err := write(w, *units, *coders, *order, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "benchdata:", err)
		os.Exit(1)
	}
}

func write(out io.Writer, units, coders int, order string, seed uint64) error {
	// values[u*coders+c] is 0 for an empty value, else 1–5.
	values := make([]uint8, units*coders)
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	for u := range units {
		truth := uint8(rng.IntN(5) + 1)
		for c := range coders {
			v := truth
			if rng.Float64() < 0.3 {
				v = uint8(rng.IntN(5) + 1)
			}
			if rng.Float64() < 0.02 {
				v = 0
			}
			values[u*coders+c] = v
		}
	}
	rows := make([]int32, units*coders) // row i holds cell rows[i] (u*coders+c)
	switch order {
	case "unit":
		for i := range rows {
			rows[i] = int32(i)
		}
	case "coder":
		i := 0
		for c := range coders {
			for u := range units {
				rows[i] = int32(u*coders + c)
				i++
			}
		}
	case "shuffled":
		for i := range rows {
			rows[i] = int32(i)
		}
		shuffle := rand.New(rand.NewPCG(seed, 0x5401))
		shuffle.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	default:
		return fmt.Errorf("unknown order %q (want unit, coder or shuffled)", order)
	}
	bw := bufio.NewWriterSize(out, 1<<20)
	bw.WriteString("unit,coder,value\n")
	var line []byte
	for _, cell := range rows {
		u, c := int(cell)/coders, int(cell)%coders
		line = append(line[:0], 'u')
		s := strconv.Itoa(u + 1)
		for range 7 - len(s) {
			line = append(line, '0')
		}
		line = append(line, s...)
		line = append(line, ",c"...)
		line = strconv.AppendInt(line, int64(c+1), 10)
		line = append(line, ',')
		if v := values[cell]; v > 0 {
			line = append(line, '0'+v)
		}
		line = append(line, '\n')
		bw.Write(line)
	}
	return bw.Flush()
}
