package assist

import "fmt"

// Settings configures what the assistant does for each sentence of a run.
// It is stored with every result, together with the model and the sampling
// parameters, so that a result can be traced to the exact configuration.
type Settings struct {
	// Protocol is single or debate; empty means single.
	Protocol Protocol `json:"protocol"`
	// Agents is the number of debate agents (default 4); their opening
	// stances are split as evenly as the number allows.
	Agents int `json:"agents,omitempty"`
	// Rounds is the maximum number of debate rounds (default 3).
	Rounds int `json:"rounds,omitempty"`
	// Adjudicators is the number of debate adjudicators (default 3).
	Adjudicators int `json:"adjudicators,omitempty"`
	// Sessions is the number of independent debate sessions (default 1).
	Sessions int `json:"sessions,omitempty"`
	// Vote combines several sessions (default agent vote).
	Vote Vote `json:"vote,omitempty"`
	// Ambiguity asks the ambiguity judge after the protocol.
	Ambiguity bool `json:"ambiguity"`
	// KeyFacts asks which key facts the sentence contains.
	KeyFacts bool `json:"key_facts"`
	// EvidenceCap bounds the lexical premise (default 5 units).
	EvidenceCap int `json:"evidence_cap"`
	// Seed makes stance assignment, shuffling and the request seeds
	// reproducible; each item derives its own seed from it and its key.
	Seed int64 `json:"seed"`
	// Temperature and MaxTokens are copied from the client configuration
	// into stored results; values set by the caller are overwritten.
	Temperature float64 `json:"temperature"`
	MaxTokens   int     `json:"max_tokens,omitempty"`
	// SchemaMode is how much of each schema was sent to the endpoint
	// (strict, portable or json_object), copied from the client too.
	SchemaMode SchemaMode `json:"schema_mode,omitempty"`
}

// Defaults returns s with zero fields replaced by their defaults.
func (s Settings) Defaults() Settings {
	if s.Protocol == "" {
		s.Protocol = ProtocolSingle
	}
	if s.EvidenceCap == 0 {
		s.EvidenceCap = 5
	}
	if s.Protocol != ProtocolDebate {
		s.Agents, s.Rounds, s.Adjudicators, s.Sessions, s.Vote = 0, 0, 0, 0, ""
		return s
	}
	if s.Agents == 0 {
		s.Agents = 4
	}
	if s.Rounds == 0 {
		s.Rounds = 3
	}
	if s.Adjudicators == 0 {
		s.Adjudicators = 3
	}
	if s.Sessions == 0 {
		s.Sessions = 1
	}
	if s.Vote == "" {
		s.Vote = VoteAgent
	}
	return s
}

// Validate reports settings that cannot run (after Defaults).
func (s Settings) Validate() error {
	switch s.Protocol {
	case ProtocolSingle, ProtocolDebate:
	default:
		return fmt.Errorf("settings: unknown protocol %q", s.Protocol)
	}
	if s.EvidenceCap < 1 || s.EvidenceCap > 50 {
		return fmt.Errorf("settings: evidence cap %d is outside 1..50", s.EvidenceCap)
	}
	if s.Protocol != ProtocolDebate {
		return nil
	}
	if s.Agents < 2 || s.Agents > 12 {
		return fmt.Errorf("settings: %d agents is outside 2..12", s.Agents)
	}
	if s.Rounds < 1 || s.Rounds > 10 {
		return fmt.Errorf("settings: %d rounds is outside 1..10", s.Rounds)
	}
	if s.Adjudicators < 1 || s.Adjudicators > 9 {
		return fmt.Errorf("settings: %d adjudicators is outside 1..9", s.Adjudicators)
	}
	if s.Sessions < 1 || s.Sessions > 9 {
		return fmt.Errorf("settings: %d sessions is outside 1..9", s.Sessions)
	}
	switch s.Vote {
	case VoteAgent, VoteDebate:
	default:
		return fmt.Errorf("settings: unknown vote %q", s.Vote)
	}
	return nil
}
