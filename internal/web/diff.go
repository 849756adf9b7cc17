package web

import (
	"strings"

	"annotate/web/templates"
)

// wordDiff returns the word-level difference from a to b as runs of kept,
// removed and added words, by the longest common subsequence of words.
// Summaries are short, so the quadratic table is small.
func wordDiff(a, b string) []templates.DiffOp {
	x, y := strings.Fields(a), strings.Fields(b)
	if len(x)*len(y) > 1_000_000 {
		return []templates.DiffOp{{Op: "-", Text: a}, {Op: "+", Text: b}}
	}
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []templates.DiffOp
	add := func(op, w string) {
		if n := len(ops); n > 0 && ops[n-1].Op == op {
			ops[n-1].Text += " " + w
			return
		}
		ops = append(ops, templates.DiffOp{Op: op, Text: w})
	}
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			add("=", x[i])
			i, j = i+1, j+1
		case j < len(y) && (i == len(x) || lcs[i][j+1] >= lcs[i+1][j]):
			add("+", y[j])
			j++
		default:
			add("-", x[i])
			i++
		}
	}
	return ops
}
