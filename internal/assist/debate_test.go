package assist_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"annotate/internal/assist"
)

func debateSettings() assist.Settings {
	return assist.Settings{Protocol: assist.ProtocolDebate, Seed: 11}
}

// stubborn agents keep their opening stance.
func stubborn(_ int, own string, _ int) string { return own }

// TestDebateStancesSplitEvenly proves the opening stances are split evenly
// and shown only in the first round's system prompts.
func TestDebateStancesSplitEvenly(t *testing.T) {
	for _, agents := range []int{2, 4, 6} {
		t.Run(fmt.Sprint(agents, " agents"), func(t *testing.T) {
			f := newFake(t, debateAnswers(stubborn, func(int) string { return "faithful" }))
			c := f.client(t, nil, nil)
			s := debateSettings()
			s.Agents, s.Rounds = agents, 2
			res, err := c.Assess(ctxT(t), "k", testItem(), s)
			if err != nil || res.Status != assist.StatusOK {
				t.Fatalf("Assess = %s, %v: %s", res.Status, err, res.Error)
			}
			count := map[string]int{}
			agentsSeen := map[int]bool{}
			for _, r := range f.requests() {
				if r.name() != "debate_turn" {
					continue
				}
				switch r.round() {
				case 1:
					count[r.stance()]++
					agentsSeen[r.agent()] = true
				default:
					if strings.Contains(r.system(), "opening stance") {
						t.Errorf("round %d prompt of agent %d still imposes a stance", r.round(), r.agent())
					}
				}
			}
			if count["faithful"] != agents/2 || count["unfaithful"] != agents/2 || len(agentsSeen) != agents {
				t.Errorf("stances %v over %d agents, want %d each", count, len(agentsSeen), agents/2)
			}
			if len(res.Advocate.Agents) != agents/2 || len(res.Skeptic.Agents) != agents/2 {
				t.Errorf("sides have %d and %d agents", len(res.Advocate.Agents), len(res.Skeptic.Agents))
			}
		})
	}
}

// TestDebateStopsEarlyOnAgreement proves that when all agents agree in
// round 2 the debate ends there, with no third round and no adjudicators.
func TestDebateStopsEarlyOnAgreement(t *testing.T) {
	f := newFake(t, debateAnswers(func(round int, stance string, _ int) string {
		if round == 1 {
			return stance
		}
		return "unfaithful"
	}, func(int) string { t.Error("an adjudicator was asked"); return "faithful" }))
	c := f.client(t, nil, nil)
	res, err := c.Assess(ctxT(t), "k", testItem(), debateSettings())
	if err != nil || res.Status != assist.StatusOK {
		t.Fatalf("Assess = %s, %v: %s", res.Status, err, res.Error)
	}
	if f.count() != 8 {
		t.Errorf("%d requests, want 4 agents × 2 rounds", f.count())
	}
	sess := res.Sessions[0]
	if len(sess.Rounds) != 2 || len(sess.Adjudications) != 0 {
		t.Errorf("%d rounds, %d adjudications", len(sess.Rounds), len(sess.Adjudications))
	}
	v := res.Adjudicator
	if v.Label != assist.Unfaithful || !v.Consensus || v.ErrorType != "extrinsic_information" || v.Votes.Unfaithful != 4 || !strings.HasPrefix(v.Report, "All 4 agents agreed in round 2.") {
		t.Errorf("verdict = %+v", v)
	}
	if res.Ambiguity == nil || res.Ambiguity.NoMovement || res.Ambiguity.Judged {
		t.Errorf("ambiguity = %+v, want movement and no judge", res.Ambiguity)
	}
	// The advocates moved to unfaithful: their side now says so.
	if res.Advocate.Label != assist.Unfaithful || res.Skeptic.Label != assist.Unfaithful {
		t.Errorf("sides = %s / %s", res.Advocate.Label, res.Skeptic.Label)
	}
}

