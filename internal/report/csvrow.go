package report

import "annotate/internal/csvsafe"

// writeRow writes one record of a report CSV table or ratings file. Every
// cell the report writes as CSV passes here, through a writer that
// neutralises spreadsheet formulas (see csvsafe). Write errors surface from
// the writer's Error after Flush.
func writeRow(cw *csvsafe.Writer, cells []string) {
	_ = cw.Write(cells)
}
