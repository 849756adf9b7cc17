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

// TestRunPotatoPlaysTheAnnotators: three annotators log in, save five
// labels of each item shown, one at a time and for that item, and move on;
// every save the server acknowledged is counted, and nothing failed.
func TestRunPotatoPlaysTheAnnotators(t *testing.T) {
	f := &fakePotato{current: map[string]int{}, saves: map[string]map[int]int{}}
	srv := httptest.NewServer(f)
	defer srv.Close()
	res, err := loadgen.RunPotato(context.Background(), loadgen.Options{BaseURL: srv.URL, Annotators: 3, Duration: time.Minute, MaxRequests: 120})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	res.Write(&buf)
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.bad) > 0 {
		t.Fatalf("the server saw: %v", f.bad)
	}
	if res.Failed != 0 || res.Requests < 120 {
		t.Fatalf("failed %d of %d requests:\n%s", res.Failed, res.Requests, buf.String())
	}
	total := 0
	for user, items := range f.saves {
		for item, n := range items {
			total += n
			// Every item but the one shown when the budget ran out got
			// its five saves.
			if n != loadgen.PotatoSaves && item != f.current[user] {
				t.Errorf("%s saved item%d %d times, want %d", user, item, n, loadgen.PotatoSaves)
			}
		}
		if f.current[user] < 3 {
			t.Errorf("%s reached only item%d", user, f.current[user])
		}
	}
	if len(f.saves) != 3 || total != len(res.Acks) || total != len(res.Routes["POST /updateinstance"].Latencies) {
		t.Fatalf("%d users saved %d labels; %d acknowledged, %d timed", len(f.saves), total, len(res.Acks), len(res.Routes["POST /updateinstance"].Latencies))
	}
	for _, route := range []string{"POST /auth", "GET /annotate", "POST /annotate (next item)"} {
		if res.Routes[route] == nil {
			t.Errorf("no %s timed:\n%s", route, buf.String())
		}
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
// summary, the document (text, or turns with their speakers) before the
// summary's sentences, skipping the header and end records.
func TestPotatoItems(t *testing.T) {
	in := strings.Join([]string{
		`{"kind":"export","project":"p"}`,
		`{"id":"d1","text":"The council met. It voted.","summaries":[{"id":"s1","sentences":[{"text":"The council voted."},{"text":"It met."}]},{"id":"s2","sentences":[{"text":"Nothing."}]}]}`,
		`{"id":"d2","kind":"dialogue","turns":[{"speaker":"A","text":"Hello."},{"speaker":"B","text":"Hi."}],"summaries":[{"id":"s3","sentences":[{"text":"They greet."}]}]}`,
		`{"kind":"end","records":2}`,
	}, "\n") + "\n"
	var out bytes.Buffer
	n, err := loadgen.PotatoItems(strings.NewReader(in), &out)
	if err != nil || n != 3 {
		t.Fatalf("%d items, %v", n, err)
	}
	want := []struct{ id, text string }{
		{"s1", "DOCUMENT\nThe council met. It voted.\n\nSUMMARY\nThe council voted. It met."},
		{"s2", "DOCUMENT\nThe council met. It voted.\n\nSUMMARY\nNothing."},
		{"s3", "DOCUMENT\nA: Hello.\nB: Hi.\n\nSUMMARY\nThey greet."},
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
	if _, err := loadgen.PotatoItems(strings.NewReader("{\"id\":\"d1\"}\nnot json\n"), &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("bad line: %v", err)
	}
}
