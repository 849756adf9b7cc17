package web_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"annotate/internal/domain"

	"github.com/PuerkitoBio/goquery"
)

// feedbackFixture is a closed calibration round of the work fixture's two
// summaries, labelled by ann and bob, with gold on one sentence.
type feedbackFixture struct {
	*workFixture
	round    *domain.Round
	ann, bob int64
	path     string // ann's feedback page
}

// newFeedbackFixture labels the round: ann calls every sentence faithful;
// bob calls the second sentence of each summary unfaithful; gold on the
// first summary's second sentence agrees with bob. With open, the round is
// left open.
func newFeedbackFixture(t *testing.T, open bool) *feedbackFixture {
	t.Helper()
	w := newWorkFixture(t)
	ctx := w.ctx
	set := domain.DefaultSettings()
	set.ErrorTypes, set.Ambiguity, set.KeyFacts, set.Relevance, set.TopicCategory, set.UnsureNote = false, false, false, false, false, false
	if err := w.store.UpdateSettings(ctx, w.project.ID, set, ""); err != nil {
		t.Fatal(err)
	}
	f := &feedbackFixture{workFixture: w, ann: w.assign["ann"][0].UserID, bob: w.assign["bob"][0].UserID}
	sums := must(w.store.SummaryIDs(ctx, w.project.ID, nil))(t)
	r, err := w.store.CreateRound(ctx, w.project.ID, domain.RoundSpec{Name: "cal-1", Kind: domain.RoundCalibration, Annotators: []int64{f.ann, f.bob}, Summaries: sums})
	if err != nil {
		t.Fatal(err)
	}
	f.round = r
	labels := map[int64][]domain.SentenceLabel{
		f.ann: {{Label: domain.LabelFaithful}, {Label: domain.LabelFaithful}},
		f.bob: {{Label: domain.LabelFaithful}, {Label: domain.LabelUnfaithful, Explanation: "Bob says the vote was five to two."}},
	}
	for _, uid := range []int64{f.ann, f.bob} {
		q, err := w.store.QueueEntries(ctx, w.project.ID, uid)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range q {
			if a.RoundID != r.ID {
				continue
			}
			v := a.Version
			for i, sid := range w.sentences[a.SummaryID] {
				l := labels[uid][i]
				l.SentenceID = sid
				if v, err = w.store.SaveSentenceLabel(ctx, a.ID, uid, v, l); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.store.Submit(ctx, a.ID, uid); err != nil {
				t.Fatal(err)
			}
		}
	}
	target := w.sentences[sums[0]][1]
	version := must(w.store.GoldVersions(ctx, sums[0]))(t)
	lead := must(w.store.UserByName(ctx, "lea"))(t)
	if _, err := w.store.SetGold(ctx, w.project.ID, target, lead.ID, version[target], domain.GoldDecision{
		GoldValues: domain.GoldValues{Label: domain.LabelUnfaithful, Explanation: "The transcript gives five to two, not unanimous."}}); err != nil {
		t.Fatal(err)
	}
	if !open {
		if err := w.store.CloseRound(ctx, r.ID); err != nil {
			t.Fatal(err)
		}
	}
	f.path = fmt.Sprintf("/p/alpha/rounds/%d/feedback", r.ID)
	return f
}

func TestFeedbackPage(t *testing.T) {
	f := newFeedbackFixture(t, false)
	ann := f.browser()
	ann.login("ann", testPassword)
	p := ann.get(f.path)
	if p.status != http.StatusOK {
		t.Fatalf("status %d", p.status)
	}
	t.Run("others under pseudonyms", func(t *testing.T) {
		p.textIn(t, tid("feedback"), "Bob says the vote was five to two.")
		for _, name := range texts(p.mustFind(t, tid("feedback")+" "+tid("other-label")+` th[scope="row"]`)) {
			if !strings.HasPrefix(name, "Annotator ") {
				t.Errorf("another annotator shown as %q, not under a pseudonym", name)
			}
		}
		p.absentIn(t, tid("feedback"), "bob")
	})
	t.Run("gold with its explanation", func(t *testing.T) {
		p.mustFind(t, tid("feedback")+" "+tid("gold-label"))
		p.textIn(t, tid("feedback"), "The transcript gives five to two, not unanimous.")
	})
	t.Run("agreement", func(t *testing.T) {
		// Four sentences, one pair each: ann and bob agree on two.
		if got := p.testText("agree-group"); got != "2 of 4 label pairs (50%)" {
			t.Errorf("group agreement %q", got)
		}
		// Gold: the lead's decision, which ann missed, and the two sentences
		// both annotators agreed on, resolved unanimous at submission.
		if got := p.testText("agree-gold"); got != "2 of 3 sentences with gold (67%)" {
			t.Errorf("gold agreement %q", got)
		}
	})
	t.Run("differing sentences first", func(t *testing.T) {
		items := p.mustFind(t, tid("feedback")+" "+tid("feedback-item"))
		if items.Length() != 4 {
			t.Fatalf("%d items, want 4", items.Length())
		}
		items.Each(func(i int, it *goquery.Selection) {
			if differs := it.Find(tid("differs")).Length() > 0; differs != (i < 2) {
				t.Errorf("item %d: differs %v", i+1, differs)
			}
		})
	})
	t.Run("the project page links it", func(t *testing.T) {
		ann.get("/p/alpha").mustFind(t, `#main a[href="`+f.path+`"]`)
	})
}

func TestFeedbackSettings(t *testing.T) {
	f := newFeedbackFixture(t, false)
	set := f.project.Settings
	p := must(f.store.ProjectBySlug(f.ctx, "alpha"))(t)
	set = p.Settings
	set.FeedbackGold, set.FeedbackNames = false, true
	if err := f.store.UpdateSettings(f.ctx, f.project.ID, set, ""); err != nil {
		t.Fatal(err)
	}
	ann := f.browser()
	ann.login("ann", testPassword)
	page := ann.get(f.path)
	// Gold is in no row, no figure and no text of the feedback.
	page.noneIn(t, tid("feedback"), tid("gold-label"))
	page.noneIn(t, tid("feedback-agreement"), tid("agree-gold"))
	page.absentIn(t, tid("feedback"), "not unanimous")
	if names := texts(page.mustFind(t, tid("feedback")+" "+tid("other-label")+` th[scope="row"]`)); !slices.Contains(names, "bob") {
		t.Errorf("bob is not named although the project shows names: %q", names)
	}
	// Without gold, only disagreement with bob orders the page: still two.
	if got := page.testText("differing"); got != "2 of 4" {
		t.Errorf("differing %q", got)
	}
}

func TestFeedbackAccess(t *testing.T) {
	open := newFeedbackFixture(t, true)
	ann := open.browser()
	ann.login("ann", testPassword)
	if p := ann.get(open.path); p.status != http.StatusForbidden || !strings.Contains(p.body, "opens when a lead closes the round") {
		t.Errorf("open round: status %d, want 403 saying why", p.status)
	}

	f := newFeedbackFixture(t, false)
	bob := f.browser()
	bob.login("bob", testPassword)
	if p := bob.get(fmt.Sprintf("%s?annotator=%d", f.path, f.ann)); p.status != http.StatusForbidden {
		t.Errorf("bob reading ann's feedback: %d, want 403", p.status)
	}
	lea := f.browser()
	lea.login("lea", testPassword)
	if p := lea.get(fmt.Sprintf("%s?annotator=%d", f.path, f.ann)); p.status != http.StatusOK || !p.testID("own-label") {
		t.Errorf("lead reading ann's feedback: %d", p.status)
	}
	rounds := must(f.store.Rounds(f.ctx, f.project.ID))(t)
	prod := fmt.Sprintf("/p/alpha/rounds/%d/feedback", rounds[0].ID) // r1, a production round
	if err := f.store.CloseRound(f.ctx, rounds[0].ID); err != nil {
		t.Fatal(err)
	}
	if p := ann.get(prod); p.status != http.StatusNotFound {
		t.Errorf("production round: %d, want 404", p.status)
	}
}
