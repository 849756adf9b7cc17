package web

import (
	"bytes"

	"github.com/yuin/goldmark"
)

// md renders Markdown with goldmark's defaults, which drop raw HTML and
// unsafe link schemes, so guidelines written by a lead cannot carry
// script into annotators' pages.
var md = goldmark.New()

// renderMarkdown turns guidelines into sanitised HTML.
func renderMarkdown(src string) string {
	var buf bytes.Buffer
	if err := md.Convert([]byte(src), &buf); err != nil {
		return ""
	}
	return buf.String()
}
