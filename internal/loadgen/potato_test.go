package loadgen_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"annotate/internal/loadgen"
)

// fakePotato answers the four requests of a Potato annotator as Potato's
// server does (a cookie from /auth, the item's id in a hidden input of the
// annotation page, JSON saves and "next_instance"), and keeps what it was
// sent.
type fakePotato struct {
	mu      sync.Mutex
	current map[string]int         // user → item shown
	saves   map[string]map[int]int // user → item → saves
	bad     []string
	failAt  int // answer the n-th save with 500 (0: never)
	n       int
}

func (f *fakePotato) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	user := ""
	if c, err := r.Cookie("session"); err == nil {
		user = c.Value
	}
	page := func() {
		fmt.Fprintf(w, `<html><form><input id="instance_id" name="instance_id" type="hidden" value="item%d"/></form></html>`, f.current[user])
	}
	switch {
	case r.URL.Path == "/auth" && r.Method == http.MethodPost:
		r.ParseForm()
		if r.PostForm.Get("email") == "" {
			f.bad = append(f.bad, "login without a name")
		}
		http.SetCookie(w, &http.Cookie{Name: "session", Value: r.PostForm.Get("email"), Path: "/"})
		http.Redirect(w, r, "/annotate", http.StatusFound)
	case user == "":
		f.bad = append(f.bad, r.Method+" "+r.URL.Path+" without a session")
		http.Error(w, "no session", http.StatusUnauthorized)
	case r.URL.Path == "/annotate" && r.Method == http.MethodGet:
		page()
	case r.URL.Path == "/annotate" && r.Method == http.MethodPost:
		var body struct{ Action string }
		json.NewDecoder(r.Body).Decode(&body)
		if body.Action != "next_instance" {
			f.bad = append(f.bad, "action "+body.Action)
		}
		f.current[user]++
		page()
	case r.URL.Path == "/updateinstance" && r.Method == http.MethodPost:
		var body struct {
			InstanceID  string            `json:"instance_id"`
			Annotations map[string]string `json:"annotations"`
		}
		if r.Header.Get("Content-Type") != "application/json" || json.NewDecoder(r.Body).Decode(&body) != nil {
			f.bad = append(f.bad, "a save that is not JSON")
		}
		if body.InstanceID != fmt.Sprintf("item%d", f.current[user]) {
			f.bad = append(f.bad, fmt.Sprintf("%s saved %s while shown item%d", user, body.InstanceID, f.current[user]))
		}
		if len(body.Annotations) != 1 || (body.Annotations["faithful:faithful"] != "true" && body.Annotations["faithful:unfaithful"] != "true") {
			f.bad = append(f.bad, fmt.Sprintf("annotations %v", body.Annotations))
		}
		f.n++
		if f.n == f.failAt {
			http.Error(w, "boom", http.StatusInternalServerError)
			return
		}
		if f.saves[user] == nil {
			f.saves[user] = map[int]int{}
		}
		f.saves[user][f.current[user]]++
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"status":"success"}`)
	default:
		f.bad = append(f.bad, r.Method+" "+r.URL.Path)
		http.NotFound(w, r)
	}
}

// TestRunPotatoPlaysTheAnnotators: an annotator logs in, saves five
// labels of each item shown, one at a time and for that item, and moves
// on until the request budget is spent: 40 requests are the login, the
// first page, six items of five saves and a move each, and two saves of
// the seventh. Every save the server acknowledged is counted, and
// nothing failed. Three annotators sharing 120 requests, however the
// budget falls among them, move through at least 16 items between them.
func TestRunPotatoPlaysTheAnnotators(t *testing.T) {
	f := &fakePotato{current: map[string]int{}, saves: map[string]map[int]int{}}
	srv := httptest.NewServer(f)
	defer srv.Close()
	res, err := loadgen.RunPotato(context.Background(), loadgen.Options{BaseURL: srv.URL, Annotators: 1, Duration: time.Minute, MaxRequests: 40})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	res.Write(&buf)
	f.mu.Lock()
	if len(f.bad) > 0 {
		t.Fatalf("the server saw: %v", f.bad)
	}
	if res.Failed != 0 || res.Requests < 40 {
		t.Fatalf("failed %d of %d requests:\n%s", res.Failed, res.Requests, buf.String())
	}
	want := map[int]int{0: 5, 1: 5, 2: 5, 3: 5, 4: 5, 5: 5, 6: 2}
	if got := f.saves[loadgen.AnnotatorName(1)]; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("saves by item %v, want %v", got, want)
	}
	if len(res.Acks) != 32 || len(res.Routes["POST /updateinstance"].Latencies) != 32 {
		t.Fatalf("%d acknowledged, %d timed; the server took 32", len(res.Acks), len(res.Routes["POST /updateinstance"].Latencies))
	}
	for route, n := range map[string]int{"POST /auth": 1, "GET /annotate": 1, "POST /annotate (next item)": 6} {
		if res.Routes[route] == nil || len(res.Routes[route].Latencies) != n {
			t.Errorf("%s not timed %d times:\n%s", route, n, buf.String())
		}
	}
	f.mu.Unlock()

	f = &fakePotato{current: map[string]int{}, saves: map[string]map[int]int{}}
	srv3 := httptest.NewServer(f)
	defer srv3.Close()
	res, err = loadgen.RunPotato(context.Background(), loadgen.Options{BaseURL: srv3.URL, Annotators: 3, Duration: time.Minute, MaxRequests: 120})
	if err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	items, saves := 0, 0
	for _, n := range f.current {
		items += n
	}
	for _, byItem := range f.saves {
		for _, n := range byItem {
			saves += n
		}
	}
	if len(f.bad) > 0 || res.Failed != 0 || items < 16 || saves != len(res.Acks) {
		t.Fatalf("three annotators: %d items, %d saves, %d acknowledged, %d failed, server saw %v", items, saves, len(res.Acks), res.Failed, f.bad)
	}
}

// TestRunPotatoCountsARefusedSave: a save answered 500 is a failed
// request, not an acknowledged save, and that annotator stops.
func TestRunPotatoCountsARefusedSave(t *testing.T) {
	f := &fakePotato{current: map[string]int{}, saves: map[string]map[int]int{}, failAt: 4}
	srv := httptest.NewServer(f)
	defer srv.Close()
	res, err := loadgen.RunPotato(context.Background(), loadgen.Options{BaseURL: srv.URL, Annotators: 1, Duration: time.Minute, MaxRequests: 40})
	if err != nil {
		t.Fatal(err)
	}
	if res.Failed != 1 || len(res.Acks) != 3 || res.Routes["POST /updateinstance"].Errors != 1 {
		t.Fatalf("failed %d, acknowledged %d", res.Failed, len(res.Acks))
	}
}

// TestRunPotatoLoopbackOnly: another host is refused before any request.
func TestRunPotatoLoopbackOnly(t *testing.T) {
	if _, err := loadgen.RunPotato(context.Background(), loadgen.Options{BaseURL: "http://192.0.2.1:8077", Annotators: 1}); err == nil {
		t.Fatal("a run against 192.0.2.1 was started")
	}
}

// TestPotatoItems turns a native export's records into one item per
// summary, the document (text, sentences, or turns with their speakers;
// for a record of more summaries, the record before's) ahead of the
// summary (its sentences, or its text given whole), skipping the header
// and end records; a record with no text that is not the document before
// is an error naming its line.
func TestPotatoItems(t *testing.T) {
	in := strings.Join([]string{
		`{"kind":"export","project":"p"}`,
		`{"id":"d1","text":"The council met. It voted.","summaries":[{"id":"s1","sentences":[{"text":"The council voted."},{"text":"It met."}]},{"id":"s2","sentences":[{"text":"Nothing."}]}]}`,
		`{"id":"d2","kind":"dialogue","turns":[{"speaker":"A","text":"Hello."},{"speaker":"B","text":"Hi."}],"summaries":[{"id":"s3","sentences":[{"text":"They greet."}]}]}`,
		`{"id":"d3","sentences":["First.","Second."],"summaries":[{"id":"s4","text":"Both, whole."}]}`,
		`{"id":"d3","summaries":[{"id":"s5","text":"More of d3."}]}`,
		`{"kind":"end","records":4}`,
	}, "\n") + "\n"
	var out bytes.Buffer
	n, err := loadgen.PotatoItems(strings.NewReader(in), &out)
	if err != nil || n != 5 {
		t.Fatalf("%d items, %v", n, err)
	}
	want := []struct{ id, text string }{
		{"s1", "DOCUMENT\nThe council met. It voted.\n\nSUMMARY\nThe council voted. It met."},
		{"s2", "DOCUMENT\nThe council met. It voted.\n\nSUMMARY\nNothing."},
		{"s3", "DOCUMENT\nA: Hello.\nB: Hi.\n\nSUMMARY\nThey greet."},
		{"s4", "DOCUMENT\nFirst. Second.\n\nSUMMARY\nBoth, whole."},
		{"s5", "DOCUMENT\nFirst. Second.\n\nSUMMARY\nMore of d3."},
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d lines:\n%s", len(lines), out.String())
	}
	for i, l := range lines {
		var item struct{ ID, Text string }
		if err := json.Unmarshal([]byte(l), &item); err != nil || item.ID != want[i].id || item.Text != want[i].text {
			t.Errorf("item %d = %+v (%v), want %+v", i, item, err, want[i])
		}
	}
	if _, err := loadgen.PotatoItems(strings.NewReader("{\"id\":\"d1\",\"text\":\"x\"}\nnot json\n"), &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("bad line: %v", err)
	}
	if _, err := loadgen.PotatoItems(strings.NewReader("{\"id\":\"d1\",\"text\":\"x\"}\n{\"id\":\"d2\",\"summaries\":[]}\n"), &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), `line 2: document "d2" has no text`) {
		t.Fatalf("a record without its document's text: %v", err)
	}
}
