package segment

import (
	"strings"
	"unicode/utf8"
)

// sentenceEnd holds the punctuation that ends a Chinese or Japanese
// sentence. The semicolon is left out on purpose: in Chinese it joins
// clauses of one sentence, and splitting there would make units too small to
// judge on their own.
const sentenceEnd = "。！？!?｡"

// closers may follow the final punctuation and still belong to the sentence:
// closing quotes and brackets of both scripts.
const closers = "”’」』）)】》〉］]〕\"'"

// continuers right after a closing bracket show that the quotation was part
// of a longer sentence, as in Japanese 「…。」と言った.
const continuers = "、，,と"

// splitCJK splits one paragraph after each run of sentence-final
// punctuation, keeping closing quotes and brackets with the sentence they
// close. The returned pieces are consecutive slices of para.
func splitCJK(para string) []string {
	var out []string
	start := 0
	i := 0
	for i < len(para) {
		r, size := utf8.DecodeRuneInString(para[i:])
		i += size
		if !strings.ContainsRune(sentenceEnd, r) {
			continue
		}
		// Take the whole run of enders ("？！", "!!") and the closers
		// after it.
		closed := false
		for i < len(para) {
			r, size := utf8.DecodeRuneInString(para[i:])
			if strings.ContainsRune(closers, r) {
				closed = true
			} else if !strings.ContainsRune(sentenceEnd, r) {
				break
			}
			i += size
		}
		if next, _ := utf8.DecodeRuneInString(para[i:]); closed && strings.ContainsRune(continuers, next) {
			continue
		}
		out = append(out, para[start:i])
		start = i
	}
	if start < len(para) {
		out = append(out, para[start:])
	}
	return out
}
