package tasks_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"reflect"
	"testing"

	"annotate/internal/domain"
)

// The queries per document and per summary that EachSummarySentences
// replaced: the reference it must agree with.
const (
	oracleInScope   = `(?2 = 0 OR s.id IN (SELECT summary_id FROM assignments WHERE round_id = ?2 AND status != 'released'))`
	oracleDocuments = `SELECT d.id FROM documents d WHERE d.project_id = ?1
		AND EXISTS (SELECT 1 FROM summaries s WHERE s.document_id = d.id AND ` + oracleInScope + `) ORDER BY d.id`
	oracleSummaries = `SELECT s.id, s.external_id,
			(SELECT count(*) FROM summary_sentences ss WHERE ss.summary_id = s.id),
			(SELECT count(*) FROM summary_sentences ss JOIN gold_sentences gs ON gs.sentence_id = ss.id
				WHERE ss.summary_id = s.id AND gs.label != '' AND gs.provenance != 'unresolved'),
			(SELECT count(*) FROM summary_sentences ss JOIN gold_sentences gs ON gs.sentence_id = ss.id
				WHERE ss.summary_id = s.id AND gs.label = 'faithful' AND gs.provenance != 'unresolved'),
			(SELECT count(*) FROM summary_sentences ss JOIN gold_sentences gs ON gs.sentence_id = ss.id
				WHERE ss.summary_id = s.id AND gs.label = 'unfaithful' AND gs.provenance != 'unresolved'),
			(SELECT count(*) FROM key_facts k WHERE k.document_id = s.document_id AND (k.topic = s.topic OR k.topic = ''))
		FROM summaries s WHERE s.document_id = ?1 AND ` + oracleInScope + ` ORDER BY s.id`
	oracleAlignment = `WITH a AS (SELECT id FROM assignments WHERE summary_id = ?1 AND status = 'submitted' AND (?2 = 0 OR round_id = ?2)),
		e AS (SELECT kl.key_fact_id AS k, kl.sentence_id AS s FROM keyfact_labels kl WHERE kl.assignment_id IN (SELECT id FROM a)
			GROUP BY kl.key_fact_id, kl.sentence_id HAVING count(*) * 2 > (SELECT count(*) FROM a))
		SELECT (SELECT count(*) FROM a), (SELECT count(DISTINCT k) FROM e), (SELECT count(DISTINCT s) FROM e)`
	oracleSentences = `SELECT ss.id, ss.idx, coalesce(ss.source_index, ss.idx), ss.text, g.sentence_id IS NOT NULL, coalesce(g.label, ''),
			coalesce(g.provenance, ''), coalesce(g.explanation, ''), coalesce(u.username, ''), g.ambiguous
		FROM summary_sentences ss LEFT JOIN gold_sentences g ON g.sentence_id = ss.id LEFT JOIN users u ON u.id = g.decided_by
		WHERE ss.summary_id = ? ORDER BY ss.idx`
)

// oracleSummary is what the reference queries say of a summary.
type oracleSummary struct {
	External                                        string
	Sentences, Gold, Faithful, Unfaithful, KeyFacts int
	Alignments, Covered, Covering                   int
	SentenceRows                                    []string
}

func oracleSummariesOf(t *testing.T, db *sql.DB, scope domain.ExportScope) []oracleSummary {
	t.Helper()
	var docs []int64
	rows, err := db.Query(oracleDocuments, scope.ProjectID, scope.RoundID)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		docs = append(docs, id)
	}
	rows.Close()
	var out []oracleSummary
	for _, d := range docs {
		rows, err := db.Query(oracleSummaries, d, scope.RoundID)
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for rows.Next() {
			var o oracleSummary
			var id int64
			if err := rows.Scan(&id, &o.External, &o.Sentences, &o.Gold, &o.Faithful, &o.Unfaithful, &o.KeyFacts); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
			out = append(out, o)
		}
		rows.Close()
		for i, id := range ids {
			o := &out[len(out)-len(ids)+i]
			if err := db.QueryRow(oracleAlignment, id, scope.RoundID).Scan(&o.Alignments, &o.Covered, &o.Covering); err != nil {
				t.Fatal(err)
			}
			srows, err := db.Query(oracleSentences, id)
			if err != nil {
				t.Fatal(err)
			}
			for srows.Next() {
				var sid int64
				var idx, src int
				var text, label, prov, expl, by string
				var has bool
				var amb sql.NullBool
				if err := srows.Scan(&sid, &idx, &src, &text, &has, &label, &prov, &expl, &by, &amb); err != nil {
					t.Fatal(err)
				}
				o.SentenceRows = append(o.SentenceRows, sentenceRow(sid, idx, src, text, has, label, prov, expl, by, amb))
			}
			srows.Close()
		}
	}
	return out
}

func sentenceRow(id int64, idx, src int, text string, has bool, label, prov, expl, by string, amb sql.NullBool) string {
	return fmtRow(id, idx, src, text, has, label, prov, expl, by, amb.Valid, amb.Bool)
}

func fmtRow(v ...any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestEachSummarySentencesAgreesWithQueriesPerSummary compares the
// summaries, their counts, alignments and sentences with gold that
// EachSummarySentences merges from its cursors with what the queries per
// document and per summary it replaced read, in every scope.
func TestEachSummarySentencesAgreesWithQueriesPerSummary(t *testing.T) {
	ctx := context.Background()
	s, db, project, rounds := cellsProject(t)
	for name, round := range map[string]int64{"all rounds": 0, "cal": rounds["cal"], "prod": rounds["prod"]} {
		t.Run(name, func(t *testing.T) {
			scope := domain.ExportScope{ProjectID: project, RoundID: round}
			want := oracleSummariesOf(t, db, scope)
			r, err := s.BeginExport(ctx, scope)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			var got []oracleSummary
			covered := 0
			if err := r.EachSummarySentences(ctx, func(sum *domain.ExportSummary, sents []domain.ExportSentence) error {
				o := oracleSummary{External: sum.External, Sentences: sum.Sentences, Gold: sum.GoldSentences, Faithful: sum.FaithfulSentences,
					Unfaithful: sum.UnfaithfulSentences, KeyFacts: sum.KeyFacts, Alignments: sum.Alignments, Covered: sum.CoveredKeyFacts, Covering: sum.CoveringSentences}
				covered += sum.CoveredKeyFacts
				for _, st := range sents {
					g := st.Gold
					if g == nil {
						g = &domain.ExportGold{}
					}
					var amb sql.NullBool
					if g.Ambiguous != nil {
						amb = sql.NullBool{Valid: true, Bool: *g.Ambiguous}
					}
					o.SentenceRows = append(o.SentenceRows, sentenceRow(st.ID, st.Index, st.SourceIndex, st.Text, st.Gold != nil, g.Label, g.Provenance, g.Explanation, g.DecidedBy, amb))
				}
				got = append(got, o)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if name == "all rounds" && covered == 0 {
				t.Fatal("no summary has a key fact in its gold alignment: the fixture does not exercise it")
			}
			if len(got) != len(want) {
				t.Fatalf("%d summaries, want %d", len(got), len(want))
			}
			for i := range want {
				if !reflect.DeepEqual(got[i], want[i]) {
					t.Errorf("summary %d:\n got %+v\nwant %+v", i, got[i], want[i])
				}
			}
		})
	}
}
