package assist

import (
	"context"
	"fmt"
)

type keyFactsAnswer struct {
	Matches []KeyFactMatch `json:"matches"`
}

func keyFactsSchema(it Item) *Schema {
	ids := make([]string, len(it.KeyFacts))
	for i, k := range it.KeyFacts {
		ids[i] = k.ID
	}
	match := Object(
		Prop("id", Enum("the key fact's id", ids...)),
		Prop("reason", String("why the sentence contains this key fact")),
	)
	return Object(Prop("matches", Array("the key facts the sentence contains", match, 0, len(ids))))
}

// suggestKeyFacts asks which of the item's key facts the sentence contains,
// for the annotator to accept or override (MSumBench's key-fact alignment).
func (c *Client) suggestKeyFacts(ctx context.Context, m *meter, it Item, sd seeder, res *SentenceResult) error {
	res.KeyFacts = []KeyFactMatch{}
	if len(it.KeyFacts) == 0 {
		return nil
	}
	d := newPromptData(it)
	d.HideGuidelines = true
	var a keyFactsAnswer
	q := Question{
		Name:   "key_facts",
		System: render("system_keyfacts", d),
		User:   render("user_keyfacts", d),
		Schema: keyFactsSchema(it),
		Seed:   sd.requestSeed("key_facts"),
	}
	if err := c.ask(ctx, m, q, &a); err != nil {
		return fmt.Errorf("key facts: %w", err)
	}
	seen := map[string]bool{}
	for _, k := range a.Matches {
		if !seen[k.ID] {
			seen[k.ID] = true
			res.KeyFacts = append(res.KeyFacts, k)
		}
	}
	return nil
}
