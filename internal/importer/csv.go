package importer

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"
)

// csvRow gives access to one CSV record by column name.
type csvRow struct {
	cols   map[string]int
	fields []string
}

// get returns the named column, trimmed; "" when the file lacks it.
func (r csvRow) get(col string) string {
	if i, ok := r.cols[col]; ok && i < len(r.fields) {
		return strings.TrimSpace(r.fields[i])
	}
	return ""
}

// eachCSVRow reads a CSV file with a header row and calls fn for every
// record, located by the line it starts on. Missing required columns, broken
// quoting and invalid UTF-8 are reported; a record with the wrong number of
// fields is reported and skipped.
// partialColumns are the columns of a published format that a file
// declared partial may leave out.
var partialColumns = []string{"annotation_id", "exp", "type"}

func eachCSVRow(name string, r io.Reader, c *collector, required []string, fn func(row csvRow, at *Error)) {
	cr := csv.NewReader(r)
	header, err := cr.Read()
	if err != nil {
		if err == io.EOF {
			c.addf(&Error{File: name}, "", "the file is empty: nothing to import")
		} else {
			c.addf(&Error{File: name, Line: 1}, "", "reading the header: %v", csvMessage(err))
		}
		return
	}
	cols := map[string]int{}
	for i, h := range header {
		col := strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		if !utf8.ValidString(col) {
			c.addf(&Error{File: name, Line: 1}, fmt.Sprintf("column %d", i+1), "not valid UTF-8")
			return
		}
		if first, dup := cols[col]; dup && col != "" {
			c.addf(&Error{File: name, Line: 1}, col, "the column is given twice (columns %d and %d)", first+1, i+1)
			return
		}
		cols[col] = i
	}
	var missing []string
	for _, col := range required {
		if _, ok := cols[col]; !ok {
			missing = append(missing, col)
		}
	}
	if len(missing) > 0 {
		hint := ""
		if !c.partial && slices.ContainsFunc(missing, func(col string) bool { return slices.Contains(partialColumns, col) }) {
			hint = " (if the file leaves these out on purpose, import it as partial: --partial, or the Import page's box)"
		}
		c.addf(&Error{File: name, Line: 1}, "", "missing column %s%s", strings.Join(missing, ", "), hint)
		return
	}
	for rows := 0; !c.full(); rows++ {
		fields, err := cr.Read()
		if err == io.EOF {
			if rows == 0 {
				c.addf(&Error{File: name, Line: 1}, "", "the file has a header and no rows: nothing to import")
			}
			return
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			c.addf(&Error{File: name, Line: pe.StartLine}, "", "%s", csvMessage(err))
			if errors.Is(err, csv.ErrFieldCount) {
				continue
			}
			return
		}
		if err != nil {
			c.addf(&Error{File: name}, "", "reading: %v", err)
			return
		}
		line, _ := cr.FieldPos(0)
		at := &Error{File: name, Line: line}
		valid := true
		for i, f := range fields {
			if !utf8.ValidString(f) {
				c.addf(at, header[i], "not valid UTF-8")
				valid = false
			}
		}
		if valid {
			fn(csvRow{cols: cols, fields: fields}, at)
		}
	}
}

// csvMessage keeps the reason of a csv.ParseError; the location is reported
// separately.
func csvMessage(err error) string {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return "invalid CSV: " + pe.Err.Error()
	}
	return err.Error()
}