// TestDebateAdjudicatorMajority proves that a debate without agreement runs
// all rounds, then asks the adjudicators, takes their majority and an
// explanation from the majority, and flags that no agent moved.
func TestDebateAdjudicatorMajority(t *testing.T) {
	f := newFake(t, debateAnswers(stubborn, func(n int) string {
		if n == 2 {
			return "faithful"
		}
		return "unfaithful"
	}))
	c := f.client(t, nil, nil)
	res, err := c.Assess(ctxT(t), "k", testItem(), debateSettings())
	if err != nil || res.Status != assist.StatusOK {
		t.Fatalf("Assess = %s, %v: %s", res.Status, err, res.Error)
	}
	if f.count() != 4*3+3 {
		t.Errorf("%d requests, want 12 turns and 3 adjudicators", f.count())
	}
	sess := res.Sessions[0]
	if len(sess.Rounds) != 3 || len(sess.Adjudications) != 3 {
		t.Fatalf("%d rounds, %d adjudications", len(sess.Rounds), len(sess.Adjudications))
	}
	v := res.Adjudicator
	if v.Label != assist.Unfaithful || v.Consensus || v.Votes == nil || v.Votes.Unfaithful != 2 || v.Votes.Faithful != 1 {
		t.Errorf("verdict = %+v", v)
	}
	if v.Report != "adjudicator 1 finds it unfaithful" && v.Report != "adjudicator 3 finds it unfaithful" {
		t.Errorf("report %q is not from the majority", v.Report)
	}
	if v.ErrorType != "tense_modality" {
		t.Errorf("error type = %q", v.ErrorType)
	}
	if !res.Ambiguity.NoMovement {
		t.Error("no agent moved, but NoMovement is false")
	}
	if res.Advocate.Label != assist.Faithful || res.Skeptic.Label != assist.Unfaithful || res.Skeptic.ErrorType != "extrinsic_information" {
		t.Errorf("sides = %+v / %+v", res.Advocate, res.Skeptic)
	}
	// Each adjudicator read the same arguments, in its own order.
	orders := map[string]bool{}
	for _, r := range f.requests() {
		if r.name() == "debate_adjudicator" {
			orders[historyOrder(r.user())] = true
		}
	}
	if len(orders) < 2 {
		t.Errorf("all adjudicators saw the arguments in the same order")
	}
}

var historyAgentRe = regexp.MustCompile(`(?m)^- Agent (\d+)`)

// historyOrder lists the agents in the order a prompt shows them.
func historyOrder(user string) string {
	var order []string
	for _, m := range historyAgentRe.FindAllStringSubmatch(user, -1) {
		order = append(order, m[1])
	}
	return strings.Join(order, ",")
}

// TestDebateShuffleIsReproducible proves that the same seed yields
// byte-identical requests and that another seed shows the history in a
// different order.
func TestDebateShuffleIsReproducible(t *testing.T) {
	run := func(seed int64) (*fakeLLM, assist.SentenceResult) {
		f := newFake(t, debateAnswers(stubborn, func(int) string { return "unfaithful" }))
		c := f.client(t, nil, nil)
		s := debateSettings()
		s.Seed = seed
		res, err := c.Assess(ctxT(t), "p/d/s/2", testItem(), s)
		if err != nil || res.Status != assist.StatusOK {
			t.Fatalf("Assess = %s, %v: %s", res.Status, err, res.Error)
		}
		return f, res
	}
	orders := func(f *fakeLLM) map[string]string {
		out := map[string]string{}
		for _, r := range f.requests() {
			if r.name() == "debate_turn" {
				out[fmt.Sprint(r.round(), "/", r.agent())] = historyOrder(r.user())
			}
		}
		return out
	}
	a, resA := run(7)
	b, resB := run(7)
	if !slices.Equal(a.sortedBodies(), b.sortedBodies()) {
		t.Error("the same seed produced different requests")
	}
	ja, _ := json.Marshal(resA.Sessions)
	jb, _ := json.Marshal(resB.Sessions)
	if string(ja) != string(jb) {
		t.Error("the same seed produced different debates")
	}
	c, _ := run(8)
	oa, oc := orders(a), orders(c)
	differ := 0
	for k := range oa {
		if oa[k] != oc[k] {
			differ++
		}
	}
	if differ == 0 {
		t.Errorf("seeds 7 and 8 showed every agent the same order: %v", oa)
	}
	// Within one run the agents of a round see different orders too.
	if oa["2/1"] == oa["2/2"] && oa["2/2"] == oa["2/3"] && oa["2/3"] == oa["2/4"] {
		t.Errorf("all agents saw round 1 in one order: %v", oa)
	}
}

