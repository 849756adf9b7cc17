package importer_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/importer"
)

// parseString parses one in-memory file.
func parseString(t *testing.T, format, name, content string) (*importer.Result, error) {
	t.Helper()
	return importer.Parse(format, []importer.File{{Name: name, R: strings.NewReader(content)}})
}

// fixtures returns the paths of files under testdata.
func fixtures(names ...string) []string {
	var out []string
	for _, n := range names {
		out = append(out, filepath.Join("testdata", n))
	}
	return out
}

// errorList returns the problems of a failed parse, failing the test if
// the error is of another kind.
func errorList(t *testing.T, err error) importer.Errors {
	t.Helper()
	var es importer.Errors
	if !errors.As(err, &es) {
		t.Fatalf("error %v (%T) is not importer.Errors", err, err)
	}
	return es
}

// totals adds up the content of documents.
type totals struct {
	docs, summaries, sentences, keyFacts, gold, ambiguity, turns int
}

func count(docs []domain.DocumentInput) totals {
	var n totals
	add := func(g *domain.GoldInput) {
		if g == nil {
			return
		}
		if g.Label != "" {
			n.gold++
		}
		if g.Ambiguous != nil {
			n.ambiguity++
		}
	}
	for _, d := range docs {
		n.docs++
		n.keyFacts += len(d.KeyFacts)
		n.turns += len(d.Turns)
		for _, s := range d.Summaries {
			n.summaries++
			n.sentences += len(s.Sentences)
			add(s.Gold)
			for _, sent := range s.Sentences {
				add(sent.Gold)
			}
		}
	}
	return n
}

// sharedData returns the shared data directory, skipping the test when it
// is absent: the project must not depend on it.
func sharedData(t *testing.T) string {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "shared", "data")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared data not available: %v", err)
	}
	return dir
}

// checkResolved asserts the promises Result.Documents makes.
func checkResolved(t *testing.T, docs []domain.DocumentInput) {
	t.Helper()
	ids := map[string]bool{}
	for _, d := range docs {
		switch d.Kind {
		case domain.KindProse:
			if len(d.Sentences) == 0 {
				t.Errorf("prose document %s has no sentences", d.ExternalID)
			}
		case domain.KindDialogue:
			if len(d.Turns) == 0 {
				t.Errorf("dialogue document %s has no turns", d.ExternalID)
			}
		default:
			t.Errorf("document %s has kind %q", d.ExternalID, d.Kind)
		}
		for _, s := range d.Summaries {
			if ids[s.ExternalID] {
				t.Errorf("summary id %s repeats", s.ExternalID)
			}
			ids[s.ExternalID] = true
			if len(s.Sentences) == 0 {
				t.Errorf("summary %s has no sentences", s.ExternalID)
			}
			for _, sent := range s.Sentences {
				if sent.Gold != nil && sent.Gold.AmbiguityType != "" {
					if _, ok := domain.AmbiguityType(sent.Gold.AmbiguityType); !ok {
						t.Errorf("summary %s: ambiguity type %q is not a code", s.ExternalID, sent.Gold.AmbiguityType)
					}
				}
			}
		}
	}
}
