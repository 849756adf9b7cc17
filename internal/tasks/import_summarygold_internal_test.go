package tasks

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"annotate/internal/domain"
)

// TestImportDerivesSummaryGoldAsFromTheRows checks the summary gold an
// import derives from what it knows of the summaries it made (setSummaryGold
// in resolve) against deriveSummaryGold, which reads the rows: after
// importing documents whose summaries mix summary gold of every kind,
// sentence gold of every provenance (with and without a decider) and
// labels that agree or not, deriving the gold of every summary it
// resolved (those with labels) again from the rows must change nothing.
func TestImportDerivesSummaryGoldAsFromTheRows(t *testing.T) {
	ctx := context.Background()
	s := openTempStore(t)
	p, err := s.CreateProject(ctx, domain.Project{Slug: "p", Settings: domain.DefaultSettings()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateUser(ctx, "lead", "", "a long enough password", false); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 11))
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	var docs []domain.DocumentInput
	labelled := map[string]bool{} // the summaries the import resolves
	for d := range 40 {
		doc := domain.DocumentInput{ExternalID: fmt.Sprintf("d%d", d), Sentences: []string{"Text."}}
		for k := range 5 {
			sum := domain.SummaryInput{ExternalID: fmt.Sprintf("d%d-%d", d, k)}
			switch rng.IntN(4) {
			case 1:
				sum.Gold = &domain.GoldInput{Label: pick(domain.LabelFaithful, domain.LabelUnfaithful)}
			case 2:
				sum.Gold = &domain.GoldInput{Label: pick(domain.LabelFaithful, domain.LabelUnfaithful), Provenance: pick(domain.ProvAdjudicated, domain.ProvUnanimous, domain.ProvMajority)}
			}
			for i := range 1 + rng.IntN(3) {
				sent := domain.SentenceInput{Text: fmt.Sprintf("Sentence %d.", i)}
				if rng.IntN(2) == 0 {
					g := &domain.GoldInput{Label: pick(domain.LabelFaithful, domain.LabelUnfaithful, domain.LabelBorderline),
						Provenance: pick("", domain.ProvImported, domain.ProvUnanimous, domain.ProvMajority, domain.ProvAdjudicated)}
					switch rng.IntN(5) {
					case 0:
						g.DecidedBy = "lead"
					case 1:
						g.Label, g.Provenance = "", domain.ProvUnresolved
					case 2: // waiting, with a decider: resolution leaves it
						g.Label, g.Provenance, g.DecidedBy = "", domain.ProvUnresolved, "lead"
					}
					sent.Gold = g
				}
				if rng.IntN(4) != 0 {
					agree := pick(domain.LabelFaithful, domain.LabelUnfaithful)
					for a := range 1 + rng.IntN(3) {
						l := agree
						if rng.IntN(3) == 0 {
							l = pick(domain.LabelFaithful, domain.LabelUnfaithful)
						}
						in := domain.SentenceLabelInput{Annotator: fmt.Sprintf("w%d", a), Round: "r", Label: l}
						if l == domain.LabelUnfaithful {
							in.ErrorTypes = []string{"extrinsic_information"}
						}
						sent.Labels = append(sent.Labels, in)
					}
					labelled[sum.ExternalID] = true
				}
				sum.Sentences = append(sum.Sentences, sent)
			}
			doc.Summaries = append(doc.Summaries, sum)
		}
		docs = append(docs, doc)
	}
	if _, err := s.Import(ctx, p.ID, docs); err != nil {
		t.Fatal(err)
	}
	summaryGold := func(q txQuerier) map[int64]domain.SummaryGoldLabel {
		t.Helper()
		out := map[int64]domain.SummaryGoldLabel{}
		rows, err := q.QueryContext(ctx, `SELECT summary_id, label, provenance FROM gold_summaries`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			var g domain.SummaryGoldLabel
			if err := rows.Scan(&id, &g.Label, &g.Provenance); err != nil {
				t.Fatal(err)
			}
			out[id] = g
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	imported := summaryGold(tx)
	derived := 0
	for _, g := range imported {
		if g.Provenance != domain.ProvImported {
			derived++
		}
	}
	if derived < 10 {
		t.Fatalf("only %d summaries have derived gold: the fixture does not exercise the derivation", derived)
	}
	var ids []int64
	rows, err := tx.QueryContext(ctx, `SELECT id, external_id FROM summaries WHERE project_id = ?`, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		var ext string
		if err := rows.Scan(&id, &ext); err != nil {
			t.Fatal(err)
		}
		if labelled[ext] {
			ids = append(ids, id)
		}
	}
	rows.Close()
	for _, id := range ids {
		if err := s.deriveSummaryGold(ctx, tx, id); err != nil {
			t.Fatal(err)
		}
	}
	if again := summaryGold(tx); !reflect.DeepEqual(again, imported) {
		for id, g := range again {
			if imported[id] != g {
				t.Errorf("summary %d: imported %+v, derived from the rows %+v", id, imported[id], g)
			}
		}
		for id, g := range imported {
			if _, ok := again[id]; !ok {
				t.Errorf("summary %d: imported %+v, derived from the rows none", id, g)
			}
		}
	}
}
