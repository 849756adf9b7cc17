package assist

import (
	"context"
	"fmt"
)

// runSingle is the MSumBench protocol: an Advocate and a Skeptic argue
// independently (in parallel), then an Adjudicator checks both cases and
// gives a tentative label.
func (c *Client) runSingle(ctx context.Context, m *meter, it Item, sd seeder, res *SentenceResult) error {
	d := newPromptData(it)
	var adv, skep sideAnswer
	roles := []struct {
		role   string
		schema *Schema
		out    *sideAnswer
	}{
		{"advocate", advocateSchema(it), &adv},
		{"skeptic", skepticSchema(it), &skep},
	}
	err := parallel(ctx, len(roles), func(ctx context.Context, i int) error {
		r := roles[i]
		q := Question{
			Name:   "single_" + r.role,
			System: render("system_"+r.role, d),
			User:   render("user_"+r.role, d),
			Schema: r.schema,
			Seed:   sd.requestSeed("single", r.role),
		}
		if err := c.ask(ctx, m, q, r.out); err != nil {
			return fmt.Errorf("%s: %w", r.role, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	res.Advocate = &Side{Label: Faithful, Citations: dedupe(adv.Citations), Guidelines: dedupe(adv.Guidelines), Reason: adv.Reason}
	res.Skeptic = &Side{Label: Unfaithful, ErrorType: skep.ErrorType, Citations: dedupe(skep.Citations), Guidelines: dedupe(skep.Guidelines), Reason: skep.Reason}

	d.Advocate, d.Skeptic = res.Advocate, res.Skeptic
	var v verdictAnswer
	q := Question{
		Name:   "single_adjudicator",
		System: render("system_adjudicator", d),
		User:   render("user_adjudicator", d),
		Schema: adjudicatorSchema(it),
		Seed:   sd.requestSeed("single", "adjudicator"),
	}
	if err := c.ask(ctx, m, q, &v); err != nil {
		return fmt.Errorf("adjudicator: %w", err)
	}
	res.Adjudicator = &Verdict{
		Label:         v.Verdict.Label,
		ErrorType:     errorTypeFor(v.Verdict.Label, v.Verdict.ErrorType),
		Report:        v.Report,
		Citations:     dedupe(v.Citations),
		AdvocateHolds: v.AdvocateHolds,
		SkepticHolds:  v.SkepticHolds,
	}
	return nil
}
