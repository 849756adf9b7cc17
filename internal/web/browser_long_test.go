package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"annotate/internal/assist"
	"annotate/internal/assiststore"
	"annotate/internal/domain"
)

// longFixture is one assignment of a 40-sentence summary with 30 key facts
// and an assistant run on every sentence. The document is a MeetingBank
// transcript of the demo corpus (TofuEval, see internal/demo/NOTICE.md);
// the summary strings together the TofuEval summary sentences written
// for it, so the page looks like real work.
type longFixture struct {
	*fixture
	project   *domain.Project
	assign    domain.Assignment
	sentences []int64
}

func newLongFixture(t testing.TB, mode string) *longFixture {
	t.Helper()
	f := newFixture(t)
	ann := f.user("ann", false)
	lead := f.user("lea", false)
	p := f.project("long", map[*domain.User]string{ann: domain.RoleAnnotator, lead: domain.RoleLead})
	set := p.Settings
	set.AssistantVisibility = mode
	if err := f.store.UpdateSettings(f.ctx, p.ID, set, ""); err != nil {
		t.Fatal(err)
	}
	docs := demoCorpus(t)
	doc := docs[0]
	topic := doc.Summaries[0].Topic
	var sents []domain.SentenceInput
	seen := map[string]bool{}
	var facts []domain.KeyFactInput
	for _, d := range docs {
		for _, s := range d.Summaries {
			for _, x := range s.Sentences {
				if d.ExternalID == doc.ExternalID && !seen[x.Text] && len(sents) < 40 {
					seen[x.Text] = true
					sents = append(sents, domain.SentenceInput{Text: x.Text})
				}
			}
		}
		for _, k := range d.KeyFacts {
			if len(facts) < 30 {
				facts = append(facts, domain.KeyFactInput{Topic: topic, Text: k.Text})
			}
		}
	}
	// Fill up to 40 with the other documents' sentences if this one has fewer.
	for _, d := range docs[1:] {
		for _, s := range d.Summaries {
			for _, x := range s.Sentences {
				if !seen[x.Text] && len(sents) < 40 {
					seen[x.Text] = true
					sents = append(sents, domain.SentenceInput{Text: x.Text})
				}
			}
		}
	}
	if len(sents) != 40 || len(facts) != 30 {
		t.Fatalf("fixture has %d sentences and %d facts", len(sents), len(facts))
	}
	in := domain.DocumentInput{ExternalID: doc.ExternalID, Kind: doc.Kind, Language: doc.Language, Domain: doc.Domain,
		Title: "Alameda City Council, 20 July 2021", Turns: doc.Turns, KeyFacts: facts,
		Summaries: []domain.SummaryInput{{ExternalID: "long-1", Topic: topic, Model: "m", Sentences: sents}}}
	if _, err := f.store.Import(f.ctx, p.ID, []domain.DocumentInput{in}); err != nil {
		t.Fatal(err)
	}
	sums := must(f.store.SummaryIDs(f.ctx, p.ID, nil))(t)
	if _, err := f.store.CreateRound(f.ctx, p.ID, domain.RoundSpec{Name: "r1", Kind: domain.RoundProduction, PerItem: 1, Annotators: []int64{ann.ID}, Summaries: sums}); err != nil {
		t.Fatal(err)
	}
	q, err := f.store.Queue(f.ctx, p.ID, ann.ID)
	if err != nil || len(q) != 1 {
		t.Fatalf("queue: %v %v", q, err)
	}
	sum := must(f.store.Summary(f.ctx, q[0].SummaryID))(t)
	lf := &longFixture{fixture: f, project: p, assign: q[0]}
	run, err := assiststore.New(f.store).CreateAssistRun(f.ctx, assiststore.AssistRun{ProjectID: p.ID, Protocol: "single", Model: "m", Total: len(sum.Sentences)})
	if err != nil {
		t.Fatal(err)
	}
	units := len(doc.Turns)
	for i, x := range sum.Sentences {
		lf.sentences = append(lf.sentences, x.ID)
		data, _ := json.Marshal(longResult(i, units))
		if err := assiststore.New(f.store).SaveAssistOutput(f.ctx, run.ID, assiststore.AssistOutput{SentenceID: x.ID, Label: string(longResult(i, units).Adjudicator.Label), Output: data}); err != nil {
			t.Fatal(err)
		}
	}
	return lf
}

