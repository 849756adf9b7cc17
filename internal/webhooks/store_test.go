package webhooks_test

import (
	"context"
	"path/filepath"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/tasks"
	"annotate/internal/webhooks"
)

// TestWebhookRegistration checks what a webhook may be registered with,
// and that registering one announces nothing that happened before. The
// web tests follow deliveries end to end.
func TestWebhookRegistration(t *testing.T) {
	ctx := context.Background()
	s, err := tasks.Open(ctx, filepath.Join(t.TempDir(), "test.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	hooks := webhooks.New(s)
	lead, _ := s.CreateUser(ctx, "lea", "", "a long enough password", false)
	p, _ := s.CreateProject(ctx, domain.Project{Slug: "alpha", Name: "Alpha", Settings: domain.DefaultSettings()})
	docs := []domain.DocumentInput{{ExternalID: "d1", Sentences: []string{"A."}, Summaries: []domain.SummaryInput{{ExternalID: "s1",
		Sentences: []domain.SentenceInput{{Text: "A.", Gold: &domain.GoldInput{Label: "faithful"}}}}}}}
	if _, err := s.Import(ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"ftp://x.example/y", "http://user:pw@x.example/", "/relative", ""} {
		if _, err := hooks.CreateWebhook(ctx, p.ID, lead.ID, bad, []string{webhooks.EventRoundComplete}); domain.ErrorCode(err) != domain.EInvalid {
			t.Errorf("%q: %v, want invalid", bad, err)
		}
	}
	for _, events := range [][]string{nil, {"round.started"}} {
		if _, err := hooks.CreateWebhook(ctx, p.ID, lead.ID, "https://x.example/h", events); domain.ErrorCode(err) != domain.EInvalid {
			t.Errorf("events %v: %v, want invalid", events, err)
		}
	}
	h, err := hooks.CreateWebhook(ctx, p.ID, lead.ID, "https://x.example/h", []string{webhooks.EventGoldDecided, webhooks.EventGoldDecided})
	if err != nil || len(h.Events) != 1 || len(h.Secret) != 64 {
		t.Fatalf("CreateWebhook = %+v, %v", h, err)
	}
	if n, err := hooks.QueueWebhookEvents(ctx); err != nil || n != 0 {
		t.Fatalf("the imported gold was announced: %d, %v", n, err)
	}
	list, err := hooks.Webhooks(ctx, p.ID)
	if err != nil || len(list) != 1 || list[0].Secret != "" {
		t.Fatalf("Webhooks = %+v, %v", list, err)
	}
	if list[0].CreatedAt != h.CreatedAt {
		t.Fatalf("listed as made at %s, registration said %s", list[0].CreatedAt, h.CreatedAt)
	}
	if err := hooks.DeleteWebhook(ctx, p.ID+1, h.ID); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatalf("delete from another project: %v", err)
	}
	if err := hooks.DeleteWebhook(ctx, p.ID, h.ID); err != nil {
		t.Fatal(err)
	}
}
