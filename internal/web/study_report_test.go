package web_test

import (
	"encoding/xml"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"annotate/internal/app"
	"annotate/internal/domain"
)

// TestStudyReportPage: a study where the participant without the
// assistant is always right and the one with the debate always wrong; the
// report page gives accuracy 1.000 and 0.000 and a forest plot, well-formed
// SVG, with the debate's difference from none at −1.
func TestStudyReportPage(t *testing.T) {
	f := newFixture(t)
	lead := f.user("lea", false)
	p := f.project("crowd", map[*domain.User]string{lead: domain.RoleLead})
	gold := map[string]string{}
	var docs []domain.DocumentInput
	for i := 1; i <= 4; i++ {
		g := &domain.GoldInput{Label: domain.LabelFaithful}
		if i%2 == 0 {
			g = &domain.GoldInput{Label: domain.LabelUnfaithful, ErrorTypes: []string{"contradiction"}, Explanation: "No."}
		}
		text := fmt.Sprintf("Sentence %d.", i)
		gold[text] = g.Label
		docs = append(docs, domain.DocumentInput{ExternalID: fmt.Sprintf("d%d", i), Sentences: []string{"A source."},
			Summaries: []domain.SummaryInput{{ExternalID: fmt.Sprintf("s%d", i), Sentences: []domain.SentenceInput{{Text: text, Gold: g}}}}})
	}
	if _, err := f.store.Import(f.ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	ops := app.New(f.store)
	st, err := ops.CreateStudy(f.ctx, p, "exp", []byte(`{"round":"crowd","conditions":["none","debate"],"seed":1,"k":2,"items_per_participant":4,"attention_rate":0}`))
	if err != nil {
		t.Fatal(err)
	}
	no := false
	flip := map[string]string{domain.LabelFaithful: domain.LabelUnfaithful, domain.LabelUnfaithful: domain.LabelFaithful}
	for i := range 2 {
		in, err := ops.EnterStudy(f.ctx, st.EntryToken, url.Values{"pid": {fmt.Sprintf("p%d", i)}})
		if err != nil {
			t.Fatal(err)
		}
		part := in.Participant
		ops.StudyAnswer(f.ctx, part, "start")
		part = must(ops.Studies().ParticipantOfUser(f.ctx, part.UserID))(t)
		for {
			step, err := ops.NextStep(f.ctx, st, part)
			if err != nil {
				t.Fatal(err)
			}
			if step.Assignment == 0 {
				break
			}
			as := must(f.store.AssignmentByID(f.ctx, step.Assignment))(t)
			sum := must(f.store.Summary(f.ctx, as.SummaryID))(t)
			want := gold[sum.Sentences[0].Text]
			if part.Condition == "debate" {
				want = flip[want]
			}
			l := domain.SentenceLabel{SentenceID: sum.Sentences[0].ID, Label: want, Ambiguous: &no}
			if want == domain.LabelUnfaithful {
				l.ErrorTypes, l.Explanation = []string{"contradiction"}, "No."
			}
			v, err := f.store.SaveSentenceLabel(f.ctx, as.ID, part.UserID, as.Version, l)
			if err != nil {
				t.Fatal(err)
			}
			f.store.SaveSummaryLabel(f.ctx, as.ID, part.UserID, v, domain.SummaryLabel{Relevance: 5, TopicCategory: "main"})
			if err := f.store.Submit(f.ctx, as.ID, part.UserID); err != nil {
				t.Fatal(err)
			}
		}
	}
	b := f.browser()
	b.login("lea", testPassword)
	pg := b.get("/p/crowd/studies/exp/report")
	if pg.status != http.StatusOK {
		t.Fatalf("report page: %d", pg.status)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(pg.body))
	if err != nil {
		t.Fatal(err)
	}
	row := doc.Find(`[data-testid="study-figures"] tbody tr`).First()
	if name, none, debate := row.Find("th").Text(), row.Find("td").Eq(0).Text(), row.Find("td").Eq(1).Text(); name != "accuracy" ||
		!strings.HasPrefix(none, "1.000") || !strings.HasPrefix(debate, "0.000") {
		t.Errorf("the accuracy row reads %q %q %q", name, none, debate)
	}
	svg, err := doc.Find(`[data-testid="forest"]`).Parent().Html()
	if err != nil || svg == "" {
		t.Fatalf("no forest plot: %v", err)
	}
	d := xml.NewDecoder(strings.NewReader(svg))
	d.Strict, d.AutoClose, d.Entity = false, xml.HTMLAutoClose, xml.HTMLEntity
	for {
		if _, err := d.Token(); err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("the forest plot is not well-formed: %v", err)
			}
			break
		}
	}
	if title := doc.Find(`[data-testid="forest"] circle title`).First().Text(); !strings.HasPrefix(title, "-1.000") {
		t.Errorf("the first difference reads %q, want −1", title)
	}
	// The crowd section: three methods against gold, a participant row
	// each, named by number only.
	if n := doc.Find(`[data-testid="crowd-methods"] tbody tr`).Length(); n != 3 {
		t.Errorf("the crowd methods table has %d rows, want 3", n)
	}
	names := doc.Find(`[data-testid="crowd-participants"] tbody th`)
	if names.Length() == 0 || !strings.HasPrefix(names.First().Text(), "Participant ") {
		t.Errorf("the crowd participants table reads %q", names.Text())
	}
	if uses := doc.Find(`[data-testid="crowd-uses"]`).Text(); !strings.HasPrefix(uses, "Crowd labels are proposed by ") {
		t.Errorf("the crowd section says %q", uses)
	}
}
