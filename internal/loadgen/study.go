package loadgen

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"annotate/internal/experiment"
)

// StudyOptions bound and shape a study run: simulated crowd workers who
// enter a study by its Prolific link and play a plan (experiment.Plan)
// through the participant's pages, over HTTP, like browsers.
type StudyOptions struct {
	// BaseURL of the server; only loopback addresses are accepted.
	BaseURL string
	// DB is the server's database file. The load generator plays the
	// experimenter, who knows the answers: it reads the study's entry
	// token, each sentence's gold and assistant label, each item's
	// condition and which items are checks from it, read-only. The
	// participants themselves learn nothing but what their pages show.
	DB      string
	Project string
	Study   string
	Plan    *experiment.Plan
	// Concurrency is how many participants work at once (default 20);
	// Participants start evenly over Within (0: all at once, as
	// concurrency allows).
	Concurrency int
	Within      time.Duration
	// Think is the mean pause before each label and submission (0: none).
	Think time.Duration
	// Duration and MaxRequests bound the run.
	Duration    time.Duration
	MaxRequests int
	// EntryOnly stops each participant after entering and reading their
	// first page (consent or instructions): the entry load alone.
	EntryOnly bool
	// Spread gives each participant a loopback source address of their
	// own (127.0.x.y), as people come from addresses of their own: the
	// server limits entries per address.
	Spread bool
}

// StudyResult is what a study run did and measured.
type StudyResult struct {
	Result
	Participants int            // who entered
	Outcomes     map[string]int // by the last page they saw: completed, screened_out, no_consent, …
	// Mismatches counts labelling pages that showed the assistant where
	// the item's condition hides it, or the other way round.
	Mismatches int64
}

// oracle is what the experimenter knows of a study.
type oracle struct {
	token      string
	gold       map[int64]string // sentence → gold label
	assistant  map[int64]string // sentence → the assistant's label (the one the pages show)
	summary    map[int64][]int64
	conditions map[int64]string // assignment → condition (read as dealt)
	db         *sql.DB
	studyID    int64
}

func openOracle(ctx context.Context, path, project, study string) (*oracle, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)&_pragma=query_only(ON)")
	if err != nil {
		return nil, err
	}
	o := &oracle{db: db, gold: map[int64]string{}, assistant: map[int64]string{}, summary: map[int64][]int64{}}
	err = db.QueryRowContext(ctx, `SELECT s.id, s.entry_token FROM studies s JOIN projects p ON p.id = s.project_id WHERE p.slug = ? AND s.name = ?`,
		project, study).Scan(&o.studyID, &o.token)
	if errors.Is(err, sql.ErrNoRows) {
		db.Close()
		return nil, fmt.Errorf("project %q has no study %q", project, study)
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	rows, err := db.QueryContext(ctx, `SELECT ss.id, ss.summary_id, coalesce(g.label, ''),
			coalesce((SELECT o.label FROM assist_outputs o JOIN assist_runs r ON r.id = o.run_id
				WHERE o.sentence_id = ss.id AND o.status = 'ok' AND o.label != '' ORDER BY r.sample, r.id DESC LIMIT 1), '')
		FROM study_items i JOIN summary_sentences ss ON ss.summary_id = i.summary_id
		LEFT JOIN gold_sentences g ON g.sentence_id = ss.id AND g.provenance IN ('imported', 'adjudicated')
		WHERE i.study_id = ? ORDER BY ss.summary_id, ss.idx`, o.studyID)
	if err != nil {
		db.Close()
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var sid, sum int64
		var gold, asst string
		if err := rows.Scan(&sid, &sum, &gold, &asst); err != nil {
			db.Close()
			return nil, err
		}
		o.gold[sid], o.assistant[sid] = gold, asst
		o.summary[sum] = append(o.summary[sum], sid)
	}
	return o, rows.Err()
}

// item says what an assignment is: its condition ("" when none is
// recorded: a screening or training item) and whether it is a check.
func (o *oracle) item(ctx context.Context, assignment int64) (condition string, check bool, err error) {
	err = o.db.QueryRowContext(ctx, `SELECT coalesce((SELECT condition FROM study_conditions WHERE assignment_id = ?1), ''),
		EXISTS (SELECT 1 FROM study_checks WHERE assignment_id = ?1)`, assignment).Scan(&condition, &check)
	return condition, check, err
}

var (
	studyPhaseRe = regexp.MustCompile(`data-testid="study-([a-z_]+)"`)
	surveyRe     = regexp.MustCompile(`name="q-([A-Za-z0-9_-]+)"(?: value="([^"]*)")?`)
	studyCodeRe  = regexp.MustCompile(`data-testid="study-code">([^<]*)<`)
	verdictsRe   = regexp.MustCompile(`id="assist-(\d+)" class="assist"[^>]*>(?s:.*?)(<ul class="verdicts">|</aside>)`)
)

