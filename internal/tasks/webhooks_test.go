package tasks_test

import (
	"context"
	"testing"

	"annotate/internal/tasks"
)

// TestWebhookRegistration checks what a webhook may be registered with,
// and that registering one announces nothing that happened before. The
// web tests follow deliveries end to end.
func TestWebhookRegistration(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	lead, _ := s.CreateUser(ctx, "lea", "", "a long enough password", false)
	p, _ := s.CreateProject(ctx, tasks.Project{Slug: "alpha", Name: "Alpha", Settings: tasks.DefaultSettings()})
	docs := []tasks.DocumentInput{{ExternalID: "d1", Sentences: []string{"A."}, Summaries: []tasks.SummaryInput{{ExternalID: "s1",
		Sentences: []tasks.SentenceInput{{Text: "A.", Gold: &tasks.GoldInput{Label: "faithful"}}}}}}}
	if _, err := s.Import(ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"ftp://x.example/y", "http://user:pw@x.example/", "/relative", ""} {
		if _, err := s.CreateWebhook(ctx, p.ID, lead.ID, bad, []string{tasks.EventRoundComplete}); tasks.ErrorCode(err) != tasks.EInvalid {
			t.Errorf("%q: %v, want invalid", bad, err)
		}
	}
	for _, events := range [][]string{nil, {"round.started"}} {
		if _, err := s.CreateWebhook(ctx, p.ID, lead.ID, "https://x.example/h", events); tasks.ErrorCode(err) != tasks.EInvalid {
			t.Errorf("events %v: %v, want invalid", events, err)
		}
	}
	h, err := s.CreateWebhook(ctx, p.ID, lead.ID, "https://x.example/h", []string{tasks.EventGoldDecided, tasks.EventGoldDecided})
	if err != nil || len(h.Events) != 1 || len(h.Secret) != 64 {
		t.Fatalf("CreateWebhook = %+v, %v", h, err)
	}
	if n, err := s.QueueWebhookEvents(ctx); err != nil || n != 0 {
		t.Fatalf("the imported gold was announced: %d, %v", n, err)
	}
	hooks, _ := s.Webhooks(ctx, p.ID)
	if len(hooks) != 1 || hooks[0].Secret != "" {
		t.Fatalf("Webhooks = %+v", hooks)
	}
	if err := s.DeleteWebhook(ctx, p.ID+1, h.ID); tasks.ErrorCode(err) != tasks.ENotFound {
		t.Fatalf("delete from another project: %v", err)
	}
	if err := s.DeleteWebhook(ctx, p.ID, h.ID); err != nil {
		t.Fatal(err)
	}
}
