package tasks_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/tasks"
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
			coalesce(g.provenance, ''), coalesce(g.explanation, ''), coalesce(u.username, ''), g.ambiguous,
			coalesce(g.error_types, '[]'), coalesce(g.ambiguity_type, ''), coalesce(g.ambiguity_note, ''), coalesce(g.decided_at, ''), coalesce(g.note, '')
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
				var text, label, prov, expl, by, types string
				var has bool
				var amb sql.NullBool
				var rest goldRest
				if err := srows.Scan(&sid, &idx, &src, &text, &has, &label, &prov, &expl, &by, &amb,
					&types, &rest.AmbiguityType, &rest.AmbiguityNote, &rest.DecidedAt, &rest.Note); err != nil {
					t.Fatal(err)
				}
				if err := json.Unmarshal([]byte(types), &rest.ErrorTypes); err != nil {
					t.Fatal(err)
				}
				o.SentenceRows = append(o.SentenceRows, sentenceRow(sid, idx, src, text, has, label, prov, expl, by, amb, rest))
			}
			srows.Close()
		}
	}
	return out
}

// goldRest are the gold fields of a sentence row that are texts but
// for the explanation: those packed into one column when not all empty.
type goldRest struct {
	ErrorTypes                                    []string
	AmbiguityType, AmbiguityNote, DecidedAt, Note string
}

func sentenceRow(id int64, idx, src int, text string, has bool, label, prov, expl, by string, amb sql.NullBool, rest goldRest) string {
	if rest.ErrorTypes == nil {
		rest.ErrorTypes = []string{}
	}
	return fmtRow(id, idx, src, text, has, label, prov, expl, by, amb.Valid, amb.Bool, rest)
}