// longResult is an assistant result for sentence i that cites units of a
// document with n units.
func longResult(i, n int) assist.SentenceResult {
	u := func(k int) int { return (i*3+k)%n + 1 }
	holds := i%5 != 1
	adj := &assist.Verdict{Label: assist.Faithful, Citations: []int{u(0)}, AdvocateHolds: &holds,
		Report: fmt.Sprintf("The speaker in unit [%d] says this in other words; the Skeptic's point rests on a detail the sentence does not claim.", u(0))}
	if !holds {
		adj = &assist.Verdict{Label: assist.Unfaithful, ErrorType: "mis_referencing", Citations: []int{u(1)}, AdvocateHolds: &holds,
			Report: fmt.Sprintf("Unit [%d] names someone else as the one who acted; the sentence gives it to the wrong person.", u(1))}
	}
	return assist.SentenceResult{
		Protocol: assist.ProtocolSingle, Status: assist.StatusOK, Settings: assist.Settings{Protocol: assist.ProtocolSingle, EvidenceCap: 4},
		Advocate: &assist.Side{Label: assist.Faithful, Citations: []int{u(0), u(2)},
			Reason: fmt.Sprintf("Units [%d] and [%d] state the same facts: who acted, what was decided and when.", u(0), u(2))},
		Skeptic: &assist.Side{Label: assist.Unfaithful, ErrorType: "mis_referencing", Citations: []int{u(1)},
			Reason: fmt.Sprintf("Unit [%d] is the closest passage, and it names someone else.", u(1))},
		Adjudicator: adj,
		Ambiguity:   &assist.Ambiguity{Judged: true, Ambiguous: i%7 == 5, Type: "vagueness", Reason: "“recognised” may mean honoured or merely named"},
		Evidence:    []int{u(0)},
	}
}

// demoCorpus reads the demo's documents (MeetingBank transcripts with
// their TofuEval summaries and key facts).
func demoCorpus(t testing.TB) []domain.DocumentInput {
	t.Helper()
	fh, err := os.Open("../demo/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var out []domain.DocumentInput
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 8<<20)
	for sc.Scan() {
		var d domain.DocumentInput
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		out = append(out, d)
	}
	return out
}

// explanation is what the keyboard test writes for unfaithful sentence n;
// sentence 2's is the TofuEval annotator's.
func explanation(n int) string {
	if n == 2 {
		return "Mayor Ashcraft did not attend the Eagle Court of Honor. According to the document, Councilmember Desai attended the event on behalf of the Mayor."
	}
	return fmt.Sprintf("Sentence %d names someone the meeting never mentions.", n)
}

// rect is an element's box relative to the viewport.
type rect struct{ Top, Bottom, Left, Right, VH, VW float64 }

