package study

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"annotate/internal/experiment"
)

// Definition is a study as a lead writes it (study.json). Zero fields
// take the defaults [Parse] documents.
type Definition struct {
	// Round is the round whose items the study deals; created over the
	// project's summaries when it does not exist.
	Round string `json:"round"`
	// Conditions are the assistance conditions, from none, verdict,
	// debate and after; default ["none"].
	Conditions []string `json:"conditions"`
	// Randomise is "participant" (default) or "item".
	Randomise string `json:"randomise"`
	// Seed fixes the randomisation; 0 means one is drawn at creation and
	// stored.
	Seed uint64 `json:"seed"`
	// K is the number of kept labels each item needs; default 3.
	K int `json:"k"`
	// ItemsPerParticipant caps the production items one participant is
	// dealt; default 10.
	ItemsPerParticipant int `json:"items_per_participant"`
	// MaxParticipants caps entries; 0 means no cap.
	MaxParticipants int `json:"max_participants"`
	// TimeLimit caps one participant's time from entry, as a Go duration
	// ("45m"); empty means none.
	TimeLimit Duration `json:"time_limit"`
	// AttentionRate is the share of a participant's items that are
	// attention checks; default 0.1, 0 allowed with "attention_rate": 0
	// written out (see AttentionRateSet).
	AttentionRate *float64 `json:"attention_rate"`
	// Screening, when given, is a test taken before any production item.
	Screening *Screening `json:"screening"`
	// Training, when given, is a number of gold items shown with feedback.
	Training *Training `json:"training"`
	// Consent is Markdown shown first; empty means no consent phase.
	Consent string `json:"consent"`
	// Survey lists the exit survey's questions; empty means none.
	Survey []Question `json:"survey"`
	// Exclude is the exclusion rule, see [ParseRule]; default "none".
	Exclude string `json:"exclude"`
	// TooFastSeconds is the median seconds per sentence under which a
	// participant is flagged too fast; default 3.
	TooFastSeconds float64 `json:"too_fast_seconds"`
	// Completion holds the codes shown at the end; any left empty is
	// drawn at creation.
	Completion Codes `json:"completion"`
}

// Screening is the screening test.
type Screening struct {
	Items int     `json:"items"` // gold items drawn for the test
	Pass  float64 `json:"pass"`  // share right needed to pass
}

// Training is the training phase.
type Training struct {
	Items int `json:"items"` // gold items shown with feedback
}

// Question is one exit-survey question: free text, or a scale defined
// like a rating scale.
type Question struct {
	Name     string `json:"name"`
	Text     string `json:"text"`
	Kind     string `json:"kind"` // "text" or "scale"
	Min      int    `json:"min"`  // scale only
	Max      int    `json:"max"`  // scale only
	Required bool   `json:"required"`
}

// Codes are the completion codes shown for each way a study can end.
type Codes struct {
	Completed   string `json:"completed"`
	NoConsent   string `json:"no_consent"`
	ScreenedOut string `json:"screened_out"`
}

// Duration is a time.Duration written as a Go duration string in JSON.
type Duration struct{ time.Duration }

// UnmarshalJSON reads "45m", "1h30m" and the like.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("want a duration such as \"45m\"")
	}
	if s == "" {
		d.Duration = 0
		return nil
	}
	v, err := time.ParseDuration(s)
	if err != nil || v < 0 {
		return fmt.Errorf("%q is not a duration such as \"45m\"", s)
	}
	d.Duration = v
	return nil
}

// MarshalJSON writes the duration as a string, "" for none.
func (d Duration) MarshalJSON() ([]byte, error) {
	if d.Duration == 0 {
		return json.Marshal("")
	}
	return json.Marshal(d.Duration.String())
}

// Limits on a definition's sizes, so a study cannot be made to hold
// more than a page can show.
const (
	maxConsent   = 64 << 10
	maxQuestions = 50
	maxText      = 2000
	maxCodeLen   = 64
)

// Parse reads a study definition strictly: unknown fields, a second JSON
// value, or any invalid field is an error naming the field. It fills
// the defaults: conditions ["none"], randomise "participant", k 3,
// items_per_participant 10, attention_rate 0.1, exclude "none",
// too_fast_seconds 3.
func Parse(r io.Reader) (*Definition, error) {
	dec := json.NewDecoder(io.LimitReader(r, 1<<20))
	dec.DisallowUnknownFields()
	var d Definition
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("study definition: %w", err)
	}
	if dec.More() {
		return nil, errors.New("study definition: more than one JSON value")
	}
	if err := d.Normalise(); err != nil {
		return nil, err
	}
	return &d, nil
}

// ParseBytes is [Parse] on bytes.
func ParseBytes(b []byte) (*Definition, error) { return Parse(bytes.NewReader(b)) }