// TestDebateSessionsVote proves several sessions run independently (distinct
// request seeds) and are combined by the chosen vote.
func TestDebateSessionsVote(t *testing.T) {
	for _, vote := range []assist.Vote{assist.VoteAgent, assist.VoteDebate} {
		t.Run(string(vote), func(t *testing.T) {
			f := newFake(t, debateAnswers(stubborn, func(n int) string {
				if n == 1 {
					return "faithful"
				}
				return "unfaithful"
			}))
			c := f.client(t, nil, nil)
			s := debateSettings()
			s.Sessions, s.Vote, s.Rounds = 3, vote, 1
			res, err := c.Assess(ctxT(t), "k", testItem(), s)
			if err != nil || res.Status != assist.StatusOK {
				t.Fatalf("Assess = %s, %v: %s", res.Status, err, res.Error)
			}
			if len(res.Sessions) != 3 || f.count() != 3*(4+3) {
				t.Fatalf("%d sessions, %d requests", len(res.Sessions), f.count())
			}
			seeds := map[int64]bool{}
			for _, r := range f.requests() {
				seeds[*r.Seed] = true
			}
			if len(seeds) != f.count() {
				t.Errorf("%d distinct seeds over %d requests", len(seeds), f.count())
			}
			v := res.Adjudicator
			switch vote {
			case assist.VoteDebate:
				// Every session's adjudicators vote 2:1 unfaithful.
				if v.Label != assist.Unfaithful || v.Votes.Unfaithful != 3 || v.Votes.Faithful != 0 {
					t.Errorf("verdict = %+v", v)
				}
			case assist.VoteAgent:
				// 6 faithful against 6 unfaithful agents: a tie goes to
				// unfaithful.
				if v.Label != assist.Unfaithful || v.Votes.Unfaithful != 6 || v.Votes.Faithful != 6 {
					t.Errorf("verdict = %+v", v)
				}
			}
			if len(res.Advocate.Agents) != 6 || len(res.Skeptic.Agents) != 6 {
				t.Errorf("sides hold %d and %d agents", len(res.Advocate.Agents), len(res.Skeptic.Agents))
			}
		})
	}
}

// TestDebateFailureNamesTheStep proves a turn that stays invalid fails the
// sentence with the session, round and agent in the reason.
func TestDebateFailureNamesTheStep(t *testing.T) {
	normal := debateAnswers(stubborn, func(int) string { return "faithful" })
	f := newFake(t, func(n int, r wireRequest) reply {
		if r.name() == "debate_turn" && r.round() == 2 && r.agent() == 3 {
			return ok(`{"label": "faithful"}`)
		}
		return normal(n, r)
	})
	c := f.client(t, nil, nil)
	res, err := c.Assess(ctxT(t), "k", testItem(), debateSettings())
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != assist.StatusFailed || !strings.Contains(res.Error, "round 2, agent 3: debate_turn") {
		t.Errorf("status %s, error %q", res.Status, res.Error)
	}
	if len(res.Sessions) != 1 || len(res.Sessions[0].Rounds) != 1 {
		t.Errorf("the completed first round was not kept: %+v", res.Sessions)
	}
}
