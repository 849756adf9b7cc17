package assist

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"annotate/internal/domain"
)

// ExportRecord is one line of an assistant export: the result for one
// summary sentence and the caller's identifiers for where it belongs. The
// same line format is read back by import, so that runs computed elsewhere
// can be loaded.
type ExportRecord struct {
	ProjectID  string `json:"project_id"`
	DocumentID string `json:"document_id"`
	SummaryID  string `json:"summary_id"`
	SentenceID string `json:"sentence_id"`
	// Run names the run the record belongs to, so that a file holding
	// several runs can be read back into as many runs.
	Run string `json:"run,omitempty"`
	// Sample marks demonstration output that no model produced.
	Sample bool           `json:"sample,omitempty"`
	Result SentenceResult `json:"result"`
}

// Validate reports the first structural problem of the record. Citation
// upper bounds need the document; see SentenceResult.CheckCitations.
func (r ExportRecord) Validate() error {
	for _, f := range []struct{ name, v string }{
		{"project_id", r.ProjectID}, {"document_id", r.DocumentID},
		{"summary_id", r.SummaryID}, {"sentence_id", r.SentenceID},
	} {
		if strings.TrimSpace(f.v) == "" {
			return fmt.Errorf("%s is empty", f.name)
		}
	}
	if err := r.Result.Validate(); err != nil {
		return fmt.Errorf("result: %w", err)
	}
	return nil
}

// Validate reports the first problem of a result read from outside: unknown
// protocol, status or labels, a failed result without a reason, a complete
// one without a verdict, citations below 1, an unknown ambiguity type.
func (r SentenceResult) Validate() error {
	switch r.Protocol {
	case ProtocolSingle, ProtocolDebate:
	default:
		return fmt.Errorf("protocol: unknown %q", r.Protocol)
	}
	if r.Settings.Protocol != r.Protocol {
		return fmt.Errorf("settings.protocol %q differs from protocol %q", r.Settings.Protocol, r.Protocol)
	}
	// A result may have failed precisely because its settings were bad;
	// it still deserves to be exported with its reason.
	if err := r.Settings.Validate(); err != nil && r.Status == StatusOK {
		return err
	}
	if r.Target < 0 {
		return fmt.Errorf("target: %d is negative", r.Target)
	}
	if r.PromptVersion == "" {
		return errors.New("prompt_version is empty")
	}
	if r.Model == "" {
		return errors.New("model is empty")
	}
	switch r.Status {
	case StatusOK:
		if r.Adjudicator == nil {
			return errors.New("adjudicator: missing on a result with status ok")
		}
		if r.Error != "" {
			return errors.New("error: set on a result with status ok")
		}
	case StatusFailed:
		if r.Error == "" {
			return errors.New("error: a failed result must say why")
		}
	default:
		return fmt.Errorf("status: unknown %q", r.Status)
	}
	return r.eachCitation(func(where string, n int) error {
		if n < 1 {
			return fmt.Errorf("%s: unit %d is below 1", where, n)
		}
		return nil
	}, func(where string, l Label) error {
		// A failed result may hold the empty verdicts of steps that
		// never ran.
		if l == "" && r.Status == StatusFailed {
			return nil
		}
		if l != Faithful && l != Unfaithful {
			return fmt.Errorf("%s: unknown label %q", where, l)
		}
		return nil
	})
}

// CheckCitations reports any cited or evidence unit beyond the document's
// units.
func (r SentenceResult) CheckCitations(units int) error {
	return r.eachCitation(func(where string, n int) error {
		if n < 1 || n > units {
			return fmt.Errorf("%s: unit %d is outside the document's 1..%d", where, n, units)
		}
		return nil
	}, func(string, Label) error { return nil })
}

