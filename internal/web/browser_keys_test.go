package web_test

import (
	"fmt"
	"strings"
	"testing"

	"annotate/internal/domain"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserKeyboardReachesEveryField sets, with the keyboard alone, the
// fields that only a pointer could reach before: the ambiguity type (A on
// an ambiguous sentence), a key-fact chip (c, then the arrows move between
// facts and Space ticks) and relevance by its value (r, then a digit).
// Each lands in the store.
func TestBrowserKeyboardReachesEveryField(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ann := f.user("ann", false)
	p := f.project("keys", map[*domain.User]string{ann: domain.RoleAnnotator})
	doc := domain.DocumentInput{
		ExternalID: "d1", Sentences: []string{"The council approved the park budget.", "The vote was five to two."},
		KeyFacts: []domain.KeyFactInput{{Topic: "Parks", Text: "The budget was approved."}, {Topic: "Parks", Text: "The vote was five to two."}},
		Summaries: []domain.SummaryInput{{ExternalID: "s1", Topic: "Parks",
			Sentences: []domain.SentenceInput{{Text: "The council approved the budget."}, {Text: "The vote was close."}}}},
	}
	if _, err := f.store.Import(f.ctx, p.ID, []domain.DocumentInput{doc}); err != nil {
		t.Fatal(err)
	}
	sums := must(f.store.SummaryIDs(f.ctx, p.ID, nil))(t)
	if _, err := f.store.CreateRound(f.ctx, p.ID, domain.RoundSpec{Name: "r1", Kind: domain.RoundProduction, PerItem: 1, Annotators: []int64{ann.ID}, Summaries: sums}); err != nil {
		t.Fatal(err)
	}
	q := must(f.store.Queue(f.ctx, p.ID, ann.ID))(t)
	a := q[0]
	sum := must(f.store.Summary(f.ctx, a.SummaryID))(t)
	firstType := domain.AmbiguityTypes[0]

	ctx := newBrowser(t)
	err := chromedp.Do(ctx,
		chromedp.Navigate(fmt.Sprintf("%s/a/%d", f.srv.URL, a.ID)),
		chromedp.WaitVisible(css(`#username`)),
		chromedp.SendKeys(css(`#username`), "ann"),
		chromedp.SendKeys(css(`#password`), testPassword+"\n"),
		chromedp.WaitVisible(css(`#workspace`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	focused := func() string {
		s, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(e => (e.name || "") + ":" + (e.dataset.sentenceIndex || "") + ":" + (e.closest(".kf-row") ? e.closest(".kf-row").dataset.fact : ""))(document.activeElement)`))
		return s
	}
	saved := `document.getElementById("save-status").textContent.startsWith("Saved")`

	// a: "no", a again: "yes", then A goes to the empty type.
	keys(t, ctx, "f")
	keys(t, ctx, "a")
	keys(t, ctx, "a")
	waitJS(t, ctx, "ambiguous yes", `document.querySelector("input[name=ambiguous][value=yes]:checked") !== null`)
	keys(t, ctx, "A")
	if got := focused(); !strings.HasPrefix(got, "ambiguity_type:") {
		t.Fatalf("after a, a, A the focus is on %q, want the ambiguity type", got)
	}
	// The first letter of the first type's name chooses it.
	keys(t, ctx, strings.ToLower(firstType.Name[:1]))
	waitJS(t, ctx, "a type chosen", `document.activeElement.value !== ""`)
	chosen, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.value`))
	keys(t, ctx, kb.Escape)
	if got := focused(); strings.HasPrefix(got, "ambiguity_type:") {
		t.Fatalf("Esc left the focus on the type")
	}

	// c: the focused sentence's chip of the first fact; ArrowDown: the
	// second fact's; Space ticks it.
	keys(t, ctx, "c")
	first := focused()
	keys(t, ctx, kb.ArrowDown)
	second := focused()
	if !strings.HasPrefix(first, "on:0:") || !strings.HasPrefix(second, "on:0:") || first == second {
		t.Fatalf("c then ArrowDown went %q → %q, want sentence 1's chips of two facts", first, second)
	}
	keys(t, ctx, " ")
	keys(t, ctx, kb.Escape)

	// r, then 4: relevance 4.
	keys(t, ctx, "r")
	keys(t, ctx, "4")
	waitJS(t, ctx, "relevance 4 saved", `document.querySelector("input[name=relevance][value='4']").checked && `+saved)

	labels, err := f.store.SentenceLabels(f.ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	l := labels[sum.Sentences[0].ID]
	if l.Ambiguous == nil || !*l.Ambiguous || l.AmbiguityType != chosen || chosen == "" {
		t.Errorf("sentence 1 stored %+v, want ambiguous of type %q", l, chosen)
	}
	links, err := f.store.KeyFactLinks(f.ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(links) != 1 {
		t.Errorf("key-fact links %v, want sentence 1 with the second fact", links)
	}
	sl, err := f.store.SummaryLabelOf(f.ctx, a.ID)
	if err != nil || sl.Relevance != 4 {
		t.Errorf("summary label %+v, %v: want relevance 4", sl, err)
	}
}