func boxOf(t *testing.T, ctx context.Context, sel string) rect {
	t.Helper()
	r, err := chromedp.Run(ctx, chromedp.Evaluate[rect](fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect();
		return {Top: r.top, Bottom: r.bottom, Left: r.left, Right: r.right, VH: innerHeight, VW: innerWidth}; })()`, sel)))
	if err != nil {
		t.Fatalf("box of %s: %v", sel, err)
	}
	return r
}

func (r rect) inView() bool { return r.Top >= 0 && r.Bottom <= r.VH && r.Left >= 0 && r.Right <= r.VW }

// TestBrowserLongSummaryKeyboard labels a 40-sentence summary with the
// keyboard only, at 1280×800, in both assistant visibility modes. At every
// step the focused sentence, its label card and the assistant's verdicts
// are inside the window (measured with getBoundingClientRect), then the
// summary is submitted with Ctrl+Enter.
func TestBrowserLongSummaryKeyboard(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{domain.AssistAfterLabel, domain.AssistAlways} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			w := newLongFixture(t, mode)
			ctx := newBrowser(t)
			err := chromedp.Do(ctx,
				chromedp.EmulateViewport(1280, 800),
				chromedp.Navigate(fmt.Sprintf("%s/a/%d", w.srv.URL, w.assign.ID)),
				chromedp.WaitVisible(css(`#username`)),
				chromedp.SendKeys(css(`#username`), "ann"),
				chromedp.SendKeys(css(`#password`), testPassword+"\n"),
				chromedp.WaitVisible(css(`#workspace`)),
			)
			if err != nil {
				t.Fatal(err)
			}
			for i, sid := range w.sentences {
				n := i + 1
				mark := fmt.Sprintf(`document.getElementById("mark-%d")`, sid)
				inView := func(what string) {
					t.Helper()
					for _, sel := range []string{fmt.Sprintf(`[data-testid="pick-%d"]`, n), fmt.Sprintf(`#card-%d`, sid)} {
						if r := boxOf(t, ctx, sel); !r.inView() {
							t.Fatalf("sentence %d, %s: %s is out of the window: %+v", n, what, sel, r)
						}
					}
				}
				inView("focused")
				if i%5 == 1 {
					keys(t, ctx, "u")
					keys(t, ctx, "2")
					keys(t, ctx, "e")
					if n == 2 {
						// Typed key by key: its letters include shortcuts
						// (f, u, e), which must stay text in the field.
						keys(t, ctx, explanation(n))
					} else {
						// The others arrive as one text input, as a paste
						// or an input method gives them.
						insert := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
							_, err := cdp.Call(ctx, tg, input.InsertText, input.InsertTextParams{Text: explanation(n)})
							return err
						})
						if err := chromedp.Do(ctx, insert); err != nil {
							t.Fatalf("sentence %d: insert text: %v", n, err)
						}
					}
					keys(t, ctx, kb.Escape)
					waitJS(t, ctx, fmt.Sprintf("sentence %d complete", n), mark+`.classList.contains("mark-unfaithful")`)
				} else {
					keys(t, ctx, "f")
					waitJS(t, ctx, fmt.Sprintf("sentence %d labelled", n), mark+`.classList.contains("mark-faithful")`)
				}
				verdicts := fmt.Sprintf(`[data-testid="assist-%d"] .verdicts`, n)
				waitJS(t, ctx, fmt.Sprintf("sentence %d verdicts", n), fmt.Sprintf(`!!document.querySelector(%q)`, verdicts))
				inView("labelled")
				if i == 1 && mode == domain.AssistAlways {
					screenshot(t, ctx, "labelling")
					// The arguments unfold; a citation chip highlights its unit
					// in the transcript.
					chip := `[data-testid="assist-2"] [data-testid="verdict-Skeptic"] .chip`
					err := chromedp.Do(ctx, chromedp.Click(css(`[data-testid="assist-2"] .arguments > summary`)), chromedp.Click(css(chip)))
					if err != nil {
						t.Fatal(err)
					}
					waitJS(t, ctx, "cited unit in view", `(() => { const u = document.querySelector(".unit.cited"), p = document.querySelector(".ws-doc");
						if (!u) return false; const a = u.getBoundingClientRect(), b = p.getBoundingClientRect(); return a.top >= b.top && a.bottom <= b.bottom; })()`)
					screenshot(t, ctx, "assistant")
					keys(t, ctx, kb.Escape)
				}
				if r := boxOf(t, ctx, verdicts); !r.inView() {
					t.Fatalf("sentence %d: the assistant's verdicts are out of the window: %+v", n, r)
				}
				if r := boxOf(t, ctx, fmt.Sprintf(`[data-testid="assist-%d"] [data-testid="verdict-Adjudicator"] .chip`, n)); !r.inView() {
					t.Fatalf("sentence %d: the Adjudicator's citation is out of the window: %+v", n, r)
				}
				if i+1 < len(w.sentences) {
					keys(t, ctx, "j")
				}
			}
			keys(t, ctx, "r")
			keys(t, ctx, " ")
			keys(t, ctx, "t")
			keys(t, ctx, " ")
			keys(t, ctx, kb.Escape)
			keys(t, ctx, "\r", chromedp.KeyModifiers(chromedp.ModifierCtrl))
			waitFor(t, "submitted", func() bool {
				a := must(w.store.AssignmentByID(w.ctx, w.assign.ID))(t)
				return a.Status == domain.StatusSubmitted
			})
			labels := must(w.store.SentenceLabels(w.ctx, w.assign.ID))(t)
			if got := labels[w.sentences[6]]; len(labels) != 40 || got.Label != "unfaithful" || got.Explanation != explanation(7) {
				t.Fatalf("%d labels stored; sentence 7: %+v", len(labels), got)
			}
		})
	}
}
