package assist

import (
	"strings"
	"unicode"
)

// maxAnswerRunes bounds each text field of a model's answer (a reason, a
// report). An endpoint is untrusted: its answer may be up to the 32 MiB
// the client reads, and every text it returns is stored, shown beside a
// sentence and exported. A real argument is a paragraph or two.
const maxAnswerRunes = 8000

// answerCut marks a text cut at maxAnswerRunes.
const answerCut = " […]"

// boundAnswerText keeps at most maxAnswerRunes runes of a model's text,
// marking a cut, drops carriage returns, and replaces the other control
// characters but line feeds and tabs (terminal escapes, NUL) with U+FFFD. The schema sent in strict
// mode states no length, so a long answer is cut rather than refused.
func boundAnswerText(s string) string {
	n := 0
	clean := true
	for _, r := range s {
		n++
		if unicode.IsControl(r) && r != '\n' && r != '\t' {
			clean = false
		}
	}
	if clean && n <= maxAnswerRunes {
		return s
	}
	var b strings.Builder
	i := 0
	for _, r := range s {
		if i == maxAnswerRunes {
			b.WriteString(answerCut)
			break
		}
		if r == '\r' {
			continue
		}
		i++
		if unicode.IsControl(r) && r != '\n' && r != '\t' {
			r = unicode.ReplacementChar
		}
		b.WriteRune(r)
	}
	return b.String()
}