// RunStudy plays opts.Plan through the study's entry link: each simulated
// participant enters by a Prolific link with a cookie jar of their own,
// accepts consent, starts, answers the screening test (each summary right
// with the plan's screening_pass), training, their items and attention
// checks (right with attention_pass), and the exit survey, and reaches the
// completion code. On an item, a participant who sees the assistant
// (verdict, debate, or after their first label) copies its label with
// probability follow_when_visible, and is otherwise right with their
// condition's accuracy. Submissions report seconds_per_sentence of active
// time per sentence, which the server bounds by the time really spent.
func RunStudy(ctx context.Context, opts StudyOptions) (*StudyResult, error) {
	if err := CheckLoopback(opts.BaseURL); err != nil {
		return nil, err
	}
	if opts.Plan == nil {
		return nil, errors.New("no plan")
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = 20
	}
	if opts.Duration <= 0 {
		opts.Duration = 5 * time.Minute
	}
	if opts.MaxRequests <= 0 {
		opts.MaxRequests = 500000
	}
	o, err := openOracle(ctx, opts.DB, opts.Project, opts.Study)
	if err != nil {
		return nil, err
	}
	defer o.db.Close()
	ctx, cancel := context.WithTimeout(ctx, opts.Duration)
	defer cancel()
	rec := &recorder{start: time.Now(), res: &Result{Routes: map[string]*RouteStats{}}, max: int64(opts.MaxRequests)}
	res := &StudyResult{Outcomes: map[string]int{}}
	var mu sync.Mutex
	var mismatches atomic.Int64
	start := time.Now()
	next := make(chan int)
	var wg sync.WaitGroup
	for range opts.Concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				p := &participant{annotator: newAnnotator(Options{BaseURL: opts.BaseURL, Think: opts.Think}, rec, fmt.Sprintf("sim%05d", i), opts.Plan.Seed*7919+uint64(i)),
					plan: opts.Plan, o: o, mismatches: &mismatches}
				if opts.Spread {
					d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, byte(1+i/250%250), byte(2+i%250), 1)}, Timeout: 10 * time.Second}
					p.client.Transport = &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 2}
				}
				outcome := p.play(ctx, opts.EntryOnly)
				mu.Lock()
				res.Participants++
				res.Outcomes[outcome]++
				mu.Unlock()
			}
		}()
	}
feed:
	for i := range opts.Plan.Participants {
		if opts.Within > 0 {
			at := start.Add(opts.Within * time.Duration(i) / time.Duration(opts.Plan.Participants))
			select {
			case <-ctx.Done():
				break feed
			case <-time.After(time.Until(at)):
			}
		}
		select {
		case <-ctx.Done():
			break feed
		case next <- i:
		}
	}
	close(next)
	wg.Wait()
	res.Result = *rec.res
	res.Elapsed = time.Since(start)
	res.Requests = rec.requests.Load()
	res.Mismatches = mismatches.Load()
	return res, nil
}

// participant is one simulated crowd worker.
type participant struct {
	*annotator
	plan       *experiment.Plan
	o          *oracle
	mismatches *atomic.Int64
	firstPage  bool
}

// play enters and works until the study ends for the participant; it
// returns the last step seen ("entry_failed", "stopped" when the run
// ended first).
func (p *participant) play(ctx context.Context, entryOnly bool) string {
	q := url.Values{"PROLIFIC_PID": {p.user}, "STUDY_ID": {"simulated"}, "SESSION_ID": {"s-" + p.user}}
	if _, _, err := p.do(ctx, "GET /s/:token", http.MethodGet, "/s/"+p.o.token+"?"+q.Encode(), nil, http.StatusSeeOther); err != nil {
		return "entry_failed"
	}
	for range 1000 {
		resp, page, err := p.do(ctx, "GET /study", http.MethodGet, "/study", nil, 0)
		if err != nil || ctx.Err() != nil {
			return "stopped"
		}
		if resp.StatusCode == http.StatusSeeOther {
			loc := resp.Header.Get("Location")
			if !assignRe.MatchString(loc) {
				return "lost"
			}
			if !p.item(ctx, loc) {
				return "stopped"
			}
			continue
		}
		if m := csrfInput.FindStringSubmatch(page); m != nil {
			p.csrf = m[1]
		}
		m := studyPhaseRe.FindStringSubmatch(page)
		if m == nil {
			return "lost"
		}
		if entryOnly {
			return m[1]
		}
		answer := url.Values{}
		switch m[1] {
		case "consent":
			answer.Set("answer", "accept")
		case "instructions":
			answer.Set("answer", "start")
		case "training":
			answer.Set("answer", "next")
		case "survey":
			answer.Set("answer", "survey")
			for _, q := range surveyRe.FindAllStringSubmatch(page, -1) {
				if answer.Get("q-"+q[1]) == "" {
					v := q[2]
					if v == "" {
						v = "Simulated answer."
					}
					answer.Set("q-"+q[1], v)
				}
			}
		default: // completed, screened_out, no_consent
			return m[1]
		}
		if _, _, err := p.do(ctx, "POST /study", http.MethodPost, "/study", answer, http.StatusSeeOther); err != nil {
			return "stopped"
		}
	}
	return "lost"
}