func fmtRow(v ...any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestEachSummarySentencesAgreesWithQueriesPerSummary compares the
// summaries, their counts, alignments and sentences with gold that
// EachSummarySentences merges from its cursors with what the queries per
// document and per summary it replaced read, in every scope, with the
// sentences read on a second connection and on the export's own.
func TestEachSummarySentencesAgreesWithQueriesPerSummary(t *testing.T) {
	s, db, project, rounds := cellsProject(t)
	eachScope(t, s, project, rounds, func(t *testing.T, scope domain.ExportScope) {
		want := oracleSummariesOf(t, db, scope)
		got, covered := eachSummarySentences(t, s, scope)
		if scope.RoundID == 0 && covered == 0 {
			t.Fatal("no summary has a key fact in its gold alignment: the fixture does not exercise it")
		}
		compareSummaries(t, got, want)
	})
}

// TestEachSummarySentencesReadsOneSnapshot changes gold and sentences after
// an export's transaction started and before its sentences would be read
// on a second connection: the export must still give them as they were
// when it started, which the second connection no longer sees.
func TestEachSummarySentencesReadsOneSnapshot(t *testing.T) {
	ctx := context.Background()
	s, db, project, _ := cellsProject(t)
	scope := domain.ExportScope{ProjectID: project}
	want := oracleSummariesOf(t, db, scope)
	writes := 0
	*tasks.ExportApartBetween = func() {
		writes++
		of := `SELECT %s(ss.id) FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id JOIN gold_sentences g ON g.sentence_id = ss.id
			WHERE s.project_id = ? AND g.decided_by IS NOT NULL`
		for _, q := range []string{
			`UPDATE gold_sentences SET label = 'borderline', explanation = 'changed' WHERE sentence_id IN (` + fmt.Sprintf(of, "min") + `)`,
			`DELETE FROM gold_sentences WHERE sentence_id IN (` + fmt.Sprintf(of, "max") + `)`,
			`UPDATE summary_sentences SET text = 'changed' WHERE id IN (SELECT min(ss.id) FROM summary_sentences ss JOIN summaries s ON s.id = ss.summary_id WHERE s.project_id = ?)`,
		} {
			if _, err := db.ExecContext(ctx, q, project); err != nil {
				t.Error(err)
			}
		}
	}
	defer func() { *tasks.ExportApartBetween = nil }()
	got, _ := eachSummarySentences(t, s, scope)
	if writes != 1 {
		t.Fatalf("the gold was written %d times between the transactions, want 1: the export did not try a second connection", writes)
	}
	compareSummaries(t, got, want)
	*tasks.ExportApartBetween = nil
	if after, _ := eachSummarySentences(t, s, scope); reflect.DeepEqual(after, want) {
		t.Error("an export after the writes gives the sentences from before them")
	}
}

// eachSummarySentences reads the summaries in scope with
// EachSummarySentences, as the reference queries describe them, and
// counts the key facts in their gold alignments.
func eachSummarySentences(t *testing.T, s *tasks.Store, scope domain.ExportScope) ([]oracleSummary, int) {
	t.Helper()
	ctx := context.Background()
	r := beginExport(t, s, scope)
	defer r.Close()
	var got []oracleSummary
	covered, decided, bare := 0, 0, 0
	if err := r.EachSummarySentences(ctx, func(sum *domain.ExportSummary, sents []domain.ExportSentence) error {
		o := oracleSummary{External: sum.External, Sentences: sum.Sentences, Gold: sum.GoldSentences, Faithful: sum.FaithfulSentences,
			Unfaithful: sum.UnfaithfulSentences, KeyFacts: sum.KeyFacts, Alignments: sum.Alignments, Covered: sum.CoveredKeyFacts, Covering: sum.CoveringSentences}
		covered += sum.CoveredKeyFacts
		for _, st := range sents {
			g := st.Gold
			if g == nil {
				g = &domain.ExportGold{}
			}
			if g.DecidedBy != "" {
				decided++
			}
			var amb sql.NullBool
			if g.Ambiguous != nil {
				amb = sql.NullBool{Valid: true, Bool: *g.Ambiguous}
			}
			if st.Gold != nil && g.ErrorTypes == nil {
				t.Errorf("sentence %d: gold error types nil, not empty", st.ID)
			}
			if st.Gold != nil && g.Explanation == "" && g.Note == "" && len(g.ErrorTypes) == 0 && g.AmbiguityType == "" {
				bare++
			}
			rest := goldRest{ErrorTypes: g.ErrorTypes, AmbiguityType: g.AmbiguityType, AmbiguityNote: g.AmbiguityNote, DecidedAt: g.DecidedAt, Note: g.Note}
			o.SentenceRows = append(o.SentenceRows, sentenceRow(st.ID, st.Index, st.SourceIndex, st.Text, st.Gold != nil, g.Label, g.Provenance, g.Explanation, g.DecidedBy, amb, rest))
		}
		got = append(got, o)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if scope.RoundID == 0 && decided == 0 {
		t.Fatal("no gold names its decider: the fixture does not exercise the names")
	}
	if scope.RoundID == 0 && bare == 0 {
		t.Fatal("every gold has texts: the fixture does not exercise gold without them")
	}
	return got, covered
}

func compareSummaries(t *testing.T, got, want []oracleSummary) {
	t.Helper()
	compareEach(t, "summary", got, want)
}

// TestExportOneConnectionReadsNothingApart reads a project's sentences and
// cells with ExportScope.OneConnection, as an export made while people
// work does: neither may start a second transaction, and both must give
// what the reference queries give.
func TestExportOneConnectionReadsNothingApart(t *testing.T) {
	s, db, project, _ := cellsProject(t)
	scope := domain.ExportScope{ProjectID: project, OneConnection: true}
	apart := 0
	*tasks.ExportApartBetween = func() { apart++ }
	defer func() { *tasks.ExportApartBetween = nil }()
	got, _ := eachSummarySentences(t, s, scope)
	compareSummaries(t, got, oracleSummariesOf(t, db, scope))
	compareCells(t, eachCells(t, s, scope), allOracleCells(t, s, db, scope))
	if apart != 0 {
		t.Fatalf("an export on one connection started %d second transactions", apart)
	}
	scope.OneConnection = false
	eachSummarySentences(t, s, scope)
	if apart != 1 {
		t.Fatalf("an export free to use a second connection started %d second transactions, want 1", apart)
	}
}
