package assist

import (
	"context"
	"fmt"
	"math/rand/v2"
)

// runDebate is the MADISSE protocol: Sessions independent debates, each
// between Agents agents whose opening stances are split evenly between
// faithful and unfaithful, over at most Rounds rounds, stopped early by
// agreement and otherwise settled by the majority of Adjudicators; several
// sessions are combined by agent vote or debate vote.
func (c *Client) runDebate(ctx context.Context, m *meter, it Item, s Settings, sd seeder, res *SentenceResult) error {
	sessions := make([]DebateSession, s.Sessions)
	err := parallel(ctx, s.Sessions, func(ctx context.Context, i int) error {
		var err error
		sessions[i], err = c.debateSession(ctx, m, it, s, sd, i+1)
		if err != nil && s.Sessions > 1 {
			err = fmt.Errorf("session %d: %w", i+1, err)
		}
		return err
	})
	res.Sessions = sessions
	if err != nil {
		return err
	}
	verdict := combineSessions(sessions, s.Vote, sd.stream("combine"))
	res.Adjudicator = &verdict
	res.Advocate = debateSide(sessions, Faithful)
	res.Skeptic = debateSide(sessions, Unfaithful)
	res.Ambiguity = &Ambiguity{NoMovement: noMovement(sessions)}
	return nil
}

// openingStances returns n stances, half faithful and half unfaithful (the
// odd one out faithful), in an order drawn from g.
func openingStances(n int, g *rand.PCG) []Label {
	stances := make([]Label, n)
	for i := range stances {
		stances[i] = Faithful
		if i >= (n+1)/2 {
			stances[i] = Unfaithful
		}
	}
	shuffle(g, stances)
	return stances
}

// debateSession runs one session (numbered from 1).
func (c *Client) debateSession(ctx context.Context, m *meter, it Item, s Settings, sd seeder, sess int) (DebateSession, error) {
	var out DebateSession
	stances := openingStances(s.Agents, sd.stream("stances", sess))
	schema := turnSchema(it)
	for round := 1; round <= s.Rounds; round++ {
		turns := make([]AgentTurn, s.Agents)
		err := parallel(ctx, s.Agents, func(ctx context.Context, a int) error {
			d := newPromptData(it)
			d.Agent, d.Agents, d.Round, d.Rounds = a+1, s.Agents, round, s.Rounds
			if round == 1 {
				// The stance is imposed only for the opening round;
				// afterwards each agent is free to follow the debate.
				d.Stance = stances[a]
				d.History = []historyRound{openingHistory(stances, a+1, sd.stream("view", sess, round, a+1))}
			} else {
				d.History = debateHistory(out.Rounds, a+1, sd.stream("view", sess, round, a+1))
			}
			q := Question{
				Name:   "debate_turn",
				System: render("system_agent", d),
				User:   render("user_agent", d),
				Schema: schema,
				Seed:   sd.requestSeed("turn", sess, round, a+1),
			}
			var ans turnAnswer
			if err := c.ask(ctx, m, q, &ans); err != nil {
				return fmt.Errorf("round %d, agent %d: %w", round, a+1, err)
			}
			turns[a] = AgentTurn{
				Session: sess, Agent: a + 1, Round: round, Stance: stances[a],
				Label: ans.Label, ErrorType: errorTypeFor(ans.Label, ans.ErrorType),
				Citations: dedupe(ans.Citations), Guidelines: dedupe(ans.Guidelines), Reason: ans.Reason,
			}
			return nil
		})
		if err != nil {
			return out, err
		}
		out.Rounds = append(out.Rounds, turns)
		if agreed(turns) {
			out.Verdict = consensusVerdict(turns, round, sd.stream("consensus", sess))
			return out, nil
		}
	}

	out.Adjudications = make([]Verdict, s.Adjudicators)
	schema = debateAdjudicatorSchema(it)
	err := parallel(ctx, s.Adjudicators, func(ctx context.Context, j int) error {
		d := newPromptData(it)
		d.Adjudicator = j + 1
		// Each adjudicator reads the arguments in its own order, so that
		// the majority does not inherit one position bias.
		d.History = debateHistory(out.Rounds, 0, sd.stream("adjudicator", sess, j+1))
		q := Question{
			Name:   "debate_adjudicator",
			System: render("system_debate_adjudicator", d),
			User:   render("user_debate_adjudicator", d),
			Schema: schema,
			Seed:   sd.requestSeed("adjudicator", sess, j+1),
		}
		var v verdictAnswer
		if err := c.ask(ctx, m, q, &v); err != nil {
			return fmt.Errorf("adjudicator %d: %w", j+1, err)
		}
		out.Adjudications[j] = Verdict{
			Label: v.Verdict.Label, ErrorType: errorTypeFor(v.Verdict.Label, v.Verdict.ErrorType),
			Report: v.Report, Citations: dedupe(v.Citations),
		}
		return nil
	})
	if err != nil {
		return out, err
	}
	out.Verdict = majorityVerdict(out.Adjudications, sd.stream("majority", sess))
	return out, nil
}

// openingHistory shows the imposed stances, in a shuffled order, to agent
// self (1-based).
func openingHistory(stances []Label, self int, g *rand.PCG) historyRound {
	h := historyRound{Round: 0, Opening: true}
	for i, st := range stances {
		h.Turns = append(h.Turns, historyTurn{Agent: i + 1, You: i+1 == self, Stance: st})
	}
	shuffle(g, h.Turns)
	return h
}

