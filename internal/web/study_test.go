package web_test

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"annotate/internal/app"
	"annotate/internal/domain"
	"annotate/internal/studies"
)

// TestStudyByProlificLink: a participant opens a study's Prolific link
// on the real server, is logged in without a password, accepts consent,
// reads the instructions, starts, is sent to their first summary,
// submits each and ends on the completion code with Prolific's return
// link. The same link on another device finds the same participant; a
// second person declining consent gets the no-consent code and no work.
// An MTurk preview shows the instructions and makes nobody; a closed or
// mistyped link is not found.
func TestStudyByProlificLink(t *testing.T) {
	f := newFixture(t)
	lead := f.user("lea", false)
	p := f.project("crowd", map[*domain.User]string{lead: domain.RoleLead})
	var docs []domain.DocumentInput
	for i := 1; i <= 4; i++ {
		docs = append(docs, domain.DocumentInput{ExternalID: fmt.Sprintf("d%d", i), Sentences: []string{"The council met.", "It deferred the budget."},
			Summaries: []domain.SummaryInput{{ExternalID: fmt.Sprintf("s%d", i), Model: "secret-model-name", Sentences: []domain.SentenceInput{{Text: "The council deferred the budget."}}}}})
	}
	if _, err := f.store.Import(f.ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	ops := app.New(f.store)
	st, err := ops.CreateStudy(f.ctx, p, "pilot", []byte(`{"round":"crowd","conditions":["none","debate"],"k":2,"items_per_participant":2,"attention_rate":0,
		"consent":"**Consent.** You agree to label summaries.","completion":{"completed":"DONE42","no_consent":"NOPE7"}}`))
	if err != nil {
		t.Fatal(err)
	}
	entry := func(pid string) string {
		return "/s/" + st.EntryToken + "?" + url.Values{"PROLIFIC_PID": {pid}, "STUDY_ID": {"s1"}, "SESSION_ID": {"x" + pid}}.Encode()
	}
	follow := func(b *browser, path string) (string, page) {
		t.Helper()
		for range 5 {
			pg := b.get(path)
			if pg.status != http.StatusSeeOther {
				return path, pg
			}
			path = pg.header.Get("Location")
		}
		t.Fatalf("too many redirects from %s", path)
		return "", page{}
	}
	testID := func(pg page, id string) *goquery.Selection {
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(pg.body))
		if err != nil {
			t.Fatal(err)
		}
		return doc.Find(`[data-testid="` + id + `"]`)
	}

	alice := f.browser()
	at, pg := follow(alice, entry("alice"))
	if at != "/study" || testID(pg, "study-consent").Length() != 1 || !strings.Contains(pg.body, "<strong>Consent.</strong>") {
		t.Fatalf("entry went to %s:\n%s", at, pg.body)
	}
	tok := csrfField.FindStringSubmatch(pg.body)[1]
	if r := alice.post("/study", url.Values{"_csrf": {tok}, "answer": {"accept"}}); r.status != http.StatusSeeOther {
		t.Fatalf("accept: %d", r.status)
	}
	_, pg = follow(alice, "/study")
	if testID(pg, "study-instructions").Length() != 1 {
		t.Fatalf("after consent:\n%s", pg.body)
	}
	alice.post("/study", url.Values{"_csrf": {tok}, "answer": {"start"}})
	var done []string
	for range 3 {
		at, pg = follow(alice, "/study")
		if !strings.HasPrefix(at, "/a/") {
			break
		}
		if strings.Contains(pg.body, "secret-model-name") || strings.Contains(pg.body, "debate") && strings.Contains(pg.body, "condition") {
			t.Fatal("the labelling page tells the participant the model or the condition")
		}
		var id int64
		fmt.Sscanf(at, "/a/%d", &id)
		a, err := f.store.AssignmentByID(f.ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		sum := must(f.store.Summary(f.ctx, a.SummaryID))(t)
		no := false
		v, err := f.store.SaveSentenceLabel(f.ctx, a.ID, a.UserID, a.Version, domain.SentenceLabel{SentenceID: sum.Sentences[0].ID, Label: domain.LabelFaithful, Ambiguous: &no})
		if err != nil {
			t.Fatal(err)
		}
		f.store.SaveSummaryLabel(f.ctx, a.ID, a.UserID, v, domain.SummaryLabel{Relevance: 5, TopicCategory: "main"})
		r := alice.post(at+"/submit", url.Values{"_csrf": {tok}})
		if r.status != http.StatusSeeOther || r.header.Get("Location") != "/study" {
			t.Fatalf("submit %s: %d to %q", at, r.status, r.header.Get("Location"))
		}
		done = append(done, at)
	}
	if len(done) != 2 || testID(pg, "study-completed").Length() != 1 || testID(pg, "study-code").Text() != "DONE42" {
		t.Fatalf("after %v:\n%s", done, pg.body)
	}
	if href, _ := testID(pg, "study-return").Attr("href"); href != "https://app.prolific.com/submissions/complete?cc=DONE42" {
		t.Errorf("return link %q", href)
	}

	// A participant cannot make an API token.
	if r := alice.post("/account/tokens", url.Values{"_csrf": {tok}, "name": {"mine"}, "expires": {"30"}}); r.status != http.StatusForbidden {
		t.Errorf("a participant's token: %d", r.status)
	}

	// The same link on another device: the same participant, done.
	again := f.browser()
	if _, pg = follow(again, entry("alice")); testID(pg, "study-code").Text() != "DONE42" {
		t.Fatalf("alice on another device:\n%s", pg.body)
	}

	bob := f.browser()
	_, pg = follow(bob, entry("bob"))
	tok = csrfField.FindStringSubmatch(pg.body)[1]
	bob.post("/study", url.Values{"_csrf": {tok}, "answer": {"decline"}})
	if _, pg = follow(bob, "/study"); testID(pg, "study-code").Text() != "NOPE7" {
		t.Fatalf("bob declined:\n%s", pg.body)
	}

	preview := f.browser()
	pg = preview.get("/s/" + st.EntryToken + "?assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId=H1")
	if pg.status != http.StatusOK || testID(pg, "study-preview").Length() != 1 {
		t.Fatalf("preview: %d\n%s", pg.status, pg.body)
	}
	ps := must(ops.Studies().Participants(f.ctx, st.ID))(t)
	if len(ps) != 2 {
		t.Fatalf("%d participants, want alice and bob", len(ps))
	}
	if pg := preview.get("/s/not-the-token?pid=x"); pg.status != http.StatusNotFound {
		t.Fatalf("a mistyped link: %d", pg.status)
	}
	if pg := preview.get("/s/" + st.EntryToken + "?pid=a%20b"); pg.status != http.StatusUnprocessableEntity && pg.status != http.StatusBadRequest {
		t.Fatalf("a malformed id: %d", pg.status)
	}
	// A lead is no participant; the study's page names participants by
	// number, never by their platform id.
	lb := f.browser()
	lb.login("lea", testPassword)
	if pg := lb.get("/study"); pg.status != http.StatusNotFound {
		t.Fatalf("a lead's /study: %d", pg.status)
	}
	pg = lb.get("/p/crowd/studies/pilot")
	if pg.status != http.StatusOK || strings.Contains(pg.body, "alice") || strings.Contains(pg.body, "bob") {
		t.Fatalf("the study page: %d\n%s", pg.status, pg.body)
	}
	rows := testID(pg, "participants").Find("tbody tr")
	if rows.Length() != 2 || !strings.Contains(rows.First().Text(), "Participant 1") || !strings.Contains(rows.First().Text(), "2 of 2") {
		t.Errorf("participants: %q", rows.Text())
	}
	if got := strings.Join(strings.Fields(testID(pg, "study-counts").Text()), " "); !strings.Contains(got, "completed: 1") || !strings.Contains(got, "declined consent: 1") {
		t.Errorf("counts %q", got)
	}
	// The lead excludes participant 1 by hand, with the reason shown, then
	// includes them again.
	ltok := csrfField.FindStringSubmatch(pg.body)[1]
	if r := lb.post("/p/crowd/studies/pilot/participants/1", url.Values{"_csrf": {ltok}, "decision": {"exclude"}, "reason": {"Same answers as another."}}); r.status != http.StatusSeeOther {
		t.Fatalf("exclude: %d %s", r.status, r.body)
	}
	pg = lb.get("/p/crowd/studies/pilot")
	if !strings.Contains(testID(pg, "participants").Find("tbody tr").First().Text(), "by hand: Same answers as another.") {
		t.Errorf("the excluded row: %q", testID(pg, "participants").Find("tbody tr").First().Text())
	}
	if r := lb.post("/p/crowd/studies/pilot/participants/1", url.Values{"_csrf": {ltok}, "decision": {"include"}, "reason": {""}}); r.status != http.StatusUnprocessableEntity {
		t.Fatalf("include without a reason: %d", r.status)
	}
	if r := lb.post("/p/crowd/studies/pilot/participants/1", url.Values{"_csrf": {ltok}, "decision": {"include"}, "reason": {"Checked: independent work."}}); r.status != http.StatusSeeOther {
		t.Fatalf("include: %d", r.status)
	}
}

// TestStudyConditionsShapeThePage: on the demo project (whose sample run
// holds whole debates), three participants of a study with the
// conditions none, verdict and debate each get one (one block of the
// participant randomisation), and their labelling pages show: no
// assistant at all; the Adjudicator alone, the Advocate's and Skeptic's
// words absent from the page; the whole debate. A label saved records
// whether the assistant was visible as the condition had it.
func TestStudyConditionsShapeThePage(t *testing.T) {
	f := newFixture(t)
	ops := app.New(f.store)
	if err := ops.SetupDemo(f.ctx, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	p, err := f.store.ProjectBySlug(f.ctx, app.DemoSlug)
	if err != nil {
		t.Fatal(err)
	}
	st, err := ops.CreateStudy(f.ctx, p, "conditions", []byte(`{"round":"crowd","conditions":["none","verdict","debate"],"k":3,"items_per_participant":1,"attention_rate":0}`))
	if err != nil {
		t.Fatal(err)
	}
	pages := map[string]string{}
	for _, pid := range []string{"p1", "p2", "p3"} {
		b := f.browser()
		pg := b.get("/s/" + st.EntryToken + "?pid=" + pid)
		if pg.status != http.StatusSeeOther {
			t.Fatalf("entry %s: %d", pid, pg.status)
		}
		tok := csrfField.FindStringSubmatch(b.get("/study").body)[1]
		if r := b.post("/study", url.Values{"_csrf": {tok}, "answer": {"start"}}); r.status != http.StatusSeeOther {
			t.Fatalf("start: %d", r.status)
		}
		to := b.get("/study").header.Get("Location")
		if !strings.HasPrefix(to, "/a/") {
			t.Fatalf("%s was sent to %q", pid, to)
		}
		part, err := ops.Studies().Participants(f.ctx, st.ID)
		if err != nil {
			t.Fatal(err)
		}
		cond := part[len(part)-1].Condition
		if _, dup := pages[cond]; dup {
			t.Fatalf("condition %s twice in the first block", cond)
		}
		pg = b.get(to)
		if pg.status != http.StatusOK {
			t.Fatalf("%s's page: %d", pid, pg.status)
		}
		pages[cond] = pg.body
	}
	has := func(body, id string) bool {
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		return doc.Find(`[data-testid^="`+id+`"]`).Length() > 0
	}
	if has(pages["none"], "verdict-") || has(pages["none"], "assist-") {
		t.Error("the none condition shows the assistant")
	}
	if !has(pages["verdict"], "verdict-Adjudicator") || has(pages["verdict"], "verdict-Advocate") || has(pages["verdict"], "verdict-Skeptic") ||
		strings.Contains(pages["verdict"], ">Advocate<") {
		t.Error("the verdict condition does not show the Adjudicator alone")
	}
	if !has(pages["debate"], "verdict-Advocate") || !has(pages["debate"], "verdict-Skeptic") || !has(pages["debate"], "verdict-Adjudicator") {
		t.Error("the debate condition does not show the whole debate")
	}
}

// TestStudyEntryIsRateLimited: one address gets a burst of entries, then
// 429 with Retry-After; the ids it tried beyond the burst make nobody.
func TestStudyEntryIsRateLimited(t *testing.T) {
	f := newFixture(t)
	lead := f.user("lea", false)
	p := f.project("crowd", map[*domain.User]string{lead: domain.RoleLead})
	if _, err := f.store.Import(f.ctx, p.ID, []domain.DocumentInput{{ExternalID: "d1", Sentences: []string{"A."},
		Summaries: []domain.SummaryInput{{ExternalID: "s1", Sentences: []domain.SentenceInput{{Text: "A."}}}}}}); err != nil {
		t.Fatal(err)
	}
	ops := app.New(f.store)
	st, err := ops.CreateStudy(f.ctx, p, "pilot", []byte(`{"round":"crowd","attention_rate":0}`))
	if err != nil {
		t.Fatal(err)
	}
	b := f.browser()
	limited := 0
	for i := range 40 {
		pg := b.get(fmt.Sprintf("/s/%s?pid=p%d", st.EntryToken, i))
		switch pg.status {
		case http.StatusSeeOther:
		case http.StatusTooManyRequests:
			if pg.header.Get("Retry-After") == "" {
				t.Fatal("429 without Retry-After")
			}
			limited++
		default:
			t.Fatalf("entry %d: %d", i, pg.status)
		}
	}
	ps := must(ops.Studies().Participants(f.ctx, st.ID))(t)
	if limited < 5 || len(ps)+limited != 40 {
		t.Fatalf("%d entries refused, %d participants made", limited, len(ps))
	}
}

// TestStudiesPageMakesAStudy: a lead makes a study on the Studies page; a
// bad definition comes back with its fields named and nothing made.
func TestStudiesPageMakesAStudy(t *testing.T) {
	f := newFixture(t)
	lead := f.user("lea", false)
	p := f.project("crowd", map[*domain.User]string{lead: domain.RoleLead})
	if _, err := f.store.Import(f.ctx, p.ID, []domain.DocumentInput{{ExternalID: "d1", Sentences: []string{"A."},
		Summaries: []domain.SummaryInput{{ExternalID: "s1", Sentences: []domain.SentenceInput{{Text: "A."}}}}}}); err != nil {
		t.Fatal(err)
	}
	b := f.browser()
	b.login("lea", testPassword)
	tok := b.csrf("/p/crowd/studies")
	pg := b.post("/p/crowd/studies", url.Values{"_csrf": {tok}, "name": {"pilot"}, "definition": {`{"round":"crowd","k":99,"conditions":["none","hints"]}`}})
	if pg.status != http.StatusUnprocessableEntity || !strings.Contains(pg.body, "k: 99 is not between 1 and 50") || !strings.Contains(pg.body, "&#34;hints&#34;") {
		t.Fatalf("a bad definition: %d\n%s", pg.status, pg.body)
	}
	// The refused definition comes back; the planning form below keeps its
	// example, as on a fresh page.
	if plan := pg.mustFind(t, "#plan-json").Text(); !strings.Contains(plan, `"follow_when_visible"`) {
		t.Fatalf("the planning form after a refused definition holds %q", plan)
	}
	if list, _ := app.New(f.store).Studies().List(f.ctx, p.ID); len(list) != 0 {
		t.Fatal("a refused study was made")
	}
	pg = b.post("/p/crowd/studies", url.Values{"_csrf": {tok}, "name": {"pilot"}, "definition": {`{"round":"crowd","conditions":["none","debate"],"attention_rate":0,"time_limit":"30m"}`}})
	if pg.status != http.StatusSeeOther || pg.header.Get("Location") != "/p/crowd/studies/pilot" {
		t.Fatalf("make: %d %q", pg.status, pg.header.Get("Location"))
	}
	pg = b.get("/p/crowd/studies/pilot")
	if pg.status != http.StatusOK || !strings.Contains(pg.body, "--public-url") {
		t.Fatalf("the study's page: %d\n%s", pg.status, pg.body)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(pg.body))
	if err != nil {
		t.Fatal(err)
	}
	if limit := doc.Find(`[data-testid="study-time-limit"]`).Text(); !strings.HasPrefix(limit, "30m0s per participant") {
		t.Fatalf("the study's time limit reads %q", limit)
	}
	if pg := b.get("/p/crowd/studies"); !strings.Contains(pg.body, `href="/p/crowd/studies/pilot"`) {
		t.Fatalf("the list:\n%s", pg.body)
	}
	// Close entry, then a new link: the old token leads nowhere.
	ops := app.New(f.store)
	before := must(ops.Studies().ByName(f.ctx, p.ID, "pilot"))(t)
	for _, action := range []string{"close", "new-link", "open"} {
		if r := b.post("/p/crowd/studies/pilot/entry", url.Values{"_csrf": {tok}, "entry": {action}}); r.status != http.StatusSeeOther {
			t.Fatalf("%s: %d", action, r.status)
		}
	}
	after := must(ops.Studies().ByName(f.ctx, p.ID, "pilot"))(t)
	if after.EntryToken == before.EntryToken || !after.Open {
		t.Fatalf("after close, new-link and open: %+v", after)
	}
	if pg := f.browser().get("/s/" + before.EntryToken + "?pid=x"); pg.status != http.StatusNotFound {
		t.Fatalf("the old link: %d", pg.status)
	}
}

// TestStudySurvey: after their last item a participant gets the exit
// survey; a required question left empty or a scale answer out of range
// comes back named, with what they wrote kept; a good one ends the study
// with the code, and `Answers` gives it by participant number.
func TestStudySurvey(t *testing.T) {
	f := newFixture(t)
	lead := f.user("lea", false)
	p := f.project("crowd", map[*domain.User]string{lead: domain.RoleLead})
	if _, err := f.store.Import(f.ctx, p.ID, []domain.DocumentInput{{ExternalID: "d1", Sentences: []string{"A."},
		Summaries: []domain.SummaryInput{{ExternalID: "s1", Sentences: []domain.SentenceInput{{Text: "A."}}}}}}); err != nil {
		t.Fatal(err)
	}
	ops := app.New(f.store)
	st, err := ops.CreateStudy(f.ctx, p, "pilot", []byte(`{"round":"crowd","attention_rate":0,"items_per_participant":1,"completion":{"completed":"DONE9"},
		"survey":[{"name":"help","text":"How much did the assistant help?","kind":"scale","min":1,"max":5,"required":true},
		{"name":"notes","text":"Anything else?","kind":"text"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	b := f.browser()
	b.get("/s/" + st.EntryToken + "?pid=p1")
	tok := csrfField.FindStringSubmatch(b.get("/study").body)[1]
	b.post("/study", url.Values{"_csrf": {tok}, "answer": {"start"}})
	at := b.get("/study").header.Get("Location")
	var id int64
	fmt.Sscanf(at, "/a/%d", &id)
	a, err := f.store.AssignmentByID(f.ctx, id)
	if err != nil {
		t.Fatalf("no item at %q: %v", at, err)
	}
	sum := must(f.store.Summary(f.ctx, a.SummaryID))(t)
	no := false
	v := must(f.store.SaveSentenceLabel(f.ctx, a.ID, a.UserID, a.Version, domain.SentenceLabel{SentenceID: sum.Sentences[0].ID, Label: domain.LabelFaithful, Ambiguous: &no}))(t)
	f.store.SaveSummaryLabel(f.ctx, a.ID, a.UserID, v, domain.SummaryLabel{Relevance: 5, TopicCategory: "main"})
	if r := b.post(at+"/submit", url.Values{"_csrf": {tok}}); r.header.Get("Location") != "/study" {
		t.Fatalf("submit: %d %q", r.status, r.header.Get("Location"))
	}
	pg := b.get("/study")
	if !strings.Contains(pg.body, `data-testid="study-survey"`) || !strings.Contains(pg.body, "How much did the assistant help?") {
		t.Fatalf("no survey:\n%s", pg.body)
	}
	pg = b.post("/study", url.Values{"_csrf": {tok}, "answer": {"survey"}, "q-help": {"9"}, "q-notes": {"The debate was long."}})
	if pg.status != http.StatusUnprocessableEntity || !strings.Contains(pg.body, "choose a whole number from 1 to 5") || !strings.Contains(pg.body, "The debate was long.") {
		t.Fatalf("a scale answer out of range: %d\n%s", pg.status, pg.body)
	}
	pg = b.post("/study", url.Values{"_csrf": {tok}, "answer": {"survey"}, "q-notes": {"x"}})
	if pg.status != http.StatusUnprocessableEntity || !strings.Contains(pg.body, "an answer is needed") {
		t.Fatalf("a required question left empty: %d", pg.status)
	}
	if r := b.post("/study", url.Values{"_csrf": {tok}, "answer": {"survey"}, "q-help": {"4"}, "q-notes": {"The debate was long."}}); r.status != http.StatusSeeOther {
		t.Fatalf("a good survey: %d %s", r.status, r.body)
	}
	if pg := b.get("/study"); !strings.Contains(pg.body, "DONE9") {
		t.Fatalf("no code after the survey:\n%s", pg.body)
	}
	answers, err := ops.Studies().Answers(f.ctx, st.ID)
	if err != nil || len(answers) != 2 || answers[0] != (studies.Answer{Participant: 1, Question: "help", Answer: "4"}) {
		t.Fatalf("answers %+v %v", answers, err)
	}
}

// TestStudyTrainingPage: after a training item is submitted the
// participant's page shows their label beside the expected one and why,
// and Next moves on to their item.
func TestStudyTrainingPage(t *testing.T) {
	f := newFixture(t)
	lead := f.user("lea", false)
	p := f.project("crowd", map[*domain.User]string{lead: domain.RoleLead})
	var docs []domain.DocumentInput
	for i := 1; i <= 2; i++ {
		sent := domain.SentenceInput{Text: fmt.Sprintf("Sentence %d.", i)}
		if i == 2 {
			sent.Gold = &domain.GoldInput{Label: domain.LabelUnfaithful, ErrorTypes: []string{"contradiction"}, Explanation: "The source says the opposite."}
		}
		docs = append(docs, domain.DocumentInput{ExternalID: fmt.Sprintf("d%d", i), Sentences: []string{"A source."},
			Summaries: []domain.SummaryInput{{ExternalID: fmt.Sprintf("s%d", i), Sentences: []domain.SentenceInput{sent}}}})
	}
	if _, err := f.store.Import(f.ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	ops := app.New(f.store)
	st, err := ops.CreateStudy(f.ctx, p, "pilot", []byte(`{"round":"crowd","attention_rate":0,"items_per_participant":1,"training":{"items":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	b := f.browser()
	b.get("/s/" + st.EntryToken + "?pid=p1")
	tok := csrfField.FindStringSubmatch(b.get("/study").body)[1]
	b.post("/study", url.Values{"_csrf": {tok}, "answer": {"start"}})
	label := func() int64 {
		t.Helper()
		at := b.get("/study").header.Get("Location")
		var id int64
		fmt.Sscanf(at, "/a/%d", &id)
		a, err := f.store.AssignmentByID(f.ctx, id)
		if err != nil {
			t.Fatalf("no summary to label at %q: %v", at, err)
		}
		sum := must(f.store.Summary(f.ctx, a.SummaryID))(t)
		no := false
		v := must(f.store.SaveSentenceLabel(f.ctx, a.ID, a.UserID, a.Version, domain.SentenceLabel{SentenceID: sum.Sentences[0].ID, Label: domain.LabelFaithful, Ambiguous: &no}))(t)
		f.store.SaveSummaryLabel(f.ctx, a.ID, a.UserID, v, domain.SummaryLabel{Relevance: 5, TopicCategory: "main"})
		b.post(at+"/submit", url.Values{"_csrf": {tok}})
		return a.SummaryID
	}
	first := label()
	pg := b.get("/study")
	if pg.status != http.StatusOK || !strings.Contains(pg.body, `data-testid="training-feedback"`) || !strings.Contains(pg.body, "The source says the opposite.") {
		t.Fatalf("no feedback after the training item:\n%s", pg.body)
	}
	if r := b.post("/study", url.Values{"_csrf": {tok}, "answer": {"next"}}); r.status != http.StatusSeeOther {
		t.Fatalf("next: %d", r.status)
	}
	if second := label(); second == first {
		t.Fatal("the training item was dealt again as an item")
	}
}

// TestStudiesPagePlansPower: the Studies page's planning form estimates,
// for each number of participants, each condition's power against none;
// the larger study detects debate's planted gain more often; a plan
// without none comes back with the field named.
func TestStudiesPagePlansPower(t *testing.T) {
	f := newFixture(t)
	lead := f.user("lea", false)
	f.project("crowd", map[*domain.User]string{lead: domain.RoleLead})
	b := f.browser()
	b.login("lea", testPassword)
	tok := b.csrf("/p/crowd/studies")
	pg := b.post("/p/crowd/studies/plan", url.Values{"_csrf": {tok}, "plan": {`{"accuracy":{"none":0.7,"debate":0.9},"seed":3}`}, "participants": {"6, 60"}})
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(pg.body))
	if err != nil || pg.status != http.StatusOK {
		t.Fatalf("plan: %d %v", pg.status, err)
	}
	rows := doc.Find(`[data-testid="plan-power"] tbody tr`)
	if rows.Length() != 2 || doc.Find(`[data-testid="plan-power"] thead th`).Eq(1).Text() != "debate" {
		t.Fatalf("the power table:\n%s", pg.body)
	}
	var small, large float64
	fmt.Sscanf(rows.Eq(0).Find("td").First().Text(), "%f", &small)
	fmt.Sscanf(rows.Eq(1).Find("td").First().Text(), "%f", &large)
	if !(large > small && large >= 0.8) {
		t.Fatalf("debate power %.2f with 6 participants, %.2f with 60", small, large)
	}
	pg = b.post("/p/crowd/studies/plan", url.Values{"_csrf": {tok}, "plan": {`{"accuracy":{"debate":0.9}}`}})
	if pg.status != http.StatusUnprocessableEntity || !strings.Contains(pg.body, "accuracy: give the accuracy of") {
		t.Fatalf("a plan without none: %d\n%s", pg.status, pg.body)
	}
}

// TestErrorPageLeadsBack: the error page's way back fits who reads it:
// an anonymous visitor (a participant with a mistyped link) is offered
// to log in or open the study link again, a participant their study, an
// annotator their projects.
func TestErrorPageLeadsBack(t *testing.T) {
	f := newFixture(t)
	lead := f.user("lea", false)
	p := f.project("crowd", map[*domain.User]string{lead: domain.RoleLead})
	if _, err := f.store.Import(f.ctx, p.ID, []domain.DocumentInput{{ExternalID: "d", Sentences: []string{"A."},
		Summaries: []domain.SummaryInput{{ExternalID: "s", Sentences: []domain.SentenceInput{{Text: "A."}}}}}}); err != nil {
		t.Fatal(err)
	}
	st, err := app.New(f.store).CreateStudy(f.ctx, p, "s", []byte(`{"round":"crowd","attention_rate":0}`))
	if err != nil {
		t.Fatal(err)
	}
	back := func(b *browser, path string) (int, string) {
		t.Helper()
		pg := b.get(path)
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(pg.body))
		if err != nil {
			t.Fatal(err)
		}
		if doc.Find(`[data-testid="error"]`).Length() != 1 {
			t.Fatalf("%s: no error page (%d)", path, pg.status)
		}
		href, _ := doc.Find(`[data-testid="error"] a`).Last().Attr("href")
		return pg.status, href
	}
	if status, href := back(f.browser(), "/s/mistyped?pid=x"); status != http.StatusNotFound || href != "/login" {
		t.Errorf("anonymous: %d, way back %q", status, href)
	}
	participant := f.browser()
	participant.get("/s/" + st.EntryToken + "?pid=x")
	if status, href := back(participant, "/p/crowd/studies/none-such"); status < 400 || href != "/study" {
		t.Errorf("participant: %d, way back %q", status, href)
	}
	lb := f.browser()
	lb.login("lea", testPassword)
	if status, href := back(lb, "/p/crowd/studies/none-such"); status != http.StatusNotFound || href != "/projects" {
		t.Errorf("lead: %d, way back %q", status, href)
	}
}
