package web_test

import (
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// Assertions on pages by their nodes rather than by substrings of the
// markup: a check that something is absent first finds the region where
// it would appear and fails when that region is missing, so a renamed
// test id or class cannot make the check pass on its own.

// tid is the CSS selector of the elements with the test id.
func tid(id string) string { return `[data-testid="` + id + `"]` }

// doc parses the page body as HTML.
func (p page) doc(t testing.TB) *goquery.Document {
	t.Helper()
	d, err := goquery.NewDocumentFromReader(strings.NewReader(p.body))
	if err != nil {
		t.Fatalf("parse page (status %d): %v", p.status, err)
	}
	return d
}

// find returns the nodes matched by the CSS selector, possibly none.
func (p page) find(t testing.TB, sel string) *goquery.Selection {
	t.Helper()
	return p.doc(t).Find(sel)
}

// mustFind returns the nodes matched by the CSS selector and fails the
// test when there are none.
func (p page) mustFind(t testing.TB, sel string) *goquery.Selection {
	t.Helper()
	s := p.doc(t).Find(sel)
	if s.Length() == 0 {
		t.Fatalf("page (status %d) has no %s", p.status, sel)
	}
	return s
}

// has reports whether the page has a node matched by the CSS selector.
func (p page) has(t testing.TB, sel string) bool {
	t.Helper()
	return p.doc(t).Find(sel).Length() > 0
}

// squash collapses runs of white space to one space and trims the ends.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

// texts returns the text of each node of the selection, spaces collapsed.
func texts(s *goquery.Selection) []string {
	out := make([]string, 0, s.Length())
	s.Each(func(_ int, n *goquery.Selection) { out = append(out, squash(n.Text())) })
	return out
}

// textOf returns the text of the whole selection, spaces collapsed.
func textOf(s *goquery.Selection) string { return squash(s.Text()) }

// visible returns what a reader of the selection can find in it: its
// text and the values of the attributes of its nodes and their
// descendants (titles, values, links, data attributes).
func visible(s *goquery.Selection) string {
	var b strings.Builder
	b.WriteString(s.Text())
	all := s.Find("*").AddSelection(s)
	for _, n := range all.Nodes {
		for _, a := range n.Attr {
			b.WriteString(" ")
			b.WriteString(a.Val)
		}
	}
	return b.String()
}

// absentIn fails the test when the region named by the CSS selector is
// missing, or when any of the unwanted strings appears in its text or
// attribute values.
func (p page) absentIn(t testing.TB, sel string, unwanted ...string) {
	t.Helper()
	region := visible(p.mustFind(t, sel))
	for _, u := range unwanted {
		if strings.Contains(region, u) {
			t.Errorf("%s shows %q", sel, u)
		}
	}
}

// noneIn fails the test when the region named by the first selector is
// missing, or when it holds a node matched by the second.
func (p page) noneIn(t testing.TB, region, sel string) {
	t.Helper()
	if n := p.mustFind(t, region).Find(sel).Length(); n > 0 {
		t.Errorf("%s holds %d × %s", region, n, sel)
	}
}

// textIn fails the test when the region named by the CSS selector is
// missing or its text lacks any of the wanted strings.
func (p page) textIn(t testing.TB, sel string, wanted ...string) {
	t.Helper()
	text := textOf(p.mustFind(t, sel))
	for _, w := range wanted {
		if !strings.Contains(text, w) {
			t.Errorf("%s lacks %q in %q", sel, w, text)
		}
	}
}
