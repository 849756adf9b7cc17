package importer

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// parsePyList parses a Python list literal of string literals, such as the
// TofuEval key_points column: ['1. A fact.', "2. Another's fact."]. It
// understands single, double and triple quotes, the r and u prefixes,
// adjacent literals that Python concatenates, a trailing comma, and the
// escape sequences of Python 3 string literals.
func parsePyList(s string) ([]string, error) {
	p := &pyParser{s: s}
	p.space()
	if !p.eat('[') {
		return nil, p.errorf("expected '['")
	}
	out := []string{}
	for {
		p.space()
		if p.eat(']') {
			break
		}
		lit, err := p.strings()
		if err != nil {
			return nil, err
		}
		out = append(out, lit)
		p.space()
		if p.eat(',') {
			continue
		}
		if p.eat(']') {
			break
		}
		return nil, p.errorf("expected ',' or ']'")
	}
	p.space()
	if p.i < len(p.s) {
		return nil, p.errorf("unexpected text after the list")
	}
	return out, nil
}

// pyParser walks a Python literal byte by byte.
type pyParser struct {
	s string
	i int
}

func (p *pyParser) errorf(format string, args ...any) error {
	return fmt.Errorf("Python list at offset %d: %s", p.i, fmt.Sprintf(format, args...))
}

func (p *pyParser) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *pyParser) eat(c byte) bool {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

// strings reads one or more adjacent string literals and joins them.
func (p *pyParser) strings() (string, error) {
	var b strings.Builder
	n := 0
	for {
		p.space()
		if !p.atString() {
			break
		}
		lit, err := p.literal()
		if err != nil {
			return "", err
		}
		b.WriteString(lit)
		n++
	}
	if n == 0 {
		return "", p.errorf("expected a string literal")
	}
	return b.String(), nil
}

// atString reports whether a string literal, with optional prefix, starts
// here.
func (p *pyParser) atString() bool {
	j := p.i
	for j < len(p.s) && j-p.i < 2 && strings.IndexByte("rRuU", p.s[j]) >= 0 {
		j++
	}
	return j < len(p.s) && (p.s[j] == '\'' || p.s[j] == '"')
}

// literal reads one string literal.
func (p *pyParser) literal() (string, error) {
	raw := false
	for p.s[p.i] != '\'' && p.s[p.i] != '"' {
		if p.s[p.i] == 'r' || p.s[p.i] == 'R' {
			raw = true
		}
		p.i++
	}
	start := p.i
	q := p.s[p.i : p.i+1]
	if strings.HasPrefix(p.s[p.i:], q+q+q) {
		q = q + q + q
	}
	p.i += len(q)
	var b strings.Builder
	for {
		if p.i >= len(p.s) {
			p.i = start
			return "", p.errorf("unterminated string")
		}
		if strings.HasPrefix(p.s[p.i:], q) {
			p.i += len(q)
			return b.String(), nil
		}
		c := p.s[p.i]
		if c == '\n' && len(q) == 1 {
			return "", p.errorf("line break inside a string")
		}
		if c != '\\' {
			b.WriteByte(c)
			p.i++
			continue
		}
		if p.i+1 >= len(p.s) {
			p.i = start
			return "", p.errorf("unterminated string")
		}
		if raw {
			// A raw string keeps the backslash and the character after
			// it, which therefore cannot end the string.
			b.WriteString(p.s[p.i : p.i+2])
			p.i += 2
			continue
		}
		if err := p.escape(&b); err != nil {
			return "", err
		}
	}
}

// escape decodes the escape sequence at p.i (a backslash) into b.
func (p *pyParser) escape(b *strings.Builder) error {
	c := p.s[p.i+1]
	p.i += 2
	simple := map[byte]string{
		'\\': `\`, '\'': `'`, '"': `"`, 'n': "\n", 't': "\t", 'r': "\r",
		'a': "\a", 'b': "\b", 'f': "\f", 'v': "\v", '\n': "",
	}
	if s, ok := simple[c]; ok {
		b.WriteString(s)
		return nil
	}
	hex := map[byte]int{'x': 2, 'u': 4, 'U': 8}
	if n, ok := hex[c]; ok {
		if p.i+n > len(p.s) {
			return p.errorf(`truncated \%c escape`, c)
		}
		v, err := strconv.ParseUint(p.s[p.i:p.i+n], 16, 32)
		if err != nil || v > utf8.MaxRune {
			return p.errorf(`invalid \%c escape`, c)
		}
		b.WriteRune(rune(v))
		p.i += n
		return nil
	}
	if c >= '0' && c <= '7' {
		j := p.i
		for j < len(p.s) && j-p.i < 2 && p.s[j] >= '0' && p.s[j] <= '7' {
			j++
		}
		v, _ := strconv.ParseUint(p.s[p.i-1:j], 8, 32)
		b.WriteRune(rune(v))
		p.i = j
		return nil
	}
	if c == 'N' {
		return p.errorf(`\N{...} escapes are not supported`)
	}
	// Python keeps unknown escapes as written.
	b.WriteByte('\\')
	b.WriteByte(c)
	return nil
}
