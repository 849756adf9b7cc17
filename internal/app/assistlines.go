package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"

	"annotate/internal/assist"
	"annotate/internal/assiststore"
)

// resultLine is one line of a results file, decoded and checked against
// the project.
type resultLine struct {
	line int
	// fatal stops the reading: a line too long, a failed read.
	fatal error
	// problems are what is wrong with the line, without its place; a line
	// with problems has nothing else.
	problems []string
	rec      assist.ExportRecord
	sid      int64  // the sentence's id
	data     []byte // the result as stored
	label    string // the Adjudicator's label of a complete result
}

// lineChunk is lines read in a row, decoded together on one goroutine.
type lineChunk struct {
	raw   [][]byte
	nums  []int // the number of each line
	lines []resultLine
	ready chan struct{} // closed once lines are decoded
}

// chunkLines is how many lines a lineChunk holds at most.
const chunkLines = 128

// resultLines reads the lines of a results file and decodes and checks
// them on as many goroutines as there are processors (decoding JSON is
// most of an import's work), calling each in file order until it returns
// false or the lines run out. Memory holds a few chunks of lines at a
// time. All goroutines have ended when it returns.
func resultLines(r io.Reader, targets map[string]*assiststore.AssistTarget, each func(*resultLine) bool) {
	dec := assist.NewDecoder(r)
	workers := max(runtime.GOMAXPROCS(0), 1)
	work := make(chan *lineChunk, workers)
	ordered := make(chan *lineChunk, 2*workers)
	quit := make(chan struct{})
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for c := range work {
				c.decode(targets)
			}
		})
	}
	wg.Go(func() {
		defer close(ordered)
		defer close(work)
		for {
			c := &lineChunk{ready: make(chan struct{})}
			var fatal *resultLine
			for len(c.raw) < chunkLines {
				raw, n, err := dec.ReadLine()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					msg, _ := strings.CutPrefix(err.Error(), fmt.Sprintf("line %d: ", n))
					fatal = &resultLine{line: n, fatal: errors.New(msg)}
					break
				}
				c.raw, c.nums = append(c.raw, raw), append(c.nums, n)
			}
			if len(c.raw) > 0 {
				select {
				case work <- c:
				case <-quit:
					return
				}
				select {
				case ordered <- c:
				case <-quit:
					return
				}
			}
			if fatal != nil {
				c := &lineChunk{lines: []resultLine{*fatal}, ready: make(chan struct{})}
				close(c.ready)
				select {
				case ordered <- c:
				case <-quit:
				}
				return
			}
			if len(c.raw) < chunkLines {
				return
			}
		}
	})
	defer wg.Wait()
	defer close(quit)
	for c := range ordered {
		<-c.ready
		for i := range c.lines {
			if !each(&c.lines[i]) {
				return
			}
		}
	}
}

// decode decodes and checks the chunk's lines.
func (c *lineChunk) decode(targets map[string]*assiststore.AssistTarget) {
	defer close(c.ready)
	c.lines = make([]resultLine, len(c.raw))
	for i, raw := range c.raw {
		l := &c.lines[i]
		l.line = c.nums[i]
		c.raw[i] = nil
		rec, err := assist.DecodeLine(raw, l.line)
		if err != nil {
			l.problems = append(l.problems, strings.TrimPrefix(err.Error(), fmt.Sprintf("line %d: ", l.line)))
			continue
		}
		sid, ok := checkRecord(rec, targets, func(format string, args ...any) { l.problems = append(l.problems, fmt.Sprintf(format, args...)) })
		if !ok {
			continue
		}
		data, err := json.Marshal(rec.Result)
		if err != nil {
			l.fatal = err
			continue
		}
		l.rec, l.sid, l.data = rec, sid, data
		if rec.Result.Status == assist.StatusOK {
			l.label = string(rec.Result.Adjudicator.Label)
		}
	}
}
