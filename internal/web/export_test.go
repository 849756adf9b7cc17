package web_test

import (
	"encoding/csv"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/tasks"
)

func TestExportDownload(t *testing.T) {
	w := newWorkFixture(t)
	ann, err := w.store.UserByName(w.ctx, "ann")
	if err != nil {
		t.Fatal(err)
	}
	aid := w.assign["ann"][0].ID
	if _, err := w.store.SaveSentenceLabel(w.ctx, aid, ann.ID, w.assign["ann"][0].Version, domain.SentenceLabel{
		SentenceID: w.sentences[w.assign["ann"][0].SummaryID][0], Label: domain.LabelFaithful}); err != nil {
		t.Fatal(err)
	}
	lead := w.browser()
	lead.login("lea", testPassword)

	t.Run("page", func(t *testing.T) {
		p := lead.get("/p/alpha/export")
		if p.status != http.StatusOK {
			t.Fatalf("export page: %d\n%s", p.status, p.body)
		}
		if got := textOf(p.mustFind(t, tid("export-form")+` option[value="r1"]`)); got != "r1" {
			t.Errorf("round option %q, want r1", got)
		}
		lead.get("/p/alpha").mustFind(t, `#main a[href="/p/alpha/export"]`)
	})
	t.Run("raw csv", func(t *testing.T) {
		p := lead.get("/p/alpha/export/download?what=raw&format=csv&round=r1")
		if p.status != http.StatusOK {
			t.Fatalf("status %d: %s", p.status, p.body)
		}
		if cd := p.header.Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment;") || !strings.Contains(cd, "alpha-raw-r1-") || !strings.HasSuffix(cd, `.csv"`) && !strings.HasSuffix(cd, ".csv") {
			t.Errorf("Content-Disposition %q", cd)
		}
		for k, v := range map[string]string{"X-Export-Project": "alpha", "X-Export-Round": "r1", "X-Export-What": "raw", "Content-Type": "text/csv; charset=utf-8"} {
			if got := p.header.Get(k); got != v {
				t.Errorf("%s = %q, want %q", k, got, v)
			}
		}
		if p.header.Get("X-Export-Schema-Version") != strconv.Itoa(tasks.CurrentSchemaVersion()) || p.header.Get("X-Export-Time") == "" {
			t.Errorf("headers %v", p.header)
		}
		rows, err := csv.NewReader(strings.NewReader(p.body)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		// Two summaries of two sentences, each given to ann and bob.
		if len(rows) != 1+8 || rows[0][0] != "round" {
			t.Fatalf("%d rows:\n%s", len(rows), p.body)
		}
		// A complete download says so after the body.
		if p.trailer.Get("X-Export-Records") != "8" || p.trailer.Get("X-Export-Complete") != "true" {
			t.Errorf("trailers %v, want 8 records, complete", p.trailer)
		}
		labelled := 0
		for _, r := range rows[1:] {
			if r[9] == "true" {
				labelled++
				if r[1] != "ann" || r[10] != "faithful" {
					t.Errorf("labelled row %v", r)
				}
			}
		}
		if labelled != 1 {
			t.Errorf("%d labelled rows, want ann's one", labelled)
		}
	})
	t.Run("gold jsonl starts with its header", func(t *testing.T) {
		p := lead.get("/p/alpha/export/download?what=gold&anonymise=true")
		first, _, _ := strings.Cut(p.body, "\n")
		var h map[string]any
		if p.status != http.StatusOK || json.Unmarshal([]byte(first), &h) != nil || h["kind"] != "export" || h["anonymised"] != true {
			t.Fatalf("status %d, first line %s", p.status, first)
		}
	})
	t.Run("bad options", func(t *testing.T) {
		for path, want := range map[string]int{
			"/p/alpha/export/download?what=everything":            http.StatusUnprocessableEntity,
			"/p/alpha/export/download?what=gold&round=r9":         http.StatusNotFound,
			"/p/alpha/export/download?what=gold&provenance=x":     http.StatusUnprocessableEntity,
			"/p/alpha/export/download?what=tofueval&format=jsonl": http.StatusUnprocessableEntity,
		} {
			if p := lead.get(path); p.status != want || p.header.Get("Content-Disposition") != "" {
				t.Errorf("%s: %d, want %d", path, p.status, want)
			}
		}
	})
	t.Run("annotators get nothing", func(t *testing.T) {
		b := w.browser()
		b.login("ann", testPassword)
		if p := b.get("/p/alpha/export/download?what=raw"); p.status != http.StatusForbidden || strings.Contains(p.body, "secret-model-name") {
			t.Errorf("annotator download: %d", p.status)
		}
	})
}