// debateHistory shows past rounds to agent self (0 for an adjudicator),
// shuffling the turns of each round independently.
func debateHistory(rounds [][]AgentTurn, self int, g *rand.PCG) []historyRound {
	out := make([]historyRound, len(rounds))
	for r, turns := range rounds {
		h := historyRound{Round: r + 1}
		for _, t := range turns {
			h.Turns = append(h.Turns, historyTurn{
				Agent: t.Agent, You: t.Agent == self, Label: t.Label,
				ErrorType: t.ErrorType, Citations: t.Citations, Reason: t.Reason,
			})
		}
		shuffle(g, h.Turns)
		out[r] = h
	}
	return out
}

// agreed reports whether all turns carry the same label.
func agreed(turns []AgentTurn) bool {
	for _, t := range turns[1:] {
		if t.Label != turns[0].Label {
			return false
		}
	}
	return true
}

// majority returns the label with more votes; a tie goes to unfaithful, so
// that an undecided sentence is shown to the annotator as a possible error
// rather than waved through.
func majority(v Votes) Label {
	if v.Faithful > v.Unfaithful {
		return Faithful
	}
	return Unfaithful
}

func (v *Votes) add(l Label) {
	if l == Faithful {
		v.Faithful++
	} else {
		v.Unfaithful++
	}
}

// commonErrorType returns the error type most agents with an unfaithful
// label named, the earliest on a tie.
func commonErrorType(turns []AgentTurn) string {
	counts := map[string]int{}
	best := ""
	for _, t := range turns {
		if t.ErrorType == "" {
			continue
		}
		counts[t.ErrorType]++
		if best == "" || counts[t.ErrorType] > counts[best] {
			best = t.ErrorType
		}
	}
	return best
}

// consensusVerdict records a debate the agents settled among themselves;
// the report quotes one agent, drawn at random.
func consensusVerdict(turns []AgentTurn, round int, g *rand.PCG) Verdict {
	t := turns[pick(g, len(turns))]
	v := Verdict{
		Label:     t.Label,
		ErrorType: errorTypeFor(t.Label, commonErrorType(turns)),
		Report:    fmt.Sprintf("All %d agents agreed in round %d. Agent %d: %s", len(turns), round, t.Agent, t.Reason),
		Citations: t.Citations,
		Consensus: true,
		Votes:     &Votes{},
	}
	for _, t := range turns {
		v.Votes.add(t.Label)
	}
	return v
}

// majorityVerdict takes the adjudicators' majority label and the report of
// one adjudicator of the majority, drawn at random (as in MADISSE).
func majorityVerdict(adj []Verdict, g *rand.PCG) Verdict {
	var votes Votes
	for _, a := range adj {
		votes.add(a.Label)
	}
	label := majority(votes)
	var winners []Verdict
	for _, a := range adj {
		if a.Label == label {
			winners = append(winners, a)
		}
	}
	v := winners[pick(g, len(winners))]
	v.Votes = &votes
	return v
}

// finalTurns returns each session's last round.
func finalTurns(sessions []DebateSession) []AgentTurn {
	var out []AgentTurn
	for _, s := range sessions {
		if n := len(s.Rounds); n > 0 {
			out = append(out, s.Rounds[n-1]...)
		}
	}
	return out
}

// combineSessions merges the verdicts of several sessions; a single session's
// verdict stands as it is.
func combineSessions(sessions []DebateSession, vote Vote, g *rand.PCG) Verdict {
	if len(sessions) == 1 {
		return sessions[0].Verdict
	}
	var votes Votes
	if vote == VoteDebate {
		for _, s := range sessions {
			votes.add(s.Verdict.Label)
		}
	} else {
		for _, t := range finalTurns(sessions) {
			votes.add(t.Label)
		}
	}
	label := majority(votes)
	var agreeing []Verdict
	for _, s := range sessions {
		if s.Verdict.Label == label {
			agreeing = append(agreeing, s.Verdict)
		}
	}
	var v Verdict
	if len(agreeing) > 0 {
		v = agreeing[pick(g, len(agreeing))]
	} else {
		// The agents' majority disagrees with every session's verdict:
		// explain the label with an agent that voted for it.
		var voters []AgentTurn
		for _, t := range finalTurns(sessions) {
			if t.Label == label {
				voters = append(voters, t)
			}
		}
		t := voters[pick(g, len(voters))]
		v = Verdict{Label: label, ErrorType: t.ErrorType, Citations: t.Citations,
			Report: fmt.Sprintf("Session %d, agent %d: %s", t.Session, t.Agent, t.Reason)}
	}
	v.Consensus = false
	v.Votes = &votes
	return v
}

// debateSide gathers the final arguments of the agents that opened with
// stance: the Advocate for faithful, the Skeptic for unfaithful.
func debateSide(sessions []DebateSession, stance Label) *Side {
	side := &Side{Citations: []int{}}
	var votes Votes
	for _, t := range finalTurns(sessions) {
		if t.Stance != stance {
			continue
		}
		side.Agents = append(side.Agents, t)
		votes.add(t.Label)
	}
	if len(side.Agents) == 0 {
		return nil
	}
	side.Label = stance
	if votes.Faithful != votes.Unfaithful {
		side.Label = majority(votes)
	}
	side.ErrorType = errorTypeFor(side.Label, commonErrorType(side.Agents))
	for _, t := range side.Agents {
		side.Citations = dedupe(append(side.Citations, t.Citations...))
		side.Guidelines = dedupe(append(side.Guidelines, t.Guidelines...))
		if side.Reason == "" && t.Label == side.Label {
			side.Reason = t.Reason
		}
	}
	return side
}

// noMovement reports whether every agent ended where its stance put it.
func noMovement(sessions []DebateSession) bool {
	turns := finalTurns(sessions)
	for _, t := range turns {
		if t.Label != t.Stance {
			return false
		}
	}
	return len(turns) > 0
}
