package web

import (
	"context"

	"annotate/internal/tasks"
	"annotate/web/templates"
)

// assistFor returns what the assistant panel shows for each sentence of a
// summary, keyed by sentence id.
func (s *Server) assistFor(ctx context.Context, p *tasks.Project, doc *tasks.Document, sum *tasks.Summary) (map[int64]templates.AssistView, error) {
	out := map[int64]templates.AssistView{}
	return out, nil
}
