package tasks

import (
	"fmt"
	"strings"
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
}

// String shows a change on one line.
func (c Change) String() string {
	s := fmt.Sprintf("%s: %s: %s → %s", c.Where, c.Kind, short(c.Old), short(c.New))
	if c.Reason != "" {
		s += " (" + c.Reason + ")"
	}
	return s
}

// short bounds a value shown in a change.
func short(s string) string {
	if s == "" {
		return "(none)"
	}
	r := []rune(s)
	if len(r) > 80 {
		return fmt.Sprintf("%q…", string(r[:80]))
	}
	return fmt.Sprintf("%q", s)
}

// ChangesError is an import refused because data already in the project
// differs: without update every difference is listed and nothing is
// written; Refused marks differences an update cannot apply.
type ChangesError struct {
	Changes []Change
	Refused bool
}

// Error lists the differences, one per line.
func (e *ChangesError) Error() string {
	var b strings.Builder
	if e.Refused {
		fmt.Fprintf(&b, "refused: %d %s cannot be applied; nothing was imported:", len(e.Changes), plural(len(e.Changes), "change", "changes"))
	} else {
		fmt.Fprintf(&b, "the import differs from the project in %d %s; nothing was imported (use --update to apply them):", len(e.Changes), plural(len(e.Changes), "place", "places"))
	}
	for i, c := range e.Changes {
		if i == 200 {
			fmt.Fprintf(&b, "\n  ... and %d more", len(e.Changes)-200)
			break
		}
		b.WriteString("\n  ")
		b.WriteString(c.String())
	}
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
