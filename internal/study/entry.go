package study

import (
	"errors"
	"fmt"
	"net/url"
)

// Platform is where a participant came from.
type Platform string

// The platforms an entry link accepts.
const (
	Prolific Platform = "prolific"
	MTurk    Platform = "mturk"
	Generic  Platform = "pid"
)

// MTurkPreview is the assignmentId MTurk sends while a worker previews a
// HIT they have not accepted.
const MTurkPreview = "ASSIGNMENT_ID_NOT_AVAILABLE"

// mturkHosts are the only places a participant is sent back to on MTurk;
// turkSubmitTo naming anything else is refused, so an entry link cannot
// be made into an open redirect.
var mturkHosts = map[string]bool{"https://www.mturk.com": true, "https://workersandbox.mturk.com": true}

// Entry is what a platform's link says about the participant. Its
// ParticipantID is personal data: store it once and show pseudonyms.
type Entry struct {
	Platform      Platform
	ParticipantID string // PROLIFIC_PID, workerId or pid
	StudyID       string // Prolific's STUDY_ID
	SessionID     string // Prolific's SESSION_ID
	AssignmentID  string // MTurk's assignmentId
	HITID         string // MTurk's hitId
	TurkSubmitTo  string // MTurk's turkSubmitTo, one of the known hosts
	// Preview is true for an MTurk preview: show the instructions only,
	// create nobody.
	Preview bool
}

// ErrNoID is returned for a link that names no participant.
var ErrNoID = errors.New("the link names no participant: open the study from Prolific or MTurk, or add ?pid=YOUR_ID")

// ParseEntry reads a study entry link's query. Prolific's PROLIFIC_PID
// wins over MTurk's workerId, which wins over a generic pid. Every id is
// 1–128 ASCII letters, digits, '-' or '_'.
func ParseEntry(q url.Values) (Entry, error) {
	get := func(k string) (string, error) {
		v := q.Get(k)
		if v != "" && (len(v) > 128 || !plain(v)) {
			return "", fmt.Errorf("%s: must be at most 128 letters, digits, '-' or '_'", k)
		}
		return v, nil
	}
	var e Entry
	var err error
	field := func(dst *string, k string) {
		if err == nil {
			*dst, err = get(k)
		}
	}
	switch {
	case q.Has("PROLIFIC_PID"):
		e.Platform = Prolific
		field(&e.ParticipantID, "PROLIFIC_PID")
		field(&e.StudyID, "STUDY_ID")
		field(&e.SessionID, "SESSION_ID")
	case q.Has("workerId") || q.Has("assignmentId"):
		e.Platform = MTurk
		field(&e.ParticipantID, "workerId")
		field(&e.HITID, "hitId")
		if a := q.Get("assignmentId"); a == MTurkPreview {
			e.Preview = true
			return e, err
		}
		field(&e.AssignmentID, "assignmentId")
		if err == nil && e.AssignmentID == "" {
			err = errors.New("assignmentId: required on MTurk")
		}
		if t := q.Get("turkSubmitTo"); err == nil {
			u, perr := url.Parse(t)
			if perr != nil || !mturkHosts[u.Scheme+"://"+u.Host] || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
				err = errors.New("turkSubmitTo: not an MTurk address")
			} else {
				e.TurkSubmitTo = u.Scheme + "://" + u.Host
			}
		}
	default:
		e.Platform = Generic
		field(&e.ParticipantID, "pid")
	}
	if err != nil {
		return Entry{}, err
	}
	if e.ParticipantID == "" {
		return Entry{}, ErrNoID
	}
	return e, nil
}

// Return says where a participant goes with their completion code.
type Return struct {
	// URL is the page to open (Prolific) or the form's action (MTurk);
	// empty for a generic pid, who is shown the code only.
	URL string
	// Form holds the fields to POST to URL (MTurk); nil means a link.
	Form url.Values
}

// ReturnTo gives the way back to the platform with code.
func ReturnTo(e Entry, code string) Return {
	switch e.Platform {
	case Prolific:
		return Return{URL: "https://app.prolific.com/submissions/complete?cc=" + url.QueryEscape(code)}
	case MTurk:
		if e.TurkSubmitTo == "" {
			return Return{}
		}
		return Return{URL: e.TurkSubmitTo + "/mturk/externalSubmit",
			Form: url.Values{"assignmentId": {e.AssignmentID}, "completion_code": {code}}}
	}
	return Return{}
}
