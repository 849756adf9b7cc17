package loadgen

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Options bound and shape a load run.
type Options struct {
	// BaseURL of the server; only loopback addresses are accepted.
	BaseURL    string
	Project    string // default "bench"
	Annotators int    // concurrent annotators, accounts AnnotatorName(1..N)
	Password   string
	// Duration and MaxRequests bound the run; it stops at whichever
	// comes first, or when every annotator's queue is done.
	Duration    time.Duration
	MaxRequests int
	// Think is the mean pause between an annotator's actions.
	Think time.Duration
	// Ramp spreads the annotators' logins evenly over this time, as people
	// arrive over a morning rather than in one instant.
	Ramp time.Duration
	Seed uint64
	// Leads play project leads beside the annotators (accounts
	// LeadName(1..Leads)): each opens the adjudication queue, an
	// adjudication page from it, the agreement report and a gold export of
	// the calibration round, pausing LeadThink between them.
	Leads     int
	LeadThink time.Duration
	// OnAck, if set, is called with the running count after each
	// acknowledged save (from the annotators' goroutines).
	OnAck func(n int)
}

// Ack is a sentence label the server acknowledged with 200.
type Ack struct {
	User       string
	Assignment int64
	Sentence   int64
	Label      string
}

// Result is what a run measured.
type Result struct {
	Elapsed  time.Duration
	Requests int64
	Routes   map[string]*RouteStats
	Acks     []Ack
	Errors   []string // the first errors, for the report
	Failed   int64    // requests that failed or got an unexpected status
	// Timeline is every request in the order they ended, with when each
	// started: what was under way while a slow one waited.
	Timeline []Event
}

// Event is one request of a run.
type Event struct {
	Start   time.Duration // since the run started
	Latency time.Duration
	Route   string
	Failed  bool
}

// RouteStats are one route's latencies and failures.
type RouteStats struct {
	Latencies []time.Duration
	Errors    int
}

// CheckLoopback refuses any target that is not on this machine.
func CheckLoopback(base string) error {
	u, err := url.Parse(base)
	if err != nil {
		return err
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("load runs only against loopback addresses (127.0.0.0/8, ::1, localhost), not %q", host)
	}
	return nil
}

type recorder struct {
	start    time.Time
	mu       sync.Mutex
	res      *Result
	requests atomic.Int64
	max      int64
	onAck    func(int)
}

func (r *recorder) record(route string, d time.Duration, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := r.res.Routes[route]
	if st == nil {
		st = &RouteStats{}
		r.res.Routes[route] = st
	}
	st.Latencies = append(st.Latencies, d)
	r.res.Timeline = append(r.res.Timeline, Event{Start: time.Since(r.start) - d, Latency: d, Route: route, Failed: err != nil})
	if err != nil {
		st.Errors++
		r.res.Failed++
		if len(r.res.Errors) < 20 {
			r.res.Errors = append(r.res.Errors, route+": "+err.Error())
		}
	}
}

func (r *recorder) ack(a Ack) {
	r.mu.Lock()
	r.res.Acks = append(r.res.Acks, a)
	n := len(r.res.Acks)
	r.mu.Unlock()
	if r.onAck != nil {
		r.onAck(n)
	}
}

// errBudget stops an annotator when the run's request budget is spent.
var errBudget = errors.New("request budget spent")

// Run plays opts.Annotators annotators until the time or request budget
// runs out, and returns what it measured. It stops by itself.
func Run(ctx context.Context, opts Options) (*Result, error) {
	if opts.Project == "" {
		opts.Project = "bench"
	}
	return play(ctx, opts, (*annotator).work)
}

