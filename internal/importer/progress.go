package importer

import (
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
)

// withProgress wraps r so that reading it draws a byte progress bar on w;
// size <= 0 draws a spinner. The returned function finishes the bar.
func withProgress(w io.Writer, name string, size int64, r io.Reader) (io.Reader, func()) {
	if w == nil {
		return r, func() {}
	}
	if size <= 0 {
		size = -1
	}
	bar := progressbar.NewOptions64(size,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(name),
		progressbar.OptionShowBytes(true),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }),
	)
	pr := progressbar.NewReader(r, bar)
	return &pr, func() { _ = bar.Finish() }
}
