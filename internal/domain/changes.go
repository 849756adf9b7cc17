package domain

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
)

// Kinds of difference a re-import finds in data already there.
const (
	ChangeText      = "text"      // a document's or summary's text
	ChangeSentences = "sentences" // the sentence split of a summary
	ChangeGold      = "gold"
	ChangeLabel     = "label" // an annotator's label
	ChangeMetadata  = "metadata"
)

// Change is one difference between an import and what the project holds.
type Change struct {
	Kind  string `json:"kind"`
	Where string `json:"where"`
	Old   string `json:"old"`
	New   string `json:"new"`
	// Reason says why an update cannot apply it, when it cannot.
	Reason string `json:"reason,omitempty"`
	// Cut marks a change kept as excerpts (see ChangeLog): Old and New
	// hold the values around where they differ, as String shows them.
	Cut bool `json:"cut,omitempty"`
}

// Bounds on the differences an import keeps to show: every difference is
// counted, the first MaxKeptChanges are kept, whole while their values
// come to at most MaxChangeBytes and cut to where they differ after that.
// An update of a project of long documents from a small file could
// otherwise hold every document's whole text twice.
const (
	MaxKeptChanges = 1000
	MaxChangeBytes = 16 << 20
)

// ChangeLog collects an import's differences within the bounds above.
type ChangeLog struct {
	Kept  []Change
	Total int // every difference found, kept or not
	bytes int
}

// Add counts a difference and keeps it if there is room.
func (l *ChangeLog) Add(c Change) {
	l.Total++
	if len(l.Kept) >= MaxKeptChanges {
		return
	}
	if n := len(c.Old) + len(c.New); l.bytes+n > MaxChangeBytes {
		c.Old, c.New = excerpts(c.Old, c.New)
		c.Cut = true
	}
	l.bytes += len(c.Old) + len(c.New)
	l.Kept = append(l.Kept, c)
}

// Omitted is how many differences were counted but not kept.
func (l *ChangeLog) Omitted() int { return l.Total - len(l.Kept) }

// String shows a change on one line. Long values are shown around where
// they differ: the common start and end are cut to a little context, so
// the change itself is always visible; WriteDiff gives both values whole.
func (c Change) String() string {
	o, n := c.Old, c.New
	if !c.Cut {
		o, n = excerpts(c.Old, c.New)
	}
	s := fmt.Sprintf("%s: %s: %s → %s", c.Where, c.Kind, o, n)
	if c.Reason != "" {
		s += " (" + c.Reason + ")"
	}
	return s
}

const (
	// shownContext is how many characters of unchanged text a change
	// shows either side of where its values differ.
	shownContext = 30
	// shownChange bounds the differing part shown on one line.
	shownChange = 400
)

// excerpts quotes two values for one line, cut to where they differ.
func excerpts(old, new string) (string, string) {
	a, b := []rune(old), []rune(new)
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	from := max(0, pre-shownContext)
	return excerpt(a, from, pre, len(a)-suf), excerpt(b, from, pre, len(b)-suf)
}

// excerpt quotes r[from:] up to shownContext characters past the differing
// part r[start:end], marking what was cut with "…".
func excerpt(r []rune, from, start, end int) string {
	if len(r) == 0 {
		return "(none)"
	}
	to := min(len(r), end+shownContext)
	more := ""
	if end-start > shownChange {
		more = fmt.Sprintf(" [%d more characters]", end-start-shownChange)
		end, to = start+shownChange, start+shownChange
	}
	s := strconv.Quote(string(r[from:to]))
	if from > 0 {
		s = "…" + s
	}
	if to < len(r) {
		s += "…"
	}
	return s + more
}

// WriteDiff writes every change whole, as a unified diff of the project's
// value against the import's, line by line; a change kept cut (see
// ChangeLog) is written as its excerpts, saying so, and omitted ones are
// counted at the end.
func WriteDiff(w io.Writer, changes []Change, omitted int) error {
	for _, c := range changes {
		text, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
			A:        difflib.SplitLines(withNewline(c.Old)),
			B:        difflib.SplitLines(withNewline(c.New)),
			FromFile: c.Where + " (" + c.Kind + ", in the project)",
			ToFile:   c.Where + " (" + c.Kind + ", in the import)",
			Context:  3,
		})
		if err != nil {
			return Op("WriteDiff", err)
		}
		if c.Reason != "" {
			text = "# " + c.Reason + "\n" + text
		}
		if c.Cut {
			text = fmt.Sprintf("# cut to where the values differ: the changes before it came to more than %d MiB\n", MaxChangeBytes>>20) + text
		}
		if _, err := io.WriteString(w, text); err != nil {
			return Op("WriteDiff", err)
		}
	}
	if omitted > 0 {
		if _, err := fmt.Fprintf(w, "# %d more %s not kept: at most %d are\n", omitted, Plural(omitted, "difference", "differences"), MaxKeptChanges); err != nil {
			return Op("WriteDiff", err)
		}
	}
	return nil
}

func withNewline(s string) string {
	if s == "" || strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}

// ChangesError is an import refused because data already in the project
// differs: without update every difference is listed and nothing is
// written; Refused marks differences an update cannot apply.
type ChangesError struct {
	Changes []Change
	// Total counts every difference, Changes holding at most
	// MaxKeptChanges of them; 0 means len(Changes).
	Total   int
	Refused bool
}

// All is the number of differences found, kept or not.
func (e *ChangesError) All() int { return max(e.Total, len(e.Changes)) }

// Error lists the differences, one per line.
func (e *ChangesError) Error() string {
	var b strings.Builder
	n := e.All()
	if e.Refused {
		fmt.Fprintf(&b, "refused: %d %s cannot be applied; nothing was imported:", n, Plural(n, "change", "changes"))
	} else {
		fmt.Fprintf(&b, "the import differs from the project in %d %s; nothing was imported (use --update to apply them):", n, Plural(n, "place", "places"))
	}
	for i, c := range e.Changes {
		if i == 200 {
			break
		}
		b.WriteString("\n  ")
		b.WriteString(c.String())
	}
	if shown := min(len(e.Changes), 200); n > shown {
		fmt.Fprintf(&b, "\n  ... and %d more", n-shown)
	}
	return b.String()
}

// Plural returns one when n is 1 and many otherwise, for counts in messages.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