// play runs work for opts.Annotators annotators, their starts spread over
// opts.Ramp, and opts.Leads leads beside them, until the time or request
// budget runs out; only against loopback addresses.
func play(ctx context.Context, opts Options, work func(*annotator, context.Context)) (*Result, error) {
	if err := CheckLoopback(opts.BaseURL); err != nil {
		return nil, err
	}
	if opts.Duration <= 0 {
		opts.Duration = 30 * time.Second
	}
	if opts.MaxRequests <= 0 {
		opts.MaxRequests = 100000
	}
	ctx, cancel := context.WithTimeout(ctx, opts.Duration)
	defer cancel()
	rec := &recorder{start: time.Now(), res: &Result{Routes: map[string]*RouteStats{}}, max: int64(opts.MaxRequests), onAck: opts.OnAck}
	start := time.Now()
	var wg sync.WaitGroup
	for i := 1; i <= opts.Annotators; i++ {
		wg.Add(1)
		delay := time.Duration(0)
		if opts.Ramp > 0 {
			delay = opts.Ramp * time.Duration(i-1) / time.Duration(opts.Annotators)
		}
		go func() {
			defer wg.Done()
			select {
			case <-ctx.Done():
				return
			case <-time.After(delay):
			}
			a := newAnnotator(opts, rec, AnnotatorName(i), uint64(i)+opts.Seed*1000)
			work(a, ctx)
		}()
	}
	for i := 1; i <= opts.Leads; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l := newAnnotator(opts, rec, LeadName(i), uint64(i)+opts.Seed*1000+500)
			l.client.Timeout = time.Minute // reports and exports take longer than pages
			l.lead(ctx)
		}()
	}
	wg.Wait()
	rec.res.Elapsed = time.Since(start)
	rec.res.Requests = rec.requests.Load()
	return rec.res, nil
}

type annotator struct {
	opts   Options
	rec    *recorder
	user   string
	client *http.Client
	rng    *rand.Rand
	csrf   string
}

