// Package static embeds the stylesheet, the little JavaScript the pages need
// and the vendored htmx, so the binary serves them itself.
package static

import "embed"

// FS holds app.css, app.js, tables.js (tables that read on a phone), the adjudication page's adjudicate.css and
// adjudicate.js, the report page's report.css, and vendor/.
//
//go:embed app.css app.js tables.js adjudicate.css adjudicate.js report.css vendor/htmx.min.js
var FS embed.FS
