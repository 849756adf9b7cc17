package assist

import (
	"errors"
	"fmt"
	"strings"

	"annotate/internal/domain"
)

// Unit is one numbered unit of a document: a sentence of prose or a turn of
// a dialogue. Units are numbered from 1 in the order given.
type Unit struct {
	Speaker string `json:"speaker,omitempty"`
	Text    string `json:"text"`
}

// KeyFact is a short atomic statement drawn from the document that a summary
// may or may not contain.
type KeyFact struct {
	ID       string `json:"id"`
	Text     string `json:"text"`
	Category string `json:"category,omitempty"`
}

// Item is what the assistant judges: one sentence of a summary, together with
// everything the prompts show about it. Items of the same document may share
// the DocUnits slice; nothing here modifies it.
type Item struct {
	// DocUnits is the document, cited by 1-based unit number.
	DocUnits []Unit
	// Summary holds all sentences of the summary, so the agents see context.
	Summary []string
	// Target is the 0-based index into Summary of the sentence being judged.
	Target int
	// Topic is the topic of a topic-focused summary, if any.
	Topic string
	// ErrorTypes is the project's error taxonomy; empty means the MSumBench
	// preset.
	ErrorTypes []domain.TaxonomyType
	// Guidelines is the numbered guideline list the agents cite; empty means
	// DefaultGuidelines.
	Guidelines []string
	// KeyFacts are the key facts of the document (and topic), for key-fact
	// suggestions.
	KeyFacts []KeyFact
}

// noneCode is the error-type and ambiguity-type answer meaning "nothing".
const noneCode = "none"

// Validate reports the first reason the item cannot be judged.
func (it Item) Validate() error {
	if len(it.DocUnits) == 0 {
		return errors.New("item: the document has no units")
	}
	for i, u := range it.DocUnits {
		if strings.TrimSpace(u.Text) == "" {
			return fmt.Errorf("item: document unit %d is empty", i+1)
		}
	}
	if len(it.Summary) == 0 {
		return errors.New("item: the summary has no sentences")
	}
	if it.Target < 0 || it.Target >= len(it.Summary) {
		return fmt.Errorf("item: target %d is outside the summary's %d sentences", it.Target, len(it.Summary))
	}
	if strings.TrimSpace(it.Summary[it.Target]) == "" {
		return fmt.Errorf("item: summary sentence %d is empty", it.Target+1)
	}
	seen := map[string]bool{}
	for _, t := range it.ErrorTypes {
		switch {
		case t.Code == "":
			return errors.New("item: an error type has no code")
		case t.Code == noneCode:
			return fmt.Errorf("item: error type code %q is reserved", noneCode)
		case seen[t.Code]:
			return fmt.Errorf("item: error type %q appears twice", t.Code)
		}
		seen[t.Code] = true
	}
	ids := map[string]bool{}
	for _, k := range it.KeyFacts {
		switch {
		case k.ID == "":
			return errors.New("item: a key fact has no id")
		case ids[k.ID]:
			return fmt.Errorf("item: key fact %q appears twice", k.ID)
		}
		ids[k.ID] = true
	}
	return nil
}

// errorTypes returns the taxonomy the prompts and schemas use.
func (it Item) errorTypes() []domain.TaxonomyType {
	if len(it.ErrorTypes) > 0 {
		return it.ErrorTypes
	}
	return domain.ErrorPresets["msumbench"]
}

// guidelines returns the numbered guideline list the prompts show.
func (it Item) guidelines() []string {
	if len(it.Guidelines) > 0 {
		return it.Guidelines
	}
	return DefaultGuidelines
}

// errorCodes lists the codes of the item's error taxonomy.
func (it Item) errorCodes() []string {
	types := it.errorTypes()
	codes := make([]string, len(types))
	for i, t := range types {
		codes[i] = t.Code
	}
	return codes
}
