package web_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"annotate/internal/authn"
	"annotate/internal/domain"
	"annotate/internal/web"
)

// TestAPISetTaxonomy: a lead replaces the error taxonomy with custom types
// and back with a preset, the guidelines stay, and a bad taxonomy is a 422
// naming the field that changes nothing.
func TestAPISetTaxonomy(t *testing.T) {
	f, _ := serverWith(t, web.Config{})
	lead := f.user("lea", false)
	p := f.project("alpha", map[*domain.User]string{lead: domain.RoleLead})
	if err := f.store.UpdateSettings(f.ctx, p.ID, p.Settings, "Read the transcript."); err != nil {
		t.Fatal(err)
	}
	api := &apiClient{t: t, base: f.srv.URL, token: newToken(t, f, lead, authn.TokenSpec{})}
	put := func(c *apiClient, v any) apiAnswer {
		body, _ := json.Marshal(v)
		return c.do(http.MethodPut, "/api/v1/projects/alpha/taxonomy", "application/json", body)
	}
	var doc struct {
		Guidelines string                `json:"guidelines"`
		ErrorTypes []domain.TaxonomyType `json:"error_types"`
	}
	res := put(api, map[string]any{"error_types": []map[string]string{{"code": "invented_fact", "name": "Invented fact"}, {"code": "wrong_speaker", "name": "Wrong speaker"}}})
	res.decode(t, &doc)
	if res.status != http.StatusOK || len(doc.ErrorTypes) != 2 || doc.ErrorTypes[0].Code != "invented_fact" || doc.Guidelines != "Read the transcript." {
		t.Fatalf("custom: %s", res)
	}
	unchecked := *api
	unchecked.noCheck = true
	bad := put(&unchecked, map[string]any{"error_types": []map[string]string{{"code": "x", "name": "X"}, {"code": "x", "name": "Y"}}})
	if pr := bad.problem(t); bad.status != http.StatusUnprocessableEntity || pr.Type != "/api/v1/problems/invalid-taxonomy" || pr.Errors[0].Field != "error_types" {
		t.Fatalf("a repeated code: %s", bad)
	}
	got := must(f.store.ProjectByID(f.ctx, p.ID))(t)
	if len(got.Settings.ErrorTaxonomy()) != 2 {
		t.Fatalf("a refused change changed the taxonomy: %+v", got.Settings.ErrorTaxonomy())
	}
	res = put(api, map[string]any{"preset": "frank"})
	res.decode(t, &doc)
	if res.status != http.StatusOK || len(doc.ErrorTypes) != 7 {
		t.Fatalf("preset: %s", res)
	}
}
