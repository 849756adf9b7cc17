package study

import (
	"net/url"
	"strings"
	"testing"
)

func query(s string) url.Values {
	q, err := url.ParseQuery(s)
	if err != nil {
		panic(err)
	}
	return q
}

// TestParseEntry reads each platform's link.
func TestParseEntry(t *testing.T) {
	e, err := ParseEntry(query("PROLIFIC_PID=5f1e2d3c4b5a69788796a5b4&STUDY_ID=s1&SESSION_ID=x9"))
	if err != nil || e.Platform != Prolific || e.ParticipantID != "5f1e2d3c4b5a69788796a5b4" || e.StudyID != "s1" || e.SessionID != "x9" {
		t.Fatalf("prolific: %+v %v", e, err)
	}
	e, err = ParseEntry(query("workerId=A1B2C3&assignmentId=3XYZ&hitId=H1&turkSubmitTo=https%3A%2F%2Fworkersandbox.mturk.com"))
	if err != nil || e.Platform != MTurk || e.ParticipantID != "A1B2C3" || e.TurkSubmitTo != "https://workersandbox.mturk.com" || e.Preview {
		t.Fatalf("mturk: %+v %v", e, err)
	}
	e, err = ParseEntry(query("assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId=H1"))
	if err != nil || !e.Preview || e.Platform != MTurk {
		t.Fatalf("preview: %+v %v", e, err)
	}
	e, err = ParseEntry(query("pid=lab-07"))
	if err != nil || e.Platform != Generic || e.ParticipantID != "lab-07" {
		t.Fatalf("pid: %+v %v", e, err)
	}
}

// TestParseEntryRefuses names what is wrong with hostile or broken links.
func TestParseEntryRefuses(t *testing.T) {
	for _, tc := range []struct{ q, want string }{
		{"", "names no participant"},
		{"PROLIFIC_PID=", "names no participant"},
		{"PROLIFIC_PID=%3Cscript%3E", "PROLIFIC_PID: must be"},
		{"pid=" + strings.Repeat("a", 129), "pid: must be"},
		{"workerId=A1&assignmentId=3X&turkSubmitTo=https%3A%2F%2Fevil.example", "turkSubmitTo: not an MTurk address"},
		{"workerId=A1&assignmentId=3X&turkSubmitTo=https%3A%2F%2Fwww.mturk.com%2F..%2Fevil", "turkSubmitTo"},
		{"workerId=A1&assignmentId=3X&turkSubmitTo=http%3A%2F%2Fwww.mturk.com", "turkSubmitTo"},
		{"workerId=A1&turkSubmitTo=https%3A%2F%2Fwww.mturk.com", "assignmentId: required"},
		{"workerId=A%0A1&assignmentId=3X", "workerId: must be"},
	} {
		_, err := ParseEntry(query(tc.q))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want %q", tc.q, err, tc.want)
		}
	}
}

// TestReturnTo builds each platform's way back.
func TestReturnTo(t *testing.T) {
	if r := ReturnTo(Entry{Platform: Prolific}, "C1&x"); r.URL != "https://app.prolific.com/submissions/complete?cc=C1%26x" || r.Form != nil {
		t.Fatalf("prolific: %+v", r)
	}
	r := ReturnTo(Entry{Platform: MTurk, AssignmentID: "3X", TurkSubmitTo: "https://www.mturk.com"}, "C1")
	if r.URL != "https://www.mturk.com/mturk/externalSubmit" || r.Form.Get("assignmentId") != "3X" || r.Form.Get("completion_code") != "C1" {
		t.Fatalf("mturk: %+v", r)
	}
	if r := ReturnTo(Entry{Platform: Generic}, "C1"); r.URL != "" {
		t.Fatalf("generic: %+v", r)
	}
}
