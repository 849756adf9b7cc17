// Package web is annotate's HTTP layer: echo handlers, sessions, login,
// CSRF protection and the view models handed to the templ pages. It holds
// no domain logic; that lives in package tasks.
package web

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/gorilla/sessions"
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
	// Assist starts assistant runs for leads; nil means runs are started
	// from the command line only.
	Assist AssistRunner
	// WebhookInterval is how often webhook events are looked for and
	// delivered; 0 means webhooks are not delivered.
	WebhookInterval time.Duration
	// WebhookBackoff is the wait before a failed delivery's first retry;
	// it doubles with each retry. 0 means 30 seconds.
	WebhookBackoff time.Duration
}

// Server serves annotate's pages.
type Server struct {
	store    *tasks.Store
	cfg      Config
	echo     *echo.Echo
	sessions *sessions.CookieStore
	throttle *throttle
	log      *slog.Logger
	runs     *runManager
	evidence evidenceCache
	hooks    *webhookSender
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
	if cfg.WebhookBackoff == 0 {
		cfg.WebhookBackoff = 30 * time.Second
	}
	if cfg.MaxUploadBytes == 0 {
		cfg.MaxUploadBytes = 64 << 20
	}
	hashKey, err := store.Secret(ctx, "session-hash-key", 64)
	if err != nil {
		return nil, err
	}
	blockKey, err := store.Secret(ctx, "session-block-key", 32)
	if err != nil {
		return nil, err
	}
	cs := sessions.NewCookieStore(hashKey, blockKey)
	cs.Options = &sessions.Options{
		Path:     "/",
		MaxAge:   14 * 24 * 3600,
		HttpOnly: true,
		Secure:   cfg.SecureCookies,
		SameSite: http.SameSiteLaxMode,
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
	s.startWebhooks()
	return s, nil
}

// Handler returns the server's HTTP handler.
func (s *Server) Handler() http.Handler { return s.echo }