// item labels one summary as the plan says and submits it; false when the
// run must stop.
func (p *participant) item(ctx context.Context, path string) bool {
	_, page, err := p.do(ctx, "GET /a/:id", http.MethodGet, path, nil, http.StatusOK)
	if err != nil {
		return false
	}
	if m := csrfInput.FindStringSubmatch(page); m != nil {
		p.csrf = m[1]
	}
	id, _ := strconv.ParseInt(assignRe.FindStringSubmatch(path)[1], 10, 64)
	cond, check, err := p.o.item(ctx, id)
	if err != nil {
		return false
	}
	vm := versionRe.FindStringSubmatch(page)
	if vm == nil {
		return false
	}
	version := vm[1]
	shown := map[string]bool{}
	for _, m := range verdictsRe.FindAllStringSubmatch(page, -1) {
		shown[m[1]] = m[2] == `<ul class="verdicts">`
	}
	sentences := sentencesRe.FindAllStringSubmatch(page, -1)
	// A screening or training summary (no condition) or an attention check
	// is right as a whole with the plan's pass rate; an item sentence by
	// sentence, as the condition has it.
	whole := cond == "" || check
	pass := p.plan.AttentionPass
	if cond == "" {
		pass = p.plan.ScreeningPass
	}
	right := p.rng.Float64() < pass
	wrongAt := p.rng.IntN(max(1, len(sentences)))
	for i, sm := range sentences {
		if !p.think(ctx) {
			return false
		}
		sid, _ := strconv.ParseInt(sm[1], 10, 64)
		gold := p.o.gold[sid]
		asst := p.o.assistant[sid]
		visible := experiment.Visible(cond) && asst != ""
		if cond != "" && !check && shown[sm[1]] != visible && cond != "after" {
			p.mismatches.Add(1)
		}
		var label string
		switch {
		case whole && gold != "":
			label = gold
			if !right && i == wrongAt {
				label = opposite(gold)
			}
		case visible && p.rng.Float64() < p.plan.FollowWhenVisible:
			label = asst
		case gold != "":
			label = gold
			if p.rng.Float64() >= p.plan.Accuracy[cond] {
				label = opposite(gold)
			}
		default:
			label = "faithful"
		}
		// after: the first label is the participant's own; the debate is
		// shown with the save's answer, and they may then take its label.
		if cond == "after" && asst != "" && !whole {
			own := gold
			if gold == "" || p.rng.Float64() >= p.plan.Accuracy[cond] {
				own = opposite(gold)
			}
			if version, err = p.save(ctx, path, sm[1], own, version); err != nil {
				return false
			}
			label = own
			if p.rng.Float64() < p.plan.FollowWhenVisible {
				label = asst
			}
			if label == own {
				continue
			}
		}
		if version, err = p.save(ctx, path, sm[1], label, version); err != nil {
			return false
		}
	}
	_, resp, err := p.do(ctx, "POST /a/:id/summary", http.MethodPost, path+"/summary", url.Values{"version": {version}, "relevance": {"4"}, "topic_category": {"main"}}, http.StatusOK)
	if err != nil {
		return false
	}
	if v := versionRe.FindStringSubmatch(resp); v != nil {
		version = v[1]
	}
	secs := int(math.Round(p.plan.SecondsPerSentence * float64(len(sentences))))
	_, _, err = p.do(ctx, "POST /a/:id/submit", http.MethodPost, path+"/submit", url.Values{"active_seconds": {strconv.Itoa(secs)}}, http.StatusSeeOther)
	return err == nil
}

// save labels one sentence and returns the assignment's new version.
func (p *participant) save(ctx context.Context, path, sentence, label, version string) (string, error) {
	form := url.Values{"version": {version}, "ambiguous": {"no"}, "label": {label}}
	if label == "unfaithful" {
		form.Set("error_types", "extrinsic_information")
		form.Set("explanation", "Not supported by the document.")
	}
	_, resp, err := p.do(ctx, "POST /a/:id/s/:sid", http.MethodPost, path+"/s/"+sentence, form, http.StatusOK)
	if err != nil {
		return version, err
	}
	if v := versionRe.FindStringSubmatch(resp); v != nil {
		version = v[1]
	}
	return version, nil
}

func opposite(label string) string {
	if label == "unfaithful" {
		return "faithful"
	}
	return "unfaithful"
}

// WriteStudy prints the run's routes and the participants' outcomes.
func (r *StudyResult) WriteStudy(w interface{ Write([]byte) (int, error) }) error {
	if err := r.Result.Write(w); err != nil {
		return err
	}
	var names []string
	for k := range r.Outcomes {
		names = append(names, k)
	}
	slices.Sort(names)
	fmt.Fprintf(w, "participants: %d", r.Participants)
	for _, k := range names {
		fmt.Fprintf(w, ", %s %d", k, r.Outcomes[k])
	}
	_, err := fmt.Fprintf(w, "\nlabelling pages that showed the assistant against the item's condition: %d\n", r.Mismatches)
	return err
}
