package templates

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
)

// TestSettingsLabelsWarning: the settings page's warning gives the count
// of labels, says "more than" when the page stopped counting, speaks of
// one label in the singular, and is absent without labels.
func TestSettingsLabelsWarning(t *testing.T) {
	space := regexp.MustCompile(`\s+`)
	for _, c := range []struct {
		labels int
		more   bool
		want   string
	}{
		{0, false, ""},
		{1, false, "This project already has 1 sentence label. Changing the schema does not rewrite labels already given: they keep their values"},
		{37, false, "This project already has 37 sentence labels. Changing"},
		{10000, true, "This project already has more than 10000 sentence labels. Changing"},
	} {
		var b bytes.Buffer
		if err := SettingsPage(SettingsView{Slug: "p", Labels: c.labels, LabelsMore: c.more}).Render(context.Background(), &b); err != nil {
			t.Fatal(err)
		}
		text := space.ReplaceAllString(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(b.String(), " "), " ")
		switch {
		case c.want == "" && strings.Contains(b.String(), `data-testid="labels-exist"`):
			t.Fatalf("%d labels: a warning", c.labels)
		case c.want != "" && !strings.Contains(text, c.want):
			t.Fatalf("%d labels (more %v): want %q in %q", c.labels, c.more, c.want, text)
		}
	}
}
