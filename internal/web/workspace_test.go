package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"annotate/internal/domain"
)

// workFixture is a project with one document, two summaries and a
// production round giving both summaries to annotators ann and bob.
type workFixture struct {
	*fixture
	project   *domain.Project
	assign    map[string][]domain.Assignment // by username, in queue order
	sentences map[int64][]int64              // summary id -> sentence ids
}

func newWorkFixture(t *testing.T) *workFixture {
	f := newFixture(t)
	lead := f.user("lea", false)
	ann := f.user("ann", false)
	bob := f.user("bob", false)
	f.user("eve", false) // a member of nothing
	p := f.project("alpha", map[*domain.User]string{lead: domain.RoleLead, ann: domain.RoleAnnotator, bob: domain.RoleAnnotator})
	doc := domain.DocumentInput{
		ExternalID: "doc-1", Kind: domain.KindDialogue,
		Turns:    []domain.TurnInput{{Speaker: "Speaker 1", Text: "The council approved the park budget."}, {Speaker: "Speaker 2", Text: "The vote was five to two."}},
		KeyFacts: []domain.KeyFactInput{{Topic: "Parks", Text: "The park budget was approved."}},
	}
	for i := 1; i <= 2; i++ {
		doc.Summaries = append(doc.Summaries, domain.SummaryInput{ExternalID: fmt.Sprintf("s%d", i), Topic: "Parks", Model: "secret-model-name",
			Sentences: []domain.SentenceInput{{Text: "The council approved the budget."}, {Text: "The vote was unanimous <script>alert(1)</script>."}}})
	}
	if _, err := f.store.Import(f.ctx, p.ID, []domain.DocumentInput{doc}); err != nil {
		t.Fatal(err)
	}
	sums := must(f.store.SummaryIDs(f.ctx, p.ID, nil))(t)
	if _, err := f.store.CreateRound(f.ctx, p.ID, domain.RoundSpec{Name: "r1", Kind: domain.RoundProduction, PerItem: 2, Annotators: []int64{ann.ID, bob.ID}, Summaries: sums}); err != nil {
		t.Fatal(err)
	}
	w := &workFixture{fixture: f, project: p, assign: map[string][]domain.Assignment{}, sentences: map[int64][]int64{}}
	for name, u := range map[string]*domain.User{"ann": ann, "bob": bob} {
		q, err := f.store.Queue(f.ctx, p.ID, u.ID)
		if err != nil || len(q) != 2 {
			t.Fatalf("queue of %s: %v %v", name, q, err)
		}
		w.assign[name] = q
	}
	for _, sid := range sums {
		s := must(f.store.Summary(f.ctx, sid))(t)
		for _, x := range s.Sentences {
			w.sentences[sid] = append(w.sentences[sid], x.ID)
		}
	}
	return w
}

var versionField = regexp.MustCompile(`id="version" name="version" value="(\d+)"`)

