package domain_test

import (
	"bytes"
	"strings"
	"testing"

	"annotate/internal/domain"
)

// Whole values are kept until they come to MaxChangeBytes; later changes
// keep excerpts around where they differ, which String and WriteDiff show
// as such; past MaxKeptChanges changes are only counted.
func TestChangeLogBounds(t *testing.T) {
	var l domain.ChangeLog
	long := strings.Repeat("word ", 1<<20) // 5 MiB
	for i := range 5 {
		l.Add(domain.Change{Kind: domain.ChangeText, Where: "document d", Old: long + "old", New: "short " + string(rune('a'+i))})
	}
	if l.Total != 5 || len(l.Kept) != 5 {
		t.Fatalf("total %d, kept %d", l.Total, len(l.Kept))
	}
	whole := 0
	for _, c := range l.Kept {
		if !c.Cut {
			whole++
			if c.Old != long+"old" {
				t.Fatal("a change kept whole lost its value")
			}
		} else if len(c.Old) > 2000 || !strings.Contains(c.String(), "more characters") {
			t.Errorf("a cut change: %d bytes, shown %.200q", len(c.Old), c.String())
		}
	}
	if whole != 3 {
		t.Errorf("%d changes kept whole, want 3 (15 MiB of 16)", whole)
	}
	var b bytes.Buffer
	if err := domain.WriteDiff(&b, l.Kept[3:], 7); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "# cut to where the values differ") || !strings.Contains(b.String(), "# 7 more differences not kept") {
		t.Errorf("diff:\n%.500s", b.String())
	}
	for range domain.MaxKeptChanges {
		l.Add(domain.Change{Kind: domain.ChangeMetadata, Where: "x", Old: "a", New: "b"})
	}
	if len(l.Kept) != domain.MaxKeptChanges || l.Total != domain.MaxKeptChanges+5 || l.Omitted() != 5 {
		t.Errorf("kept %d, total %d, omitted %d", len(l.Kept), l.Total, l.Omitted())
	}
}
