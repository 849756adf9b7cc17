package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"annotate/internal/app"
	"annotate/internal/assist"
	"annotate/internal/tasks"
	"annotate/internal/web"
)

// goldIndexEvery is how often the server looks for a backlog of the gold
// index that other processes left (see tasks.Store.KeepGoldIndexCurrent):
// its own imports wake it at once.
const goldIndexEvery = 10 * time.Second

func runServe(ctx context.Context, e env, args []string) error {
	fs := newFlags(e, "serve", "serve [--db PATH] [--addr HOST:PORT] [--demo] [--secure-cookies] [--trusted-proxy CIDR,...] [--llm-url URL --llm-model NAME]")
	db := dbFlag(e, fs)
	defAddr := e.getenv("ANNOTATE_ADDR")
	if defAddr == "" {
		defAddr = "127.0.0.1:8080"
	}
	addr := fs.String("addr", defAddr, "address to listen on (env ANNOTATE_ADDR)")
	demoFlag := fs.Bool("demo", false, "create the demo project and its accounts first (idempotent)")
	secure := fs.Bool("secure-cookies", false, "mark cookies Secure (set when served over HTTPS, e.g. behind a proxy)")
	logLevel := fs.String("log-level", cmp.Or(e.getenv("ANNOTATE_LOG_LEVEL"), "info"), "what the log keeps: debug (every request), info (and requests refused for the client's fault), warn or error (env ANNOTATE_LOG_LEVEL)")
	publicURL := fs.String("public-url", e.getenv("ANNOTATE_PUBLIC_URL"), "the address people reach this server at, such as https://annotate.example.org (env ANNOTATE_PUBLIC_URL); one-time password links are made from it, never from a request's Host header")
	hookHosts := fs.String("webhook-allow-hosts", e.getenv("ANNOTATE_WEBHOOK_ALLOW_HOSTS"), "comma-separated host names or addresses that webhooks may reach although they are on the server's own network (env ANNOTATE_WEBHOOK_ALLOW_HOSTS); every other loopback, private, link-local or reserved address is refused")
	proxies := fs.String("trusted-proxy", e.getenv("ANNOTATE_TRUSTED_PROXY"), "comma-separated CIDR ranges of reverse proxies whose X-Forwarded-For is believed (env ANNOTATE_TRUSTED_PROXY); without it the client address is the socket's")
	pprofAddr := fs.String("pprof", "", "serve Go's profiler on this loopback address (e.g. 127.0.0.1:6060); off by default")
	llm := addLLMFlags(e, fs)
	loginChecks := fs.Int("login-checks", 0, "password checks running at once; more logins wait up to 3 s, then get \"busy, retry\" (default: the number of CPUs, at least 2)")
	llmConcurrency := fs.Int("llm-concurrency", 4, "sentences, and requests, in progress at once in an assistant run started from the web")
	headerTimeout := fs.Duration("header-timeout", 10*time.Second, "how long a client may take to send a request's headers before its connection is closed, so that stalled clients cannot hold connections open (1s to 5m)")
	busyTimeout := fs.Duration("busy-timeout", tasks.DefaultBusyTimeout, "how long a request waits for the database's write lock while another process (an import, a backup) holds it, before it is answered \"busy, retry\" (100ms to 5m)")
	if err := parse(e, fs, args); err != nil {
		return helpOK(err)
	}
	if *busyTimeout < 100*time.Millisecond || *busyTimeout > 5*time.Minute {
		fmt.Fprintf(e.stderr, "annotate serve: --busy-timeout: %v is not between 100ms and 5m\n", *busyTimeout)
		return errUsage
	}
	if *headerTimeout < time.Second || *headerTimeout > 5*time.Minute {
		fmt.Fprintf(e.stderr, "annotate serve: --header-timeout: %v is not between 1s and 5m\n", *headerTimeout)
		return errUsage
	}
	trusted, err := web.ParseTrustedProxies(*proxies)
	if err != nil {
		fmt.Fprintf(e.stderr, "annotate serve: --trusted-proxy: %v\n", err)
		return errUsage
	}
	store, err := tasks.Open(ctx, *db, tasks.WithBusyTimeout(*busyTimeout), migrationNotice(e, *db))
	if err != nil {
		return err
	}
	defer store.Close()
	// The address and the demo logins are what a newcomer needs, so they
	// are printed first, once the port is open; the rest follows.
	var details, logins bytes.Buffer
	if w := store.PermissionWarning(); w != "" {
		fmt.Fprintln(e.stderr, "annotate: warning:", w)
	}
	if *demoFlag {
		if err := app.New(store).SetupDemo(ctx, &details, &logins); err != nil {
			return fmt.Errorf("demo: %w", err)
		}
	}
	level, err := web.ParseLogLevel(*logLevel)
	if err != nil {
		fmt.Fprintf(e.stderr, "annotate serve: --log-level: %q is not one of debug, info, warn, error\n", *logLevel)
		return errUsage
	}
	logger := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: level}))
	if *loginChecks < 0 {
		fmt.Fprintln(e.stderr, "annotate serve: --login-checks must be at least 1 (or 0 for the default)")
		return errUsage
	}
	if *llmConcurrency < 1 {
		fmt.Fprintln(e.stderr, "annotate serve: --llm-concurrency must be at least 1")
		return errUsage
	}
	if _, err := assist.ParseSchemaMode(*llm.schema); err != nil {
		fmt.Fprintf(e.stderr, "annotate serve: --llm-schema: %q is not one of strict, portable, json_object\n", *llm.schema)
		return errUsage
	}
	runner := assistRunner(e, llm, store, *llmConcurrency)
	if runner == nil {
		fmt.Fprintln(&details, "annotate: no model endpoint (--llm-url or ANNOTATE_LLM_URL); assistant runs can be imported or started from the command line")
	}
	srv, err := web.New(ctx, store, web.Config{SecureCookies: *secure, Logger: logger, Assist: runner, TrustedProxies: trusted, WebhookInterval: 2 * time.Second, WebhookAllowHosts: splitList(*hookHosts), PublicURL: *publicURL, ReportMaxAge: 30 * time.Second, MaxConcurrentLogins: *loginChecks})
	if err != nil {
		return err
	}
	// Stop assistant runs and let them record how far they got before the
	// store closes.
	defer srv.Close()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	hs := &http.Server{
		Handler:           srv.Handler(),
		ReadHeaderTimeout: *headerTimeout,
		ReadTimeout:       2 * time.Minute,
		WriteTimeout:      2 * time.Minute,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	if *pprofAddr != "" {
		if err := servePprof(*pprofAddr, e); err != nil {
			return err
		}
	}
	fmt.Fprintf(e.stdout, "annotate: serving %s on http://%s (open it in a browser; Ctrl+C stops)\n", *db, ln.Addr())
	io.Copy(e.stdout, &logins)
	io.Copy(e.stdout, &details)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	// Read the rounds' sentence counts the adjudication queue shows, then
	// resolve, in small transactions beside the traffic, summaries that
	// became ready before gold was resolved at submission, then bring the
	// gold index (the adjudication queue's) up to date and keep it so
	// after imports and other processes' writes.
	resolveCtx, stopResolve := context.WithCancel(ctx)
	resolved := make(chan struct{})
	go func() {
		defer close(resolved)
		if err := store.WarmRoundMembers(resolveCtx); err != nil && resolveCtx.Err() == nil {
			logger.Warn("reading the rounds' sentence counts", "err", err)
		}
		if st, err := store.ResolveAllReady(resolveCtx); err != nil && resolveCtx.Err() == nil {
			logger.Warn("resolving ready summaries", "err", err)
		} else if st.Summaries > 0 {
			logger.Info("resolved ready summaries", "summaries", st.Summaries, "unanimous", st.Unanimous, "pending", st.Pending)
		}
		store.KeepGoldIndexCurrent(resolveCtx, goldIndexEvery, func(err error) { logger.Warn("refreshing the gold index", "err", err) })
	}()
	defer func() { stopResolve(); <-resolved }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	// Finish in-flight requests, then stop.
	fmt.Fprintln(e.stdout, "annotate: stopping: finishing the requests in flight")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdownCtx); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	fmt.Fprintln(e.stdout, "annotate: stopped")
	return nil
}
