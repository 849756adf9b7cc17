package web

import "sort"

// Routes lists every registered route as "METHOD /path", sorted. The
// authorization matrix test uses it to insist that every route has an
// entry.
func (s *Server) Routes() []string {
	var out []string
	for _, r := range s.echo.Routes() {
		out = append(out, r.Method+" "+r.Path)
	}
	sort.Strings(out)
	return out
}