func newAnnotator(opts Options, rec *recorder, user string, seed uint64) *annotator {
	jar, _ := cookiejar.New(nil)
	return &annotator{opts: opts, rec: rec, user: user, rng: rand.New(rand.NewPCG(seed, 11)), client: &http.Client{
		Jar:           jar,
		Timeout:       10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

var (
	csrfInput   = regexp.MustCompile(`name="_csrf" value="([^"]+)"`)
	continueRe  = regexp.MustCompile(`href="(/a/\d+)"[^>]*data-testid="continue"`)
	sentencesRe = regexp.MustCompile(`hx-post="/a/\d+/s/(\d+)"`)
	versionRe   = regexp.MustCompile(`id="version" name="version" value="(\d+)"`)
	assignRe    = regexp.MustCompile(`^/a/(\d+)$`)
)

// do sends one request, times it under route and checks the status.
func (a *annotator) do(ctx context.Context, route, method, path string, form url.Values, want int) (*http.Response, string, error) {
	return a.doAs(ctx, func(string, time.Time) string { return route }, method, path, form, want)
}

// doAs is do with the route named from the answer's body once it is read
// (want 0 takes any status)
// (and the time the request was sent), so that answers of one URL that
// cost the server differently are counted apart.
func (a *annotator) doAs(ctx context.Context, routeOf func(body string, sent time.Time) string, method, path string, form url.Values, want int) (*http.Response, string, error) {
	contentType, body := "", ""
	if form != nil {
		form.Set("_csrf", a.csrf)
		contentType, body = "application/x-www-form-urlencoded", form.Encode()
	}
	return a.request(ctx, routeOf, method, path, contentType, body, want)
}

// send is do with a body of any type (none when contentType is "").
func (a *annotator) send(ctx context.Context, route, method, path, contentType, body string, want int) (*http.Response, string, error) {
	return a.request(ctx, func(string, time.Time) string { return route }, method, path, contentType, body, want)
}

// request sends one request, times it under the route routeOf names and
// checks the status (want 0 takes any).
func (a *annotator) request(ctx context.Context, routeOf func(body string, sent time.Time) string, method, path, contentType, body string, want int) (*http.Response, string, error) {
	route := routeOf("", time.Time{})
	if a.rec.requests.Add(1) > a.rec.max {
		return nil, "", errBudget
	}
	var rd io.Reader
	if contentType != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, a.opts.BaseURL+path, rd)
	if err != nil {
		return nil, "", err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if method == http.MethodPost && (strings.Contains(route, "/s/") || strings.HasSuffix(route, "/summary")) {
		req.Header.Set("HX-Request", "true")
	}
	t0 := time.Now()
	resp, err := a.client.Do(req)
	var text string
	if err == nil {
		b, rerr := io.ReadAll(resp.Body)
		resp.Body.Close()
		text, err = string(b), rerr
		if err == nil && want != 0 && resp.StatusCode != want {
			err = fmt.Errorf("status %d, want %d", resp.StatusCode, want)
		}
	}
	if ctx.Err() != nil {
		return nil, "", ctx.Err() // the run ended; not a server error
	}
	if err != nil && route == "POST /login" && resp != nil && resp.StatusCode == http.StatusServiceUnavailable {
		a.rec.record("POST /login (busy, retried)", time.Since(t0), nil)
		return resp, text, err
	}
	a.rec.record(routeOf(text, t0), time.Since(t0), err)
	return resp, text, err
}

func (a *annotator) think(ctx context.Context) bool {
	if a.opts.Think <= 0 {
		return ctx.Err() == nil
	}
	d := time.Duration(float64(a.opts.Think) * (0.5 + a.rng.Float64()))
	select {
	case <-ctx.Done():
		return false
	case <-time.After(d):
		return true
	}
}

// loginTries bounds how often an annotator tries to log in: again after a
// pause when the server does not answer in time, or after Retry-After when
// it answers "busy" (503) while it checks other passwords, as people do.
// A busy answer is counted under its own route; every other failure counts.
const loginTries = 10

// login fetches the login form (for its CSRF token) and logs in.
func (a *annotator) login(ctx context.Context) bool {
	for try := 0; try < loginTries && ctx.Err() == nil; try++ {
		_, page, err := a.do(ctx, "GET /login", http.MethodGet, "/login", nil, http.StatusOK)
		if err == nil {
			if m := csrfInput.FindStringSubmatch(page); m != nil {
				a.csrf = m[1]
			}
			var resp *http.Response
			resp, _, err = a.do(ctx, "POST /login", http.MethodPost, "/login", url.Values{"username": {a.user}, "password": {a.opts.Password}}, http.StatusSeeOther)
			if err == nil {
				return true
			}
			if resp != nil && resp.StatusCode == http.StatusServiceUnavailable {
				wait := time.Second
				if n, perr := strconv.Atoi(resp.Header.Get("Retry-After")); perr == nil && n > 0 {
					wait = time.Duration(n) * time.Second
				}
				select {
				case <-ctx.Done():
					return false
				case <-time.After(wait):
				}
				continue
			}
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(time.Duration(1+a.rng.IntN(3)) * time.Second):
		}
	}
	return false
}

func (a *annotator) work(ctx context.Context) {
	if !a.login(ctx) {
		return
	}
	_, page, err := a.do(ctx, "GET /p/:slug", http.MethodGet, "/p/"+a.opts.Project, nil, http.StatusOK)
	if err != nil {
		return
	}
	m := continueRe.FindStringSubmatch(page)
	if m == nil {
		return // nothing to do
	}
	next := m[1]
	for next != "" && a.think(ctx) {
		next = a.label(ctx, next)
	}
}

// label works through one assignment and returns the next one's path.
func (a *annotator) label(ctx context.Context, path string) string {
	_, page, err := a.do(ctx, "GET /a/:id", http.MethodGet, path, nil, http.StatusOK)
	if err != nil {
		return ""
	}
	if m := csrfInput.FindStringSubmatch(page); m != nil {
		a.csrf = m[1]
	}
	id, _ := strconv.ParseInt(assignRe.FindStringSubmatch(path)[1], 10, 64)
	vm := versionRe.FindStringSubmatch(page)
	if vm == nil {
		return ""
	}
	version := vm[1]
	for _, sm := range sentencesRe.FindAllStringSubmatch(page, -1) {
		if !a.think(ctx) {
			return ""
		}
		label := "faithful"
		form := url.Values{"version": {version}, "ambiguous": {"no"}}
		if a.rng.IntN(5) == 0 {
			label = "unfaithful"
			form.Set("error_types", "extrinsic_information")
			form.Set("explanation", "Not supported by the document.")
		}
		form.Set("label", label)
		_, resp, err := a.do(ctx, "POST /a/:id/s/:sid", http.MethodPost, path+"/s/"+sm[1], form, http.StatusOK)
		if err != nil {
			return ""
		}
		sid, _ := strconv.ParseInt(sm[1], 10, 64)
		a.rec.ack(Ack{User: a.user, Assignment: id, Sentence: sid, Label: label})
		if v := versionRe.FindStringSubmatch(resp); v != nil {
			version = v[1]
		}
	}
	_, resp, err := a.do(ctx, "POST /a/:id/summary", http.MethodPost, path+"/summary", url.Values{"version": {version}, "relevance": {"4"}, "topic_category": {"main"}}, http.StatusOK)
	if err != nil {
		return ""
	}
	if v := versionRe.FindStringSubmatch(resp); v != nil {
		version = v[1]
	}
	r, _, err := a.do(ctx, "POST /a/:id/submit", http.MethodPost, path+"/submit", url.Values{}, http.StatusSeeOther)
	if err != nil {
		return ""
	}
	loc := r.Header.Get("Location")
	if assignRe.MatchString(loc) {
		return loc
	}
	return ""
}
