// Package web is annotate's HTTP layer: echo handlers, sessions, login,
// CSRF protection and the view models handed to the templ pages. It holds
// no domain logic; that lives in package tasks.
package web

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/sync/semaphore"

	"annotate/internal/app"
	"annotate/internal/assiststore"
	"annotate/internal/authn"
	"annotate/internal/netguard"
	"annotate/internal/tasks"
	"annotate/internal/webhooks"
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
	// TrustedProxies are the proxies whose X-Forwarded-For header is
	// believed; without any, the client address is the socket's.
	TrustedProxies []*net.IPNet
	// MaxConcurrentLogins bounds password checks running at once (default:
	// the number of CPUs, at least 2); LoginWait is how long a login waits
	// for one before the server answers 503 busy (default 3 s). A check
	// costs one CPU about 75 ms at bcrypt's default cost (2 cores, 2026), so
	// two slots take about 26 logins a second and the wait serves a queue of
	// about 80 before "busy".
	MaxConcurrentLogins int
	LoginWait           time.Duration
	// MaxConcurrentExports bounds export downloads (the export page's and
	// the API's) streaming at once; more are answered 503 with
	// Retry-After. Each holds a read connection of the database while it
	// streams, so the bound is kept below the store's read connections
	// (default: half of them, at least 1).
	MaxConcurrentExports int
	// ExportWriteTimeout is how long each chunk (64 KiB) of an export
	// download may take to reach the client; a client that stops reading
	// for longer is cut off, and its export's connection freed (default
	// 60 s).
	ExportWriteTimeout time.Duration
	// ReportMaxAge lets the report page show a report built up to this
	// long ago while labels keep changing, and build the current one in
	// the background (see pageReport); 0 means every view is current.
	ReportMaxAge time.Duration
	// Assist starts assistant runs for leads; nil means runs are started
	// from the command line only.
	Assist AssistRunner
	// WebhookInterval is how often webhook events are looked for and
	// delivered; 0 means webhooks are not delivered.
	WebhookInterval time.Duration
	// WebhookBackoff is the wait before a failed delivery's first retry;
	// it doubles with each retry. 0 means 30 seconds.
	WebhookBackoff time.Duration
	// PublicURL is the address people reach the server at, such as
	// https://annotate.example.org; absolute links (one-time password
	// links, study entry links) are made from it and never from a
	// request's Host header. Empty means such links are given as paths.
	PublicURL string
	// WebhookAllowHosts names hosts (names or addresses) webhooks may
	// reach although they are on the server's own network; every other
	// loopback, private, link-local or reserved address is refused.
	WebhookAllowHosts []string
}

