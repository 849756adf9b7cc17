package export_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/export"
	"annotate/internal/importer"
	"annotate/internal/tasks"
)

// importInto parses an export as the native import format and imports it
// into a new project "alpha" of a fresh database that has the same
// accounts (so that deciders are linked again).
func importInto(t *testing.T, data []byte) (*tasks.Store, *domain.Project) {
	t.Helper()
	ctx := context.Background()
	s, err := tasks.Open(ctx, filepath.Join(t.TempDir(), "fresh.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	p, err := s.CreateProject(ctx, domain.Project{Slug: "alpha", Name: "Alpha", Settings: domain.DefaultSettings()})
	if err != nil {
		t.Fatal(err)
	}
	// The annotators are members, so that a raw export's labels can be
	// credited to them (an import gives no one work in a project they are
	// not part of).
	for _, name := range []string{"ann", "bob", "cat", "lea"} {
		u, err := s.CreateUser(ctx, name, "", "a long enough password", false)
		if err != nil {
			t.Fatal(err)
		}
		role := domain.RoleAnnotator
		if name == "lea" {
			role = domain.RoleLead
		}
		if err := s.SetMember(ctx, p.ID, u.ID, role); err != nil {
			t.Fatal(err)
		}
	}
	res, err := importer.Parse("", []importer.File{{Name: "gold.jsonl", R: bytes.NewReader(data)}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Format != importer.FormatNative {
		t.Fatalf("detected %s, want native", res.Format)
	}
	if _, err := s.Import(ctx, p.ID, res.Documents); err != nil {
		t.Fatal(err)
	}
	return s, p
}

// withoutAlignment drops the two scores that come from annotators'
// key-fact alignments, which an import does not carry.
func withoutAlignment(t *testing.T, b []byte) string {
	t.Helper()
	var out []string
	for _, rec := range data(t, b) {
		for _, s := range rec["summaries"].([]any) {
			sc := s.(map[string]any)["scores"].(map[string]any)
			delete(sc, "completeness")
			delete(sc, "conciseness")
		}
		line, _ := json.Marshal(rec)
		out = append(out, string(line))
	}
	return strings.Join(out, "\n")
}

func TestGoldRoundTrip(t *testing.T) {
	f := newFixture(t)
	first := f.write(export.Options{What: export.Gold})
	s, p := importInto(t, first)

	e, err := export.New(f.ctx, s, p, export.Options{What: export.Gold, Now: exportTime})
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	if err := e.Write(f.ctx, &again); err != nil {
		t.Fatal(err)
	}
	if got, want := withoutAlignment(t, again.Bytes()), withoutAlignment(t, first); got != want {
		t.Fatalf("the re-exported gold differs:\n got %s\nwant %s", got, want)
	}

	// The store's own view of the imported gold, not through the exporter.
	ids, err := s.SummaryIDs(f.ctx, p.ID, nil)
	if err != nil || len(ids) != 4 {
		t.Fatalf("summaries %v, %v", ids, err)
	}
	sum, _ := s.Summary(f.ctx, ids[0])
	gold, err := s.SummaryGold(f.ctx, sum.ID)
	if err != nil {
		t.Fatal(err)
	}
	lea, _ := s.UserByName(f.ctx, "lea")
	adj := gold[sum.Sentences[2].ID]
	if adj.Provenance != domain.ProvAdjudicated || adj.DecidedBy != lea.ID || adj.DecidedAt != "2026-01-03T12:00:00.000Z" ||
		adj.Note != "Neither reasoning nor contradiction: the figure is invented." || strings.Join(adj.ErrorTypes, ",") != "extrinsic_information" {
		t.Errorf("adjudicated gold after import: %+v", adj)
	}
	if g := gold[sum.Sentences[1].ID]; g.Provenance != domain.ProvMajority || g.Label != domain.LabelUnfaithful {
		t.Errorf("majority gold after import: %+v", g)
	}
	if sg, err := s.SummaryGoldOf(f.ctx, sum.ID); err != nil || sg.Label != domain.LabelUnfaithful || sg.Provenance != domain.ProvAdjudicated {
		t.Errorf("summary gold after import: %+v, %v", sg, err)
	}
	unresolved, _ := s.Summary(f.ctx, ids[1])
	gold, _ = s.SummaryGold(f.ctx, unresolved.ID)
	if g := gold[unresolved.Sentences[0].ID]; g.Provenance != domain.ProvUnresolved || g.Label != "" {
		t.Errorf("unresolved gold after import: %+v", g)
	}
	if _, err := s.SummaryGoldOf(f.ctx, unresolved.ID); domain.ErrorCode(err) != domain.ENotFound {
		t.Errorf("a summary with unresolved sentences got summary gold: %v", err)
	}
}

func TestImportingAnAnonymisedGoldExportLeavesDecidersOut(t *testing.T) {
	f := newFixture(t)
	s, p := importInto(t, f.write(export.Options{What: export.Gold, Anonymise: true}))
	ids, _ := s.SummaryIDs(f.ctx, p.ID, nil)
	sum, _ := s.Summary(f.ctx, ids[0])
	gold, _ := s.SummaryGold(f.ctx, sum.ID)
	if g := gold[sum.Sentences[2].ID]; g.Provenance != domain.ProvAdjudicated || g.DecidedBy != 0 {
		t.Errorf("gold decided by a pseudonym: %+v", g)
	}
}

func TestOnlyGoldAndRawExportsImport(t *testing.T) {
	f := newFixture(t)
	_, err := importer.Parse("", []importer.File{{Name: "scores.jsonl", R: bytes.NewReader(f.write(export.Options{What: export.Scores, Format: export.JSONL}))}})
	if err == nil || !strings.Contains(err.Error(), `scores.jsonl:1: what: this is a "scores" export; only gold and raw exports can be imported`) {
		t.Fatalf("importing a scores export: %v", err)
	}
}

// TestRawExportImportsBack imports a raw export into a project that holds
// the same documents (from the gold export) and exports it again: the
// labels come back the same, in the same rounds, from the same annotators.
func TestRawExportImportsBack(t *testing.T) {
	f := newFixture(t)
	raw := f.write(export.Options{What: export.Raw})
	s, p := importInto(t, f.write(export.Options{What: export.Gold}))
	res, err := importer.Parse("", []importer.File{{Name: "raw.jsonl", R: bytes.NewReader(raw)}})
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.Import(f.ctx, p.ID, res.Documents, res.Labels...)
	if err != nil {
		t.Fatal(err)
	}
	if st.Labels == 0 || st.Accounts != 0 {
		t.Fatalf("stats %+v", st)
	}
	e, err := export.New(f.ctx, s, p, export.Options{What: export.Raw, Now: exportTime})
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	if err := e.Write(f.ctx, &again); err != nil {
		t.Fatal(err)
	}
	if a, b := labelFields(t, raw), labelFields(t, again.Bytes()); a != b {
		t.Errorf("labels after the round trip:\n%s\nwant:\n%s", b, a)
	}
}

// labelFields keeps the label columns of a raw JSON Lines export, sorted.
func labelFields(t *testing.T, data []byte) string {
	t.Helper()
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n")[1:] {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		if r["labelled"] != true {
			continue
		}
		var key []string
		for _, k := range []string{"round", "annotator", "summary_id", "sentence_idx", "label", "error_types", "explanation", "ambiguous",
			"ambiguity_type", "ambiguity_note", "unsure_note", "relevance", "non_summary", "topic_category", "comment"} {
			v, _ := json.Marshal(r[k])
			key = append(key, string(v))
		}
		out = append(out, strings.Join(key, "|"))
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// TestTofuEvalColumnsMatchTheRelease reads our TofuEval export the way the
// released files are read: same header, and labels and error types that
// the TofuEval importer understands.
func TestTofuEvalColumnsMatchTheRelease(t *testing.T) {
	f := newFixture(t)
	release, err := os.Open("../importer/testdata/tofueval/meetingbank_factual_eval_test.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer release.Close()
	want, err := csv.NewReader(release).Read()
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(f.write(export.Options{What: export.TofuEval}))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rows[0], ",") != strings.Join(want, ",") {
		t.Fatalf("header %v, want the release's %v", rows[0], want)
	}
	types := 0
	for _, r := range rows[1:] {
		if r[6] != "yes" && r[6] != "no" {
			t.Errorf("sent_label %q", r[6])
		}
		for _, name := range strings.Split(r[8], ", ") {
			if name == "" {
				continue
			}
			types++
			if _, ok := importer.ErrorTypeCode("tofueval", name); !ok {
				t.Errorf("type %q is not a TofuEval error type", name)
			}
		}
	}
	if len(rows) != 1+7 || types != 2 {
		t.Errorf("%d rows with %d error types, want 7 sentences with a yes/no gold label and 2 types", len(rows)-1, types)
	}
}
