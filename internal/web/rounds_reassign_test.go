package web_test

import (
	"database/sql"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"annotate/internal/domain"
)

// TestRoundPageReassignsFromOneChoice: the round page lists the
// annotators to reassign to once, in one form, however many assignments
// it shows; each open assignment's "reassign" button sends that form to
// the assignment's own address, and the assignment moves to the annotator
// chosen. A submitted assignment has no button.
func TestRoundPageReassignsFromOneChoice(t *testing.T) {
	w := newWorkFixture(t)
	cat := w.user("cat", false)
	if err := w.store.SetMember(w.ctx, w.project.ID, cat.ID, domain.RoleAnnotator); err != nil {
		t.Fatal(err)
	}
	r := must(w.store.RoundByName(w.ctx, w.project.ID, "r1"))(t)
	// ann's first summary is submitted: it cannot move any more.
	done := w.assign["ann"][0]
	err := w.store.WriteTx(w.ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(w.ctx, `UPDATE assignments SET status = 'submitted', submitted_at = '2026-01-01T00:00:00Z' WHERE id = ?`, done.ID)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	lead := w.browser()
	lead.login("lea", testPassword)
	path := fmt.Sprintf("/p/alpha/rounds/%d", r.ID)
	p := lead.get(path)
	if p.status != http.StatusOK {
		t.Fatalf("round page: status %d", p.status)
	}
	doc := p.doc(t)
	if n := doc.Find(`select[name="to"]`).Length(); n != 1 {
		t.Fatalf("%d lists of annotators to reassign to, want one for the page", n)
	}
	if n := doc.Find(`#reassign select[name="to"] option`).Length(); n != 3 {
		t.Fatalf("the list offers %d annotators, want ann, bob and cat", n)
	}
	buttons := doc.Find(`button[form="reassign"]`)
	if buttons.Length() != 3 {
		t.Fatalf("%d reassign buttons, want one for each of the 3 open assignments", buttons.Length())
	}
	if doc.Find(fmt.Sprintf(`button[formaction$="/assignments/%d/reassign"]`, done.ID)).Length() != 0 {
		t.Fatal("the submitted assignment can be reassigned")
	}
	move := w.assign["bob"][1]
	action, ok := doc.Find(fmt.Sprintf(`button[form="reassign"][formaction$="/assignments/%d/reassign"]`, move.ID)).Attr("formaction")
	if !ok {
		t.Fatalf("no reassign button for bob's assignment %d", move.ID)
	}
	tok, _ := doc.Find(`#reassign input[name="_csrf"]`).Attr("value")
	res := lead.post(action, url.Values{"_csrf": {tok}, "to": {fmt.Sprint(cat.ID)}})
	if res.status != http.StatusSeeOther && res.status != http.StatusFound {
		t.Fatalf("reassign: status %d: %s", res.status, res.body)
	}
	// The list offers each row's own annotator too: choosing them is
	// refused on the round's page, which says why.
	keep := w.assign["ann"][1]
	res = lead.post(fmt.Sprintf("/p/alpha/rounds/%d/assignments/%d/reassign", r.ID, keep.ID), url.Values{"_csrf": {tok}, "to": {fmt.Sprint(keep.UserID)}})
	if res.status != http.StatusSeeOther && res.status != http.StatusFound {
		t.Fatalf("reassigning to the same annotator: status %d: %s", res.status, res.body)
	}
	if p := lead.get(path); !strings.Contains(p.body, "Not reassigned: that annotator already has this summary in this round.") {
		t.Fatalf("the round page after a refused reassignment does not say why:\n%s", p.body)
	}
	q := must(w.store.Queue(w.ctx, w.project.ID, cat.ID))(t)
	if len(q) != 1 || q[0].SummaryID != move.SummaryID {
		t.Fatalf("cat's queue after the reassignment: %+v, want bob's summary %d", q, move.SummaryID)
	}
	if a := must(w.store.AssignmentByID(w.ctx, move.ID))(t); a.Status != domain.StatusReleased {
		t.Fatalf("bob's assignment is %s after the reassignment, want released", a.Status)
	}
}
