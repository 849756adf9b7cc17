package report

import "encoding/csv"

// writeRow writes one record of a report CSV table or ratings file. Every
// cell the report writes as CSV passes here, so a change to how cells are
// written (neutralising spreadsheet formulas, say) is made in one place.
// Write errors surface from the writer's Error after Flush.
func writeRow(cw *csv.Writer, cells []string) {
	_ = cw.Write(cells)
}