// Server serves annotate's pages.
type Server struct {
	store      *tasks.Store
	app        *app.App
	entries    *entryLimiter
	cfg        Config
	hookPolicy netguard.Policy
	echo       *echo.Echo
	sessions   *dbStore
	throttle   *throttle
	logins     *semaphore.Weighted
	exports    *semaphore.Weighted // export downloads streaming (exportlimit.go)
	log        *slog.Logger
	runs       *runManager
	evidence   evidenceCache
	reports    reportCache
	evals      evalCache
	// active is who was served last and when (activity.go).
	active   activity
	hooks    *webhookSender
	webhooks webhookStore
	assists  *assiststore.Store
	authn    *authn.Store
	// gold runs the lead's long gold operations (leadruns.go).
	gold goldRuns
	// exportSink, when set (by tests), stands between an export and its
	// download's writer.
	exportSink func(io.Writer) io.Writer
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
	public, err := ParsePublicURL(cfg.PublicURL)
	if err != nil {
		return nil, err
	}
	cfg.PublicURL = public
	if cfg.MaxUploadBytes == 0 {
		cfg.MaxUploadBytes = 64 << 20
	}
	if cfg.MaxConcurrentLogins <= 0 {
		cfg.MaxConcurrentLogins = max(2, runtime.NumCPU())
	}
	if cfg.LoginWait <= 0 {
		cfg.LoginWait = 3 * time.Second
	}
	cfg.MaxConcurrentExports = exportLimit(cfg.MaxConcurrentExports, store)
	if cfg.ExportWriteTimeout <= 0 {
		cfg.ExportWriteTimeout = defaultExportWriteTimeout
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
	logins := authn.New(store)
	cs := &dbStore{
		store:      logins,
		cookieName: cookieName(cfg.SecureCookies),
		secure:     cfg.SecureCookies,
		now:        cfg.Now,
		maxAge:     cfg.SessionMaxAge,
		idle:       cfg.SessionIdle,
		csrfKey:    csrfKey,
	}
	s := &Server{
		app:      app.New(store),
		entries:  newEntryLimiter(cfg.Now, entryMaxKeys),
		store:    store,
		cfg:      cfg,
		sessions: cs,
		throttle: newThrottle(cfg.Now, throttleMaxKeys),
		logins:   newLoginSemaphore(cfg.MaxConcurrentLogins),
		exports:  semaphore.NewWeighted(int64(cfg.MaxConcurrentExports)),
		log:      cfg.Logger,
		runs:     newRunManager(cfg.Assist, cfg.Logger),
		webhooks: webhooks.New(store),
		assists:  assiststore.New(store),
		authn:    logins,
		gold:     store,
	}
	s.app.SetClock(cfg.Now)
	s.reports.failed = func(key reportKey, err error) {
		s.log.Error("background report build", "project", key.project, "version", key.version, "err", err)
	}
	if err := s.interruptRuns(ctx); err != nil {
		return nil, err
	}
	s.echo = echo.New()
	s.echo.HideBanner = true
	s.echo.HidePort = true
	s.echo.HTTPErrorHandler = s.handleError
	s.echo.IPExtractor = clientIP(cfg.TrustedProxies)
	s.hookPolicy = netguard.NewPolicy(cfg.WebhookAllowHosts)
	s.routes()
	s.startWebhooks()
	return s, nil
}

// Handler returns the server's HTTP handler.
func (s *Server) Handler() http.Handler { return s.echo }

// clientIP decides where a request comes from: the socket's address, or,
// when the socket is one of the trusted proxies, the nearest address in
// X-Forwarded-For that is not a trusted proxy. X-Real-IP is never read.
func clientIP(trusted []*net.IPNet) echo.IPExtractor {
	if len(trusted) == 0 {
		return echo.ExtractIPDirect()
	}
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, n := range trusted {
		opts = append(opts, echo.TrustIPRange(n))
	}
	return echo.ExtractIPFromXFFHeader(opts...)
}

// ParsePublicURL checks a public URL as given to --public-url: http or
// https, a host, no user, query or fragment, and no path but "/". It
// returns the URL without a trailing slash.
func ParsePublicURL(raw string) (string, error) {
	if raw == "" {
		return "", nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		u.RawQuery != "" || u.Fragment != "" || (u.Path != "" && u.Path != "/") {
		return "", fmt.Errorf("public URL %q: give the scheme and host people use, such as https://annotate.example.org", raw)
	}
	return u.Scheme + "://" + u.Host, nil
}

// absoluteURL returns path on the public URL and true, or the path alone
// and false when no public URL is configured.
func (s *Server) absoluteURL(path string) (string, bool) {
	if s.cfg.PublicURL == "" {
		return path, false
	}
	return s.cfg.PublicURL + path, true
}

// ParseTrustedProxies reads a comma-separated list of CIDR ranges or
// single addresses, as given to --trusted-proxy.
func ParseTrustedProxies(list string) ([]*net.IPNet, error) {
	var out []*net.IPNet
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if !strings.Contains(f, "/") {
			ip := net.ParseIP(f)
			if ip == nil {
				return nil, fmt.Errorf("trusted proxy %q: not an address or CIDR range", f)
			}
			bits := 128
			if ip.To4() != nil {
				ip, bits = ip.To4(), 32
			}
			out = append(out, &net.IPNet{IP: ip, Mask: net.CIDRMask(bits, bits)})
			continue
		}
		_, n, err := net.ParseCIDR(f)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q: %w", f, err)
		}
		out = append(out, n)
	}
	return out, nil
}
