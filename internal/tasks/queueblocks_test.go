package tasks_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/tasks"
)

// TestQueueNavAcrossBlocks checks QueueNav and QueueCounts, which read
// the queue's counts from queue_blocks, against the whole queue listed
// row by row, on queues that span several blocks of 256 positions and
// interleave two projects, through dealing, submissions, a release and a
// reassignment.
func TestQueueNavAcrossBlocks(t *testing.T) {
	ctx := context.Background()
	s, err := tasks.Open(ctx, filepath.Join(t.TempDir(), "q.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a, _ := s.CreateUser(ctx, "ann", "", "a long enough password", false)
	b, _ := s.CreateUser(ctx, "bea", "", "a long enough password", false)
	project := func(slug string, n int) (*domain.Project, []int64) {
		p, err := s.CreateProject(ctx, domain.Project{Slug: slug, Settings: domain.DefaultSettings()})
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range []*domain.User{a, b} {
			if err := s.SetMember(ctx, p.ID, u.ID, domain.RoleAnnotator); err != nil {
				t.Fatal(err)
			}
		}
		docs := make([]domain.DocumentInput, n)
		for i := range docs {
			docs[i] = domain.DocumentInput{ExternalID: fmt.Sprintf("%s-d%d", slug, i), Sentences: []string{"The council met."},
				Summaries: []domain.SummaryInput{{ExternalID: fmt.Sprintf("%s-s%d", slug, i), Sentences: []domain.SentenceInput{{Text: "The council met."}}}}}
		}
		if _, err := s.Import(ctx, p.ID, docs); err != nil {
			t.Fatal(err)
		}
		ids, err := s.SummaryIDs(ctx, p.ID, nil)
		if err != nil {
			t.Fatal(err)
		}
		return p, ids
	}
	p, ps := project("p", 700)
	q, qs := project("q", 300)
	round := func(p *domain.Project, name string, sums []int64, users ...*domain.User) *domain.Round {
		var ids []int64
		for _, u := range users {
			ids = append(ids, u.ID)
		}
		r, err := s.CreateRound(ctx, p.ID, domain.RoundSpec{Name: name, Kind: domain.RoundProduction, PerItem: 1, Annotators: ids, Summaries: sums})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	round(p, "p1", ps[:300], a)
	round(q, "q1", qs, a, b)
	r2 := round(p, "p2", ps[300:], a, b)

	check := func(when string, p *domain.Project, u *domain.User) {
		t.Helper()
		queue, err := s.Queue(ctx, p.ID, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		done, firstOpen, rank := 0, int64(0), 0
		for i, x := range queue {
			if x.Status == domain.StatusSubmitted {
				done++
			} else if firstOpen == 0 {
				firstOpen, rank = x.ID, i
			}
		}
		for i, x := range queue {
			got, err := s.QueueNav(ctx, &x)
			if err != nil {
				t.Fatal(err)
			}
			want := domain.QueueNav{Position: i + 1, Total: len(queue), Done: done}
			if i > 0 {
				want.Prev = queue[i-1].ID
			}
			if i+1 < len(queue) {
				want.Next = queue[i+1].ID
			}
			if got != want {
				t.Fatalf("%s: %s's assignment %d (position %d): %+v, want %+v", when, u.Username, x.ID, x.Position, got, want)
			}
		}
		sum, err := s.QueueCounts(ctx, p.ID, u.ID)
		want := domain.QueueSummary{Total: len(queue), Done: done, NextOpen: firstOpen, NextRank: rank}
		if err != nil || sum != want {
			t.Fatalf("%s: %s's QueueCounts = %+v, %v; want %+v", when, u.Username, sum, err, want)
		}
	}
	all := func(when string) {
		t.Helper()
		for _, pr := range []*domain.Project{p, q} {
			for _, u := range []*domain.User{a, b} {
				check(when, pr, u)
			}
		}
	}
	all("dealt")
	if n, _ := s.Queue(ctx, p.ID, a.ID); len(n) != 500 {
		t.Fatalf("ann's queue in p holds %d, want 500 (the fixture must span blocks)", len(n))
	}

	// Submit every third of ann's assignments in p.
	queue, _ := s.Queue(ctx, p.ID, a.ID)
	for i := 0; i < len(queue); i += 3 {
		x := queue[i]
		sum, err := s.Summary(ctx, x.SummaryID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.SaveSentenceLabel(ctx, x.ID, a.ID, x.Version, domain.SentenceLabel{SentenceID: sum.Sentences[0].ID, Label: "faithful"}); err != nil {
			t.Fatal(err)
		}
		if err := s.Submit(ctx, x.ID, a.ID); err != nil {
			t.Fatal(err)
		}
	}
	all("a third submitted")

	// Release one of ann's open assignments in p2 and reassign another to bea.
	var open []domain.Assignment
	queue, _ = s.Queue(ctx, p.ID, a.ID)
	for _, x := range queue {
		if x.RoundID == r2.ID && x.Status != domain.StatusSubmitted {
			open = append(open, x)
		}
	}
	if err := s.ReleaseAssignment(ctx, r2.ID, open[0].ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReassignAssignment(ctx, r2.ID, open[1].ID, b.ID); err != nil {
		t.Fatal(err)
	}
	all("one released, one reassigned")
}

// TestImportRecountsQueues imports annotators' labels (which deal them
// assignments in an imported round, written with the queue triggers held)
// into a project whose annotator already has a queue, and checks the
// counts QueueNav and QueueCounts read against the queues listed row by
// row; then a dry run, rolled back, must leave them as they were.
func TestImportRecountsQueues(t *testing.T) {
	ctx := context.Background()
	s, err := tasks.Open(ctx, filepath.Join(t.TempDir(), "qi.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a, _ := s.CreateUser(ctx, "ann", "", "a long enough password", false)
	p, err := s.CreateProject(ctx, domain.Project{Slug: "p", Settings: domain.DefaultSettings()})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetMember(ctx, p.ID, a.ID, domain.RoleAnnotator); err != nil {
		t.Fatal(err)
	}
	doc := func(i int, labelled bool) domain.DocumentInput {
		sent := domain.SentenceInput{Text: "The council met."}
		if labelled {
			sent.Labels = []domain.SentenceLabelInput{{Annotator: "ann", Round: "imported", Label: "faithful"}, {Annotator: "w-42", Round: "imported", Label: "unfaithful", ErrorTypes: []string{"contradiction"}}}
		}
		return domain.DocumentInput{ExternalID: fmt.Sprintf("d%d", i), Sentences: []string{"The council met."},
			Summaries: []domain.SummaryInput{{ExternalID: fmt.Sprintf("s%d", i), Sentences: []domain.SentenceInput{sent}}}}
	}
	var first []domain.DocumentInput
	for i := range 300 {
		first = append(first, doc(i, false))
	}
	if _, err := s.Import(ctx, p.ID, first); err != nil {
		t.Fatal(err)
	}
	ids, _ := s.SummaryIDs(ctx, p.ID, nil)
	if _, err := s.CreateRound(ctx, p.ID, domain.RoundSpec{Name: "r1", Kind: domain.RoundProduction, PerItem: 1, Annotators: []int64{a.ID}, Summaries: ids}); err != nil {
		t.Fatal(err)
	}
	var labelled []domain.DocumentInput
	for i := 300; i < 600; i++ {
		labelled = append(labelled, doc(i, true))
	}
	check := func(when string) {
		t.Helper()
		users, err := s.Users(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range users {
			queue, err := s.Queue(ctx, p.ID, u.ID)
			if err != nil {
				t.Fatal(err)
			}
			done := 0
			for _, x := range queue {
				if x.Status == domain.StatusSubmitted {
					done++
				}
			}
			for _, i := range []int{0, len(queue) / 2, len(queue) - 1} {
				if i < 0 || i >= len(queue) {
					continue
				}
				x := queue[i]
				nav, err := s.QueueNav(ctx, &x)
				if err != nil {
					t.Fatal(err)
				}
				if nav.Position != i+1 || nav.Total != len(queue) || nav.Done != done {
					t.Fatalf("%s: %s's assignment %d of %d: %+v, want position %d, total %d, done %d", when, u.Username, i+1, len(queue), nav, i+1, len(queue), done)
				}
			}
			sum, err := s.QueueCounts(ctx, p.ID, u.ID)
			if err != nil || sum.Total != len(queue) || sum.Done != done {
				t.Fatalf("%s: %s's QueueCounts = %+v, %v; want total %d, done %d", when, u.Username, sum, err, len(queue), done)
			}
		}
	}
	if _, _, err := s.ImportWith(ctx, domain.ImportRequest{Project: p.ID, Documents: labelled, DryRun: true}); err != nil {
		t.Fatal(err)
	}
	check("after a dry run")
	st, _, err := s.ImportWith(ctx, domain.ImportRequest{Project: p.ID, Documents: labelled})
	if err != nil {
		t.Fatal(err)
	}
	if q, _ := s.Queue(ctx, p.ID, a.ID); len(q) != 600 {
		t.Fatalf("ann's queue holds %d after importing her labels (stats %+v), want 600", len(q), st)
	}
	check("after importing labels")
}
