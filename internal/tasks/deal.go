package tasks

import (
	"context"
	"database/sql"
	"errors"
	"math/rand/v2"
	"sort"
)

// Dealing modes of a production round.
const (
	// DealBalanced deals each summary on its own to the least-loaded
	// annotators: every annotator's load is within one summary of every
	// other's. Among equally loaded annotators, those who already read the
	// document come first.
	DealBalanced = "balanced"
	// DealByDocument gives all of a document's summaries to the same
	// annotators, so each reads a document once; loads may then differ by
	// up to a document's worth of summaries.
	DealByDocument = "by_document"
)

// dealItem names one summary by its document's position and its own
// position within the document.
type dealItem struct{ doc, summary int }

// deal decides who labels what: for each document (given as its number of
// summaries), the summaries each annotator gets, keyed by annotator.
// Annotators are listed in the caller's order, which breaks ties. It is
// deterministic: the same inputs give the same deal.
func deal(annotators []int64, perItem int, byDocument bool, docs []int) []map[int64][]dealItem {
	load := make(map[int64]int, len(annotators))
	rank := make(map[int64]int, len(annotators))
	for i, uid := range annotators {
		rank[uid] = i
	}
	order := make([]int64, len(annotators))
	out := make([]map[int64][]dealItem, len(docs))
	for d, n := range docs {
		out[d] = map[int64][]dealItem{}
		pick := func() []int64 {
			copy(order, annotators)
			sort.SliceStable(order, func(i, j int) bool {
				a, b := order[i], order[j]
				if load[a] != load[b] {
					return load[a] < load[b]
				}
				if ha, hb := len(out[d][a]) > 0, len(out[d][b]) > 0; ha != hb {
					return ha
				}
				return rank[a] < rank[b]
			})
			return order[:perItem]
		}
		if byDocument {
			for _, uid := range pick() {
				for k := 0; k < n; k++ {
					out[d][uid] = append(out[d][uid], dealItem{d, k})
				}
				load[uid] += n
			}
			continue
		}
		for k := 0; k < n; k++ {
			for _, uid := range pick() {
				out[d][uid] = append(out[d][uid], dealItem{d, k})
				load[uid]++
			}
		}
	}
	return out
}

// SampleSummaries draws n of the ids at random, reproducibly for a seed,
// keeping their order (which groups them by document). With n <= 0 or n
// at least len(ids) it returns ids unchanged.
func SampleSummaries(ids []int64, n int, seed uint64) []int64 {
	if n <= 0 || n >= len(ids) {
		return ids
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	keep := make(map[int]bool, n)
	for _, i := range rng.Perm(len(ids))[:n] {
		keep[i] = true
	}
	out := make([]int64, 0, n)
	for i, id := range ids {
		if keep[i] {
			out = append(out, id)
		}
	}
	return out
}

// RoundRequest is a new round as a lead asks for it, from the Rounds page
// or `annotate assign`: both go through StartRound, so the same request
// gives the same round.
type RoundRequest struct {
	Name       string
	Kind       string
	PerItem    int
	Annotators []int64
	// Documents limits the round to the summaries of these external
	// document ids; empty means every summary of the project.
	Documents []string
	// Sample draws this many of those summaries at random with Seed; 0
	// takes them all.
	Sample int
	Seed   uint64
	// Dealing is DealBalanced (default) or DealByDocument.
	Dealing string
}

// StartRound chooses the summaries a request names, draws the sample and
// creates the round.
func (s *Store) StartRound(ctx context.Context, projectID int64, req RoundRequest) (*Round, error) {
	if req.Sample < 0 {
		return nil, Errorf(EInvalid, "the sample size cannot be negative")
	}
	ids, err := s.SummaryIDs(ctx, projectID, req.Documents)
	if err != nil {
		return nil, Op("Store.StartRound", err)
	}
	if len(req.Documents) > 0 {
		if missing, err := s.missingDocuments(ctx, projectID, req.Documents); err != nil {
			return nil, Op("Store.StartRound", err)
		} else if len(missing) > 0 {
			return nil, Errorf(EInvalid, "no document with id %q in this project", missing[0])
		}
	}
	sample := req.Sample
	if sample >= len(ids) {
		sample = 0
	}
	val, err := s.CreateRound(ctx, projectID, RoundSpec{Name: req.Name, Kind: req.Kind, PerItem: req.PerItem, Annotators: req.Annotators,
		Summaries: SampleSummaries(ids, sample, req.Seed), Dealing: req.Dealing, Seed: req.Seed, Sample: sample})
	return val, Op("Store.StartRound", err)
}

func (s *Store) missingDocuments(ctx context.Context, projectID int64, ids []string) ([]string, error) {
	var out []string
	for _, id := range ids {
		var n int
		if err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM documents WHERE project_id = ? AND external_id = ?`, projectID, id).Scan(&n); err != nil {
			return nil, err
		}
		if n == 0 {
			out = append(out, id)
		}
	}
	return out, nil
}

// RoundDealing is how a round's work was drawn and dealt.
type RoundDealing struct {
	Dealing string // DealBalanced or DealByDocument
	Seed    uint64
	Sample  int // 0: every summary chosen
}

// DealingOf returns how a round was dealt. Rounds created before dealing
// was recorded were dealt by document.
func (s *Store) DealingOf(ctx context.Context, roundID int64) (RoundDealing, error) {
	var d RoundDealing
	var seed int64
	err := s.read.QueryRowContext(ctx, `SELECT dealing, seed, sample FROM round_dealing WHERE round_id = ?`, roundID).Scan(&d.Dealing, &seed, &d.Sample)
	if errors.Is(err, sql.ErrNoRows) {
		return RoundDealing{Dealing: DealByDocument}, nil
	}
	d.Seed = uint64(seed)
	return d, Op("Store.DealingOf", err)
}