// eachCitation applies unit to every unit number and label to every label
// in the result, naming where each sits.
func (r SentenceResult) eachCitation(unit func(string, int) error, label func(string, Label) error) error {
	units := func(where string, xs []int) error {
		for _, n := range xs {
			if err := unit(where, n); err != nil {
				return err
			}
		}
		return nil
	}
	turn := func(where string, t AgentTurn) error {
		if err := label(where+".label", t.Label); err != nil {
			return err
		}
		if err := label(where+".stance", t.Stance); err != nil {
			return err
		}
		return units(where+".citations", t.Citations)
	}
	verdict := func(where string, v *Verdict) error {
		if v == nil {
			return nil
		}
		if err := label(where+".label", v.Label); err != nil {
			return err
		}
		return units(where+".citations", v.Citations)
	}
	side := func(where string, s *Side) error {
		if s == nil {
			return nil
		}
		if err := label(where+".label", s.Label); err != nil {
			return err
		}
		if err := units(where+".citations", s.Citations); err != nil {
			return err
		}
		for i, t := range s.Agents {
			if err := turn(fmt.Sprintf("%s.agents[%d]", where, i), t); err != nil {
				return err
			}
		}
		return nil
	}
	if err := units("evidence", r.Evidence); err != nil {
		return err
	}
	if err := side("advocate", r.Advocate); err != nil {
		return err
	}
	if err := side("skeptic", r.Skeptic); err != nil {
		return err
	}
	if err := verdict("adjudicator", r.Adjudicator); err != nil {
		return err
	}
	for i, s := range r.Sessions {
		for j, round := range s.Rounds {
			for k, t := range round {
				if err := turn(fmt.Sprintf("sessions[%d].rounds[%d][%d]", i, j, k), t); err != nil {
					return err
				}
			}
		}
		for j := range s.Adjudications {
			if err := verdict(fmt.Sprintf("sessions[%d].adjudications[%d]", i, j), &s.Adjudications[j]); err != nil {
				return err
			}
		}
		if err := verdict(fmt.Sprintf("sessions[%d].verdict", i), &s.Verdict); err != nil {
			return err
		}
	}
	if a := r.Ambiguity; a != nil && a.Type != "" {
		if _, ok := domain.AmbiguityType(a.Type); !ok {
			return fmt.Errorf("ambiguity.type: unknown %q", a.Type)
		}
	}
	return nil
}

// Encoder writes export records as JSON Lines.
type Encoder struct {
	w io.Writer
}

// NewEncoder returns an encoder writing to w.
func NewEncoder(w io.Writer) *Encoder { return &Encoder{w: w} }

// Encode validates r and writes it as one line.
func (e *Encoder) Encode(r ExportRecord) error {
	if err := r.Validate(); err != nil {
		return fmt.Errorf("export %s/%s: %w", r.SummaryID, r.SentenceID, err)
	}
	line, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = e.w.Write(append(line, '\n'))
	return err
}

// maxLine bounds one export line, so that a corrupt file cannot exhaust
// memory.
const maxLine = 16 << 20

// Decoder reads export records from JSON Lines, one per line; blank lines
// are skipped.
type Decoder struct {
	r    *bufio.Reader
	line int
}

// NewDecoder returns a decoder reading from r.
func NewDecoder(r io.Reader) *Decoder { return &Decoder{r: bufio.NewReader(r)} }

// Line returns the number of the line last read.
func (d *Decoder) Line() int { return d.line }

// Decode reads and validates the next record. It returns io.EOF after the
// last one; other errors name the line. Unknown fields are errors, so that a
// misspelt field is reported rather than silently lost.
func (d *Decoder) Decode() (ExportRecord, error) {
	raw, line, err := d.ReadLine()
	if err != nil {
		return ExportRecord{}, err
	}
	return DecodeLine(raw, line)
}

// ReadLine returns the next line that is not blank, undecoded, and its
// number, for DecodeLine: lines can then be decoded on other goroutines.
// The line is the caller's to keep. It returns io.EOF after the last line,
// and an error naming the line when one is too long.
func (d *Decoder) ReadLine() ([]byte, int, error) {
	for {
		raw, err := d.readLine()
		if err != nil {
			return nil, d.line, err
		}
		if len(bytes.TrimSpace(raw)) > 0 {
			return raw, d.line, nil
		}
	}
}

// DecodeLine decodes and validates line number n of an export, as Decode
// does; errors name the line.
func DecodeLine(raw []byte, n int) (ExportRecord, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var r ExportRecord
	if err := dec.Decode(&r); err != nil {
		return ExportRecord{}, fmt.Errorf("line %d: %w", n, err)
	}
	if dec.More() {
		return ExportRecord{}, fmt.Errorf("line %d: more than one JSON value", n)
	}
	if err := r.Validate(); err != nil {
		return ExportRecord{}, fmt.Errorf("line %d: %w", n, err)
	}
	return r, nil
}

func (d *Decoder) readLine() ([]byte, error) {
	var buf []byte
	for {
		chunk, err := d.r.ReadSlice('\n')
		buf = append(buf, chunk...)
		if len(buf) > maxLine {
			d.line++
			return nil, fmt.Errorf("line %d: longer than %d bytes", d.line, maxLine)
		}
		switch {
		case err == nil:
			d.line++
			return buf, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(buf) > 0:
			d.line++
			return buf, nil
		default:
			return nil, err
		}
	}
}
