package web

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"syscall"
	"time"

	"github.com/labstack/echo/v4"

	"annotate/internal/domain"
	"annotate/internal/export"
	"annotate/internal/tasks"
)

// An export download holds a read connection of the database for as long
// as it streams. Two bounds keep downloads from taking the connections
// every page needs: at most MaxConcurrentExports stream at once (fewer
// than the read connections), and a client that stops reading is cut off
// once a chunk of the export waits ExportWriteTimeout to be sent.

// defaultExportWriteTimeout is how long one chunk (64 KiB) of an export
// may take to be sent before the download is cut off.
const defaultExportWriteTimeout = 60 * time.Second

// exportRetryAfter is the Retry-After, in seconds, of a download refused
// because too many are running.
const exportRetryAfter = 15

// errExportsBusy refuses a download while MaxConcurrentExports are
// running; it is answered 503 and logged as a warning, not a fault.
var errExportsBusy = domain.Errorf(domain.EUnavailable,
	"Too many exports are being downloaded right now. Please try again in a minute.")

// exportLimit is how many export downloads may stream at once: the
// configured number, else half the store's read connections; at least one,
// and always fewer than the read connections.
func exportLimit(configured int, store *tasks.Store) int {
	pool := store.ReadConns()
	n := configured
	if n <= 0 {
		n = pool / 2
	}
	return max(1, min(n, pool-1))
}

// exportSlot takes one of the export download slots for the request and
// returns the function that gives it back; errExportsBusy when none is
// free.
func (s *Server) exportSlot(c echo.Context) (release func(), err error) {
	if !s.exports.TryAcquire(1) {
		s.requestLog(c).Warn("export refused: too many downloads at once", "limit", s.cfg.MaxConcurrentExports)
		c.Response().Header().Set("Retry-After", strconv.Itoa(exportRetryAfter))
		return nil, errExportsBusy
	}
	return func() { s.exports.Release(1) }, nil
}

// exportWriter is the response of an export download: before each write
// it moves the connection's write deadline ExportWriteTimeout ahead, so a
// client that stops reading fails the write once that passes, and the
// export ends and gives back its connection.
type exportWriter struct {
	w       io.Writer
	rc      *http.ResponseController
	timeout time.Duration
	// err is the first error writing to the client met.
	err error
}

// sink is where an export writes: w, or what the tests put before it.
func (s *Server) sink(w *exportWriter) io.Writer {
	if s.exportSink != nil {
		return s.exportSink(w)
	}
	return w
}

func (s *Server) exportWriter(res *echo.Response) *exportWriter {
	return &exportWriter{w: res, rc: http.NewResponseController(res), timeout: s.cfg.ExportWriteTimeout}
}

// extend moves the write deadline ahead; the end of the response (the
// last chunk, the trailers) is sent under it after the handler returns.
func (w *exportWriter) extend() error {
	err := w.rc.SetWriteDeadline(time.Now().Add(w.timeout))
	if errors.Is(err, http.ErrNotSupported) {
		return nil
	}
	return err
}

func (w *exportWriter) Write(p []byte) (int, error) {
	if err := w.extend(); err != nil {
		if w.err == nil {
			w.err = err
		}
		return 0, err
	}
	n, err := w.w.Write(p)
	if err != nil && w.err == nil {
		w.err = err
	}
	return n, err
}

// exportStopped logs why an export download that had started stopped
// part-way. A client that went away or stopped reading is no fault of the
// server: it is logged without the error, whose text names the
// connection's addresses. Anything else (the database, the export) is
// logged as an error with its cause.
func (s *Server) exportStopped(c echo.Context, h export.Header, err error, w *exportWriter) {
	log := s.requestLog(c)
	switch {
	case errors.Is(w.err, os.ErrDeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded):
		log.Warn("export download ended by client", "project", h.Project, "what", h.What, "reason", "stopped reading")
	case endedByClient(c.Request().Context(), err, w.err):
		log.Info("export download ended by client", "project", h.Project, "what", h.What, "reason", "connection closed")
	default:
		log.Error("export failed part-way", "project", h.Project, "what", h.What, "err", err)
	}
}

// endedByClient reports whether an export stopped with err because its
// client went away: writing to it failed (a broken pipe, a reset or
// closed connection), or the client cancelled the request, which stops
// the export's reads. A write deadline that passed is exportStopped's
// first case.
func endedByClient(ctx context.Context, err, writeErr error) bool {
	if writeErr != nil {
		return true
	}
	for _, gone := range []error{syscall.EPIPE, syscall.ECONNRESET, net.ErrClosed} {
		if errors.Is(err, gone) {
			return true
		}
	}
	return errors.Is(ctx.Err(), context.Canceled) && tasks.Canceled(err)
}
