package web_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"annotate/internal/domain"
	"annotate/internal/web"
)

// Issue 12: while people label, every save changes the report's version;
// the page shows a report built within ReportMaxAge, says that it is
// behind, and builds the current one for the next view. Downloads stay
// current.
func TestReportPageShowsARecentReportWhileLabelsChange(t *testing.T) {
	f, _ := serverWith(t, web.Config{ReportMaxAge: time.Hour})
	r := reportFixtureOn(t, f)
	b := r.lead(t)
	first := b.get("/p/rep/report?round=c1")
	if first.status != http.StatusOK {
		t.Fatalf("report: %d", first.status)
	}
	computed := section(t, first.body, "report-computed", "</p>")
	if strings.Contains(computed, "before the latest changes") {
		t.Fatalf("first view says it is behind: %s", computed)
	}
	if !strings.Contains(computed, "Computed <time") {
		t.Errorf("the time does not follow \"Computed \" with a space: %s", computed)
	}
	json := b.get("/p/rep/report.json?round=c1")
	d, err := r.store.ReportData(r.ctx, r.project.ID, domain.ReportFilter{})
	if err != nil {
		t.Fatal(err)
	}
	lea, err := r.store.UserByName(r.ctx, "lea")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.store.SetGold(r.ctx, r.project.ID, d.Sentences[0].ID, lea.ID, -1, domain.GoldDecision{GoldValues: domain.GoldValues{Label: domain.LabelUnfaithful, ErrorTypes: []string{"contradiction"}, Explanation: "Changed."}}); err != nil {
		t.Fatal(err)
	}
	behind := b.get("/p/rep/report?round=c1")
	if behind.status != http.StatusOK {
		t.Fatalf("report after a change: %d", behind.status)
	}
	note := section(t, behind.body, "report-computed", "</p>")
	if !strings.Contains(note, "before the latest changes") {
		t.Errorf("the page after a change does not say it is behind: %s", note)
	}
	if at := computedAt.FindString(computed); at == "" || computedAt.FindString(note) != at {
		t.Errorf("the page after a change is not the report computed before: %s, was %s", note, computed)
	}
	if j := b.get("/p/rep/report.json?round=c1"); j.header.Get("ETag") == json.header.Get("ETag") {
		t.Errorf("the JSON download after a change kept the old entity tag %s", j.header.Get("ETag"))
	}
	// The download built the current report: the next view shows it.
	if p := b.get("/p/rep/report?round=c1"); strings.Contains(section(t, p.body, "report-computed", "</p>"), "before the latest changes") {
		t.Error("the page still shows the report from before the change once the current one is built")
	}
}

var computedAt = regexp.MustCompile(`datetime="[0-9T:Z+-]+"`)
