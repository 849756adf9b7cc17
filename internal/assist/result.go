package assist

// Label is a faithfulness label.
type Label string

// The two faithfulness labels.
const (
	Faithful   Label = "faithful"
	Unfaithful Label = "unfaithful"
)

// labelValues lists the labels in the order the schemas offer them.
var labelValues = []string{string(Faithful), string(Unfaithful)}

// Protocol names how the assistant argues about a sentence.
type Protocol string

// The protocols.
const (
	// ProtocolSingle is one Advocate, one Skeptic and one Adjudicator
	// (MSumBench).
	ProtocolSingle Protocol = "single"
	// ProtocolDebate is a multi-round debate between agents given opening
	// stances, settled by agreement or by adjudicators (MADISSE).
	ProtocolDebate Protocol = "debate"
)

// Vote names how the verdicts of several debate sessions are combined.
type Vote string

// The ways to combine sessions.
const (
	// VoteAgent takes the majority over the final labels of all agents of
	// all sessions.
	VoteAgent Vote = "agent"
	// VoteDebate takes the majority over the sessions' verdicts.
	VoteDebate Vote = "debate"
)

// Status says whether a sentence result is complete.
type Status string

// The statuses.
const (
	StatusOK     Status = "ok"
	StatusFailed Status = "failed"
)

// SentenceResult is everything the assistant produced for one summary
// sentence. It is the payload of an export line, so its JSON field names are
// part of the file format and must stay stable.
type SentenceResult struct {
	Protocol Protocol `json:"protocol"`
	// Target is the 0-based index of the judged sentence in the summary.
	Target int `json:"target"`
	// Advocate is the case for "faithful": the single Advocate, or the
	// debate agents that opened with the faithful stance.
	Advocate *Side `json:"advocate,omitempty"`
	// Skeptic is the case for "unfaithful": the single Skeptic, or the
	// debate agents that opened with the unfaithful stance.
	Skeptic *Side `json:"skeptic,omitempty"`
	// Adjudicator is the tentative verdict shown to the annotator.
	Adjudicator *Verdict `json:"adjudicator,omitempty"`
	// Sessions holds the full record of each debate session.
	Sessions []DebateSession `json:"sessions,omitempty"`
	// Ambiguity is the ambiguity judgement and the no-movement signal.
	Ambiguity *Ambiguity `json:"ambiguity,omitempty"`
	// KeyFacts lists the key facts the sentence was found to contain.
	KeyFacts []KeyFactMatch `json:"key_facts,omitempty"`
	// Evidence lists document unit numbers (1-based) found by the lexical
	// finder, best first.
	Evidence      []int    `json:"evidence"`
	PromptVersion string   `json:"prompt_version"`
	Model         string   `json:"model"`
	Settings      Settings `json:"settings"`
	// Usage counts the requests and tokens spent on this sentence.
	Usage  Stats  `json:"usage"`
	Status Status `json:"status"`
	// Error says why a failed result failed.
	Error string `json:"error,omitempty"`
}

// Side is one side of the argument as the panel shows it.
type Side struct {
	// Label is the side's conclusion: for a debate, the majority of its
	// agents' final labels (a tie keeps the side's opening stance).
	Label     Label  `json:"label"`
	ErrorType string `json:"error_type,omitempty"`
	// Citations are document unit numbers, 1-based.
	Citations []int `json:"citations"`
	// Guidelines are the numbers of the guidelines the side relies on.
	Guidelines []int  `json:"guidelines,omitempty"`
	Reason     string `json:"reason"`
	// Agents holds the final argument of each debate agent on this side.
	Agents []AgentTurn `json:"agents,omitempty"`
}

// Verdict is an adjudicator's decision, or the combined decision of a debate.
type Verdict struct {
	Label     Label  `json:"label"`
	ErrorType string `json:"error_type,omitempty"`
	Report    string `json:"report"`
	Citations []int  `json:"citations,omitempty"`
	// AdvocateHolds and SkepticHolds record the single Adjudicator's check
	// of whether each side's evidence says what the side claims.
	AdvocateHolds *bool `json:"advocate_holds,omitempty"`
	SkepticHolds  *bool `json:"skeptic_holds,omitempty"`
	// Consensus is true when a debate ended because all agents agreed.
	Consensus bool `json:"consensus,omitempty"`
	// Votes counts the votes behind a majority decision.
	Votes *Votes `json:"votes,omitempty"`
}

// Votes counts votes for each label.
type Votes struct {
	Faithful   int `json:"faithful"`
	Unfaithful int `json:"unfaithful"`
}

// AgentTurn is one agent's argument in one debate round.
type AgentTurn struct {
	Session int `json:"session"`
	Agent   int `json:"agent"`
	Round   int `json:"round"`
	// Stance is the opening stance the agent was assigned.
	Stance     Label  `json:"stance"`
	Label      Label  `json:"label"`
	ErrorType  string `json:"error_type,omitempty"`
	Citations  []int  `json:"citations"`
	Guidelines []int  `json:"guidelines,omitempty"`
	Reason     string `json:"reason"`
}

// DebateSession is the record of one independent debate.
type DebateSession struct {
	// Rounds holds each round's turns in agent order (the order the agents
	// saw them in was shuffled).
	Rounds [][]AgentTurn `json:"rounds"`
	// Adjudications holds each adjudicator's decision when the agents did
	// not agree.
	Adjudications []Verdict `json:"adjudications,omitempty"`
	Verdict       Verdict   `json:"verdict"`
}

// Ambiguity is the judgement of whether the sentence admits both a faithful
// and an unfaithful reading.
type Ambiguity struct {
	// Judged is true when the LLM judge ran; otherwise only NoMovement is
	// meaningful.
	Judged    bool `json:"judged"`
	Ambiguous bool `json:"ambiguous"`
	// Type is a code of tasks.AmbiguityTypes, empty when not ambiguous.
	Type   string `json:"type,omitempty"`
	Reason string `json:"reason,omitempty"`
	// NoMovement is true when, after the last debate round, every agent
	// still held its opening stance: MADISSE's cheap ambiguity signal.
	NoMovement bool `json:"no_movement"`
}

// KeyFactMatch is a key fact the sentence was found to contain.
type KeyFactMatch struct {
	ID     string `json:"id"`
	Reason string `json:"reason"`
}
