package web_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"annotate/internal/authn"
	"annotate/internal/domain"
)

// TestAPIStudies: a lead makes a study through the API, gets it back with
// its participants by step, and a bad definition is refused naming the
// field. Answers are checked against openapi.json.
func TestAPIStudies(t *testing.T) {
	f := newFixture(t)
	lead := f.user("lea", false)
	p := f.project("crowd", map[*domain.User]string{lead: domain.RoleLead})
	var docs []domain.DocumentInput
	for i := 1; i <= 3; i++ {
		docs = append(docs, domain.DocumentInput{ExternalID: fmt.Sprintf("d%d", i), Sentences: []string{"A."},
			Summaries: []domain.SummaryInput{{ExternalID: fmt.Sprintf("s%d", i), Sentences: []domain.SentenceInput{{Text: "A."}}}}})
	}
	if _, err := f.store.Import(f.ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	api := &apiClient{t: t, base: f.srv.URL, token: newToken(t, f, lead, authn.TokenSpec{})}
	res := api.do(http.MethodPost, "/api/v1/projects/crowd/studies", "application/json", []byte(`{"name":"pilot","definition":{"round":"crowd","conditions":["none","verdict"],"attention_rate":0}}`))
	var st struct {
		Name         string
		Items        int
		Participants map[string]int
		NotApplied   []string `json:"not_applied"`
	}
	res.decode(t, &st)
	if res.status != http.StatusCreated || st.Name != "pilot" || st.Items != 3 || len(st.NotApplied) != 0 || st.Participants["completed"] != 0 {
		t.Fatalf("create: %s", res)
	}
	if res.header.Get("Location") != "/api/v1/projects/crowd/studies/pilot" {
		t.Errorf("Location %q", res.header.Get("Location"))
	}
	if res := api.get("/api/v1/projects/crowd/studies/pilot"); res.status != http.StatusOK || !strings.Contains(string(res.body), `"round":"crowd"`) {
		t.Fatalf("get: %s", res)
	}
	if res := api.get("/api/v1/projects/crowd/studies"); res.status != http.StatusOK || !strings.Contains(string(res.body), `"name":"pilot"`) {
		t.Fatalf("list: %s", res)
	}
	res = api.do(http.MethodPost, "/api/v1/projects/crowd/studies", "application/json", []byte(`{"name":"bad","definition":{"round":"crowd","k":99}}`))
	if res.status != http.StatusUnprocessableEntity || !strings.Contains(string(res.body), "k: 99 is not between 1 and 50") {
		t.Fatalf("a bad definition: %s", res)
	}
}