// save posts a sentence label as htmx would and returns the response.
func (b *browser) save(a domain.Assignment, sentence int64, version string, form url.Values) page {
	tok := b.csrf(fmt.Sprintf("/a/%d", a.ID))
	form.Set("version", version)
	req, _ := http.NewRequest(http.MethodPost, fmt.Sprintf("%s/a/%d/s/%d", b.f.srv.URL, a.ID, sentence), strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-CSRF-Token", tok)
	req.Header.Set("HX-Request", "true")
	return b.do(req)
}

func TestWorkspaceAuthorization(t *testing.T) {
	w := newWorkFixture(t)
	annA := w.assign["ann"][0]
	cases := []struct {
		user   string
		status int
	}{
		{"ann", http.StatusOK},
		{"bob", http.StatusNotFound},
		{"eve", http.StatusNotFound},
		{"lea", http.StatusOK},
	}
	for _, tc := range cases {
		t.Run(tc.user+" opens ann's assignment", func(t *testing.T) {
			b := w.browser()
			b.login(tc.user, testPassword)
			p := b.get(fmt.Sprintf("/a/%d", annA.ID))
			if p.status != tc.status {
				t.Fatalf("status %d, want %d", p.status, tc.status)
			}
			if p.status == http.StatusOK {
				p.textIn(t, tid("summary"), "The council")
			}
			// The model name is nowhere in the response, markup included.
			if strings.Contains(p.body, "secret-model-name") {
				t.Fatal("the page shows the model name")
			}
		})
	}
	t.Run("bob cannot write into ann's assignment", func(t *testing.T) {
		b := w.browser()
		b.login("bob", testPassword)
		tok := b.csrf("/projects")
		req, _ := http.NewRequest(http.MethodPost, fmt.Sprintf("%s/a/%d/s/%d", w.srv.URL, annA.ID, w.sentences[annA.SummaryID][0]), strings.NewReader("label=faithful&version=0"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-CSRF-Token", tok)
		if p := b.do(req); p.status != http.StatusNotFound {
			t.Fatalf("status %d, want 404", p.status)
		}
	})
	t.Run("the lead reads but cannot write", func(t *testing.T) {
		b := w.browser()
		b.login("lea", testPassword)
		p := b.get(fmt.Sprintf("/a/%d", annA.ID))
		p.mustFind(t, `#workspace[data-readonly="true"]`)
		p.noneIn(t, "#workspace", tid("submit")+", #submit-button")
		p.mustFind(t, fmt.Sprintf(`#workspace a[href="/p/alpha/summaries/%d/split"]`, annA.SummaryID)+tid("split-link"))
		own := w.browser()
		own.login("ann", testPassword)
		mine := own.get(fmt.Sprintf("/a/%d", annA.ID))
		mine.mustFind(t, `#workspace[data-readonly="false"] `+tid("submit"))
		mine.noneIn(t, "#workspace", tid("split-link")+`, a[href$="/split"]`)
		if p := b.save(annA, w.sentences[annA.SummaryID][0], "0", url.Values{"label": {"faithful"}}); p.status != http.StatusForbidden {
			t.Fatalf("lead save: status %d, want 403", p.status)
		}
	})
	t.Run("markup in a sentence is shown as text", func(t *testing.T) {
		b := w.browser()
		b.login("ann", testPassword)
		p := b.get(fmt.Sprintf("/a/%d", annA.ID))
		// The markup is text of the summary, not an element of the page.
		p.textIn(t, tid("summary"), "<script>alert(1)</script>")
		p.noneIn(t, "#workspace", "script")
		if strings.Contains(p.body, "<script>alert(1)</script>") {
			t.Fatal("sentence markup is not escaped")
		}
	})
}

func TestWorkspaceSaveConflictAndSubmit(t *testing.T) {
	w := newWorkFixture(t)
	a := w.assign["ann"][0]
	sents := w.sentences[a.SummaryID]
	b := w.browser()
	b.login("ann", testPassword)

	p := b.save(a, sents[0], "0", url.Values{"label": {"faithful"}, "ambiguous": {"no"}})
	if p.status != http.StatusOK || !strings.Contains(p.body, "Saved at") {
		t.Fatalf("save: %d %s", p.status, p.body)
	}
	m := versionField.FindStringSubmatch(p.body)
	if m == nil || m[1] != "1" {
		t.Fatalf("no new version in the response: %s", p.body)
	}
	if p.find(t, `[hx-swap-oob="true"][id^="assist-"]`).Length() != 1 {
		t.Fatal("the first label did not reveal the assistant (mode after_first_label)")
	}
	// The answer is the fragments the save changes, not a page: every
	// top-level element is swapped out of band, and there is one panel.
	top := p.mustFind(t, "body > *")
	if n := top.Not(`[hx-swap-oob="true"]`).Length(); n != 0 || strings.Contains(p.body, "<html") ||
		p.find(t, "#doc-units, #workspace").Length() != 0 || p.find(t, `[id^="assist-"]`).Length() != 1 {
		t.Fatalf("the save's answer is more than its fragments: %s", p.body)
	}

	t.Run("a second tab with the old version is refused", func(t *testing.T) {
		p := b.save(a, sents[0], "0", url.Values{"label": {"unfaithful"}, "explanation": {"typed in the old tab"}})
		if p.status != http.StatusConflict || !strings.Contains(p.body, "another tab") {
			t.Fatalf("stale save: %d %s", p.status, p.body)
		}
		// The form comes back holding the saved label, beside a reload offer.
		form := p.mustFind(t, `form[id^="form-"][hx-swap-oob="true"]`)
		if form.Find(`input[name="label"][value="faithful"][checked]`).Length() != 1 {
			t.Fatalf("conflict answer does not put the saved label back: %s", p.body)
		}
		if strings.Contains(visible(form), "typed in the old tab") {
			t.Fatalf("conflict answer keeps the stale explanation: %s", p.body)
		}
		p.mustFind(t, tid("reload"))
	})
	t.Run("invalid value", func(t *testing.T) {
		p := b.save(a, sents[1], "1", url.Values{"label": {"perhaps"}})
		if p.status != http.StatusUnprocessableEntity {
			t.Fatalf("status %d", p.status)
		}
	})
	t.Run("submit says what is missing", func(t *testing.T) {
		p := b.save(a, sents[1], "1", url.Values{"label": {"unfaithful"}})
		if p.status != http.StatusOK {
			t.Fatalf("save: %d", p.status)
		}
		tok := b.csrf(fmt.Sprintf("/a/%d", a.ID))
		p = b.post(fmt.Sprintf("/a/%d/submit", a.ID), url.Values{"_csrf": {tok}})
		back := fmt.Sprintf("/a/%d?incomplete=1", a.ID)
		if p.status != http.StatusSeeOther || p.header.Get("Location") != back {
			t.Fatalf("refused submit: %d to %q, want 303 to %s", p.status, p.header.Get("Location"), back)
		}
		// Reading the page again (a reload) lists what is missing and
		// submits nothing.
		p = b.get(back)
		if p.status != http.StatusOK || !p.testID("missing") {
			t.Fatalf("page after a refused submit: %d", p.status)
		}
		got := texts(p.mustFind(t, tid("missing")+" li"))
		for _, want := range []string{"Sentence 2: error type", "Sentence 2: explanation", "Summary: relevance to the topic"} {
			if !slices.Contains(got, want) {
				t.Errorf("missing list %q lacks %q", got, want)
			}
		}
	})
	t.Run("complete, submit and move on", func(t *testing.T) {
		p := b.save(a, sents[1], "2", url.Values{"label": {"unfaithful"}, "error_types": {"extrinsic_information"}, "explanation": {"No vote count is given."}})
		if p.status != http.StatusOK {
			t.Fatalf("save: %d %s", p.status, p.body)
		}
		tok := b.csrf(fmt.Sprintf("/a/%d", a.ID))
		req, _ := http.NewRequest(http.MethodPost, fmt.Sprintf("%s/a/%d/summary", w.srv.URL, a.ID), strings.NewReader(url.Values{"version": {"3"}, "relevance": {"4"}, "topic_category": {"main"}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-CSRF-Token", tok)
		if p := b.do(req); p.status != http.StatusOK {
			t.Fatalf("summary label: %d %s", p.status, p.body)
		}
		p = b.post(fmt.Sprintf("/a/%d/submit", a.ID), url.Values{"_csrf": {tok}})
		next := fmt.Sprintf("/a/%d", w.assign["ann"][1].ID)
		if p.status != http.StatusSeeOther || p.header.Get("Location") != next {
			t.Fatalf("submit: %d to %q, want 303 to %s", p.status, p.header.Get("Location"), next)
		}
		q := must(w.store.Queue(w.ctx, w.project.ID, a.UserID))(t)
		if q[0].Status != domain.StatusSubmitted {
			t.Fatalf("status after submit: %s", q[0].Status)
		}
	})
	t.Run("reload shows the saved labels", func(t *testing.T) {
		p := b.get(fmt.Sprintf("/a/%d", a.ID))
		if !strings.Contains(visible(p.mustFind(t, "#workspace")), "No vote count is given.") {
			t.Error("the saved explanation is not shown after reload")
		}
		mark := p.mustFind(t, "#workspace "+tid("mark-2"))
		if !mark.HasClass("mark-unfaithful") || textOf(mark) != "✗ unfaithful" {
			t.Errorf("mark of sentence 2 after reload: class %q, text %q", mark.AttrOr("class", ""), textOf(mark))
		}
	})
}