// Normalise fills defaults and validates every field, returning one
// error that lists each problem with its field.
func (d *Definition) Normalise() error {
	if len(d.Conditions) == 0 {
		d.Conditions = []string{"none"}
	}
	if d.Randomise == "" {
		d.Randomise = "participant"
	}
	if d.K == 0 {
		d.K = 3
	}
	if d.ItemsPerParticipant == 0 {
		d.ItemsPerParticipant = 10
	}
	if d.AttentionRate == nil {
		r := 0.1
		d.AttentionRate = &r
	}
	if d.Exclude == "" {
		d.Exclude = "none"
	}
	if d.TooFastSeconds == 0 {
		d.TooFastSeconds = 3
	}
	var errs []string
	add := func(f string, a ...any) { errs = append(errs, fmt.Sprintf(f, a...)) }
	if strings.TrimSpace(d.Round) == "" {
		add("round: required (the round whose items the study deals)")
	} else if len(d.Round) > 100 {
		add("round: longer than 100 characters")
	}
	for i, c := range d.Conditions {
		if !slices.Contains(experiment.ConditionNames, c) {
			add("conditions[%d]: %q is not one of %s", i, c, strings.Join(experiment.ConditionNames, ", "))
		} else if slices.Index(d.Conditions, c) != i {
			add("conditions[%d]: %q is given twice", i, c)
		}
	}
	if _, err := experiment.ParseDesign(d.Randomise); err != nil {
		add("%v", err)
	}
	if d.K < 1 || d.K > experiment.MaxK {
		add("k: %d is not between 1 and %d", d.K, experiment.MaxK)
	}
	if d.Randomise == "item" && d.K%len(d.Conditions) != 0 {
		add("k: %d is not a multiple of the %d conditions, so items could not be seen in every condition equally often", d.K, len(d.Conditions))
	}
	if d.ItemsPerParticipant < 1 || d.ItemsPerParticipant > experiment.MaxItemsPerParticipant {
		add("items_per_participant: %d is not between 1 and %d", d.ItemsPerParticipant, experiment.MaxItemsPerParticipant)
	}
	if d.MaxParticipants < 0 {
		add("max_participants: must not be negative")
	}
	if r := *d.AttentionRate; r < 0 || r >= 1 {
		add("attention_rate: %v is not at least 0 and below 1", r)
	}
	if s := d.Screening; s != nil {
		if s.Items < 1 || s.Items > 200 {
			add("screening.items: %d is not between 1 and 200", s.Items)
		}
		if s.Pass <= 0 || s.Pass > 1 {
			add("screening.pass: %v is not above 0 and at most 1", s.Pass)
		}
	}
	if t := d.Training; t != nil && (t.Items < 1 || t.Items > 200) {
		add("training.items: %d is not between 1 and 200", t.Items)
	}
	if len(d.Consent) > maxConsent {
		add("consent: longer than %d bytes", maxConsent)
	}
	if len(d.Survey) > maxQuestions {
		add("survey: more than %d questions", maxQuestions)
	}
	names := map[string]bool{}
	for i, q := range d.Survey {
		switch {
		case !validName(q.Name):
			add("survey[%d].name: %q must be 1–40 letters, digits, '-' or '_'", i, q.Name)
		case names[q.Name]:
			add("survey[%d].name: %q is given twice", i, q.Name)
		}
		names[q.Name] = true
		if strings.TrimSpace(q.Text) == "" || len(q.Text) > maxText {
			add("survey[%d].text: required, at most %d characters", i, maxText)
		}
		switch q.Kind {
		case "text":
		case "scale":
			if q.Min >= q.Max || q.Max-q.Min > 100 {
				add("survey[%d]: a scale needs min < max, at most 100 apart (got %d..%d)", i, q.Min, q.Max)
			}
		default:
			add("survey[%d].kind: %q is not one of text, scale", i, q.Kind)
		}
	}
	if _, err := ParseRule(d.Exclude); err != nil {
		add("exclude: %v", err)
	}
	if d.TooFastSeconds < 0 {
		add("too_fast_seconds: must not be negative")
	}
	for field, c := range map[string]string{"completion.completed": d.Completion.Completed,
		"completion.no_consent": d.Completion.NoConsent, "completion.screened_out": d.Completion.ScreenedOut} {
		if c != "" && !validCode(c) {
			add("%s: %q must be 1–%d letters, digits, '-' or '_'", field, c, maxCodeLen)
		}
	}
	if len(errs) > 0 {
		slices.Sort(errs)
		return fmt.Errorf("study definition: %s", strings.Join(errs, "; "))
	}
	return nil
}

func validName(s string) bool { return len(s) >= 1 && len(s) <= 40 && plain(s) }
func validCode(s string) bool { return len(s) >= 1 && len(s) <= maxCodeLen && plain(s) }

// plain reports whether s holds only ASCII letters, digits, '-' and '_'.
func plain(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}
