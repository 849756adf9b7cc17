// Package web is annotate's HTTP layer: echo handlers, sessions, login,
// CSRF protection and the view models handed to the templ pages. It holds
// no domain logic; that lives in package tasks.
package web

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"annotate/internal/tasks"
)

// Config is the web server's configuration.
type Config struct {
	// SecureCookies marks cookies Secure; set it when served over TLS
	// (directly or behind a proxy).
	SecureCookies bool
	// MaxUploadBytes bounds an import upload.
	MaxUploadBytes int64
	// Logger receives request errors; nil means slog.Default().
	Logger *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// SessionMaxAge is how long a login lasts at most (default 14 days).
	SessionMaxAge time.Duration
	// SessionIdle ends a session unused for this long (default 24 hours).
	SessionIdle time.Duration
	// Assist starts assistant runs for leads; nil means runs are started
	// from the command line only.
	Assist AssistRunner
}

// Server serves annotate's pages.
type Server struct {
	store    *tasks.Store
	cfg      Config
	echo     *echo.Echo
	sessions *dbStore
	throttle *throttle
	log      *slog.Logger
	runs     *runManager
	evidence evidenceCache
}

// New builds a server over an open store. Session keys are taken from the
// database, created on first start.
func New(ctx context.Context, store *tasks.Store, cfg Config) (*Server, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.MaxUploadBytes == 0 {
		cfg.MaxUploadBytes = 64 << 20
	}
	if cfg.SessionMaxAge == 0 {
		cfg.SessionMaxAge = 14 * 24 * time.Hour
	}
	if cfg.SessionIdle == 0 {
		cfg.SessionIdle = 24 * time.Hour
	}
	csrfKey, err := store.Secret(ctx, "csrf-key", 32)
	if err != nil {
		return nil, err
	}
	cs := &dbStore{
		store:      store,
		cookieName: sessionName,
		secure:     cfg.SecureCookies,
		now:        cfg.Now,
		maxAge:     cfg.SessionMaxAge,
		idle:       cfg.SessionIdle,
		csrfKey:    csrfKey,
	}
	s := &Server{
		store:    store,
		cfg:      cfg,
		sessions: cs,
		throttle: newThrottle(cfg.Now),
		log:      cfg.Logger,
		runs:     newRunManager(cfg.Assist, cfg.Logger),
	}
	if err := s.interruptRuns(ctx); err != nil {
		return nil, err
	}
	s.echo = echo.New()
	s.echo.HideBanner = true
	s.echo.HidePort = true
	s.echo.HTTPErrorHandler = s.handleError
	s.routes()
	return s, nil
}

// Handler returns the server's HTTP handler.
func (s *Server) Handler() http.Handler { return s.echo }
