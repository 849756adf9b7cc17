package web_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"annotate/internal/authn"
	"annotate/internal/domain"
)

// TestSkipDocumentsByAPI: TofuEval rows (real rows from the release, see
// internal/importer/testdata) of a document whose transcript is not given
// refuse the import, naming the document and how to leave it out; the
// API's skip_documents names it and the rest imports; so does declaring
// the import partial.
func TestSkipDocumentsByAPI(t *testing.T) {
	f := newFixture(t)
	lead := f.user("lea", false)
	p := f.project("alpha", map[*domain.User]string{lead: domain.RoleLead})
	api := &apiClient{t: t, base: f.srv.URL, token: newToken(t, f, lead, authn.TokenSpec{})}
	files := map[string]string{}
	for _, name := range []string{"tofueval/meetingbank_factual_eval_test.csv", "tofueval/meetingbank_factual_eval_dev.csv", "madisse/MeetingBank_ambiguity_annotated.json"} {
		b, err := os.ReadFile(filepath.Join("..", "importer", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(name)] = string(b)
	}
	const missing = "LongBeachCC_10172017_17-0944"
	res := api.upload("/api/v1/projects/alpha/import", files)
	if res.status != http.StatusUnprocessableEntity || !strings.Contains(string(res.body), missing) || !strings.Contains(string(res.body), "skip_documents") {
		t.Fatalf("without skip_documents: %s", res)
	}
	if o := must(f.store.ProjectOverview(f.ctx, p.ID))(t); o.Documents != 0 {
		t.Fatalf("a refused import wrote %d documents", o.Documents)
	}
	res = api.upload("/api/v1/projects/alpha/import", files, "skip_documents", missing, "dry_run", "true")
	if res.status != http.StatusOK {
		t.Fatalf("with skip_documents: %s", res)
	}
	res = api.upload("/api/v1/projects/alpha/import", files, "partial", "true", "dry_run", "true")
	if res.status != http.StatusOK {
		t.Fatalf("partial: %s", res)
	}
	if o := must(f.store.ProjectOverview(f.ctx, p.ID))(t); o.Documents != 0 {
		t.Fatalf("a dry run wrote %d documents", o.Documents)
	}
	res = api.upload("/api/v1/projects/alpha/import", files, "skip_documents", "other-doc\n"+missing)
	if res.status != http.StatusOK {
		t.Fatalf("with skip_documents: %s", res)
	}
	if o := must(f.store.ProjectOverview(f.ctx, p.ID))(t); o.Documents == 0 {
		t.Fatal("nothing imported")
	}
}
