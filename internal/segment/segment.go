// Package segment splits text into sentences, the units that annotators
// label and that evidence cites by number.
//
// English (and any language without a dedicated rule) goes through the Punkt
// tokenizer, which knows abbreviations, initials and decimals; Chinese and
// Japanese are split after their sentence-final punctuation. In every
// language a blank line ends a sentence, so headings and list items do not
// run into the paragraph that follows them, and a line that ends with
// sentence-final punctuation ends its sentence, as in texts written one
// sentence per line; a line that opens a list item ("2. Roll call", "- Budget")
// starts a new sentence.
package segment

import (
	"regexp"
	"strings"
	"unicode"
)

// Split returns the sentences of text, trimmed of surrounding whitespace and
// never empty. The language is a BCP 47 tag or a bare code ("en", "zh-Hans",
// "ja"); an empty or unknown language is treated as English. Removing all
// whitespace from the concatenated sentences gives the input with all
// whitespace removed: Split only chooses boundaries and never drops or
// rewrites text, except that invalid UTF-8 becomes U+FFFD.
func Split(text, language string) []string {
	text = strings.ToValidUTF8(text, "\uFFFD")
	cjk := isCJK(language)
	var out []string
	for _, para := range paragraphs(text, cjk) {
		var parts []string
		if cjk {
			parts = splitCJK(para)
		} else {
			parts = splitEnglish(para)
		}
		for _, p := range parts {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// isCJK reports whether the language is written without spaces between
// words and ends sentences with ideographic punctuation.
func isCJK(language string) bool {
	primary, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(language)), "-")
	primary, _, _ = strings.Cut(primary, "_")
	switch primary {
	case "zh", "ja", "cmn", "yue":
		return true
	}
	return false
}

// paragraphs cuts text at blank lines, after lines that end a sentence and
// before lines that open a list item; for CJK text, where hard-wrapped lines
// are rare, at every line break. The pieces are untrimmed.
func paragraphs(text string, everyLine bool) []string {
	lines := strings.SplitAfter(text, "\n")
	var paras []string
	var cur strings.Builder
	flush := func() {
		if strings.TrimSpace(cur.String()) != "" {
			paras = append(paras, cur.String())
		}
		cur.Reset()
	}
	for _, line := range lines {
		if strings.TrimFunc(line, unicode.IsSpace) == "" {
			flush()
			continue
		}
		if listItem.MatchString(line) {
			flush()
		}
		cur.WriteString(line)
		if everyLine || endsSentence(line) {
			flush()
		}
	}
	flush()
	return paras
}

// listItem matches a line that opens a list item: a number or letter with
// "." or ")", or a bullet, then a space. Such a line starts a new unit even
// when the line before it ends without punctuation, as agenda items do.
var listItem = regexp.MustCompile(`^[ \t]*(?:\(?(?:\d{1,3}|[A-Za-z])[.)]|[-*•–])[ \t]+\S`)

// endsSentence reports whether a line ends with ".", "!" or "?", possibly
// followed by closing quotes or brackets.
func endsSentence(line string) bool {
	line = strings.TrimRightFunc(line, unicode.IsSpace)
	line = strings.TrimRight(line, "\"')]”’")
	return strings.HasSuffix(line, ".") || strings.HasSuffix(line, "!") || strings.HasSuffix(line, "?")
}
