package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"annotate/internal/app"
	"annotate/internal/domain"
)

// TestRatingsFileFromDemo labels the demo's calibration round as its three
// annotators would (one leaves sentences out), writes the faithfulness
// labels as a ratings file with --table ratings, and checks that
// "agreement --ratings" on that file gives the α, mean Cohen's κ and
// Fleiss' κ of the project report: for relevance too, whose weighted κ
// takes its weights from the 1–5 scale (the file says its span).
func TestRatingsFileFromDemo(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "demo.db")
	store := openDB(t, db)
	if err := app.New(store).SetupDemo(ctx, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	p := must(store.ProjectBySlug(ctx, app.DemoSlug))(t)
	saved, skipped := 0, 0
	for i, name := range []string{"ann1", "ann2", "ann3"} {
		u, err := store.UserByName(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		q, err := store.Queue(ctx, p.ID, u.ID)
		if err != nil || len(q) == 0 {
			t.Fatalf("%s queue: %v, %d items", name, err, len(q))
		}
		for _, a := range q {
			sum, err := store.Summary(ctx, a.SummaryID)
			if err != nil {
				t.Fatal(err)
			}
			version := a.Version
			for j, s := range sum.Sentences {
				if i == 2 && j%3 == 1 {
					skipped++ // ann3 leaves every third sentence unlabelled
					continue
				}
				l := domain.SentenceLabel{SentenceID: s.ID, Label: domain.LabelFaithful}
				if (int(s.ID)+i)%4 == 0 {
					l = domain.SentenceLabel{SentenceID: s.ID, Label: domain.LabelUnfaithful, ErrorTypes: []string{"contradiction"}, Explanation: "not in the transcript"}
				}
				if (int(s.ID)+i)%8 == 0 {
					l.ErrorTypes = append(l.ErrorTypes, "extrinsic_information")
				}
				if version, err = store.SaveSentenceLabel(ctx, a.ID, u.ID, version, l); err != nil {
					t.Fatalf("%s sentence %d: %v", name, s.ID, err)
				}
				saved++
			}
			// Relevance from 1, 2 and 4 only: the weights of the 1–5 scale
			// differ from those of the three values' positions.
			rel := domain.SummaryLabel{Relevance: []int{1, 2, 4, 4, 1, 2, 2}[(int(a.SummaryID)*(i+2)+i)%7]}
			if version, err = store.SaveSummaryLabel(ctx, a.ID, u.ID, version, rel); err != nil {
				t.Fatalf("%s summary %d: %v", name, a.SummaryID, err)
			}
		}
	}
	store.Close()

	// The labels saved above are drafts: count them. Each dimension's
	// ratings file, read back with no flags, gives the report's figures:
	// error-type sets at the masi level, which differs from nominal.
	for _, dim := range []string{"faithfulness@sentence", "error_types@sentence", "relevance@summary"} {
		args := []string{"agreement", "--db", db, "--project", "demo", "--dimension", dim, "--drafts"}
		out, errOut, err := runCmd(t, "", nil, append(args, "--format", "csv", "--table", "ratings")...)
		if err != nil {
			t.Fatalf("ratings: %v\n%s", err, errOut)
		}
		cr := csv.NewReader(strings.NewReader(out))
		cr.Comment = '#'
		rows, err := cr.ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if dim == "faithfulness@sentence" {
			if len(rows) != saved+1 || strings.Join(rows[0], ",") != "unit,coder,value" {
				t.Fatalf("ratings file has %d rows (want %d ratings and a header), header %v", len(rows), saved, rows[0])
			}
			for _, r := range rows[1:] {
				var unit []any
				if err := json.Unmarshal([]byte(r[0]), &unit); err != nil || len(unit) != 3 || (r[2] != "faithful" && r[2] != "unfaithful") {
					t.Fatalf("row %v (%v)", r, err)
				}
				if doc, _ := unit[0].(string); !strings.HasPrefix(unit[1].(string), doc+"|") || unit[2].(float64) < 1 {
					t.Fatalf("unit %v is not the sentence's document, summary and number", unit)
				}
			}
		}
		file := filepath.Join(t.TempDir(), "ratings.csv")
		os.WriteFile(file, []byte(out), 0o644)

		fromFile, _, err := runCmd(t, "", nil, "agreement", "--ratings", file, "--format", "json")
		if err != nil {
			t.Fatal(err)
		}
		var f struct {
			Level      string
			Weights    string
			Statistics map[string]struct{ Value *float64 } `json:"statistics"`
		}
		if err := json.Unmarshal([]byte(fromFile), &f); err != nil {
			t.Fatalf("%v\n%s", err, fromFile)
		}
		fromProject, _, err := runCmd(t, "", nil, append(args, "--format", "json", "--bootstrap", "0")...)
		if err != nil {
			t.Fatal(err)
		}
		var pr struct {
			Dimensions []struct {
				Statistics map[string]struct{ Value *float64 } `json:"statistics"`
			} `json:"dimensions"`
		}
		if err := json.Unmarshal([]byte(fromProject), &pr); err != nil {
			t.Fatal(err)
		}
		if len(pr.Dimensions) != 1 {
			t.Fatalf("%s: %d dimensions", dim, len(pr.Dimensions))
		}
		compared := 0
		for _, stat := range []string{"krippendorff_alpha", "cohen_kappa_mean", "fleiss_kappa"} {
			a, b := f.Statistics[stat].Value, pr.Dimensions[0].Statistics[stat].Value
			if b == nil {
				continue
			}
			if a == nil || math.Abs(*a-*b) > 1e-12 {
				t.Errorf("%s %s: from the ratings file %v, from the project %v", dim, stat, fmtPtr(a), *b)
			}
			compared++
		}
		if compared == 0 {
			t.Fatalf("%s: no statistic to compare\nfile %s\nproject %s", dim, fromFile, fromProject)
		}
		t.Logf("%s: level %s, weights %s, %d statistics equal, alpha %v", dim, f.Level, f.Weights, compared, fmtPtr(f.Statistics["krippendorff_alpha"].Value))
	}
	t.Logf("%d ratings (%d left out)", saved, skipped)

	if _, _, err := runCmd(t, "", nil, "agreement", "--db", db, "--project", "demo", "--dimension", "faithfulness", "--format", "csv", "--table", "ratings"); err == nil || !strings.Contains(err.Error(), "one dimension at one level") {
		t.Errorf("both levels: err = %v", err)
	}
}

func fmtPtr(p *float64) string {
	if p == nil {
		return "undefined"
	}
	return strconv.FormatFloat(*p, 'g', -1, 64)
}

// TestAgreementUsesPseudonyms: on a project whose settings hide who
// labelled what, `agreement --project` names annotators as its pages do,
// by pseudonym (it printed usernames before), in the report and in the
// ratings table; --real-names gives usernames.
func TestAgreementUsesPseudonyms(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "names.db")
	if _, _, err := runCmd(t, "", nil, "import", "--db", db, "--project", "se", "--create", threeRaters); err != nil {
		t.Fatal(err)
	}
	store := openDB(t, db)
	p := must(store.ProjectBySlug(ctx, "se"))(t)
	set := p.Settings
	set.AnonymousAdjudication = true
	if err := store.UpdateSettings(ctx, p.ID, set, p.Guidelines); err != nil {
		t.Fatal(err)
	}
	aliases, err := store.Pseudonyms(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	store.Close()
	const user = "name-rule"
	alias := aliases.Username(user)
	if alias == "" {
		t.Fatalf("%s has no pseudonym", user)
	}
	for _, args := range [][]string{
		{"--format", "json"},
		{"--format", "csv", "--table", "ratings", "--dimension", "faithfulness@sentence"},
	} {
		out, _, err := runCmd(t, "", nil, append([]string{"agreement", "--db", db, "--project", "se", "--bootstrap", "0"}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(out, user) || !strings.Contains(out, alias) {
			t.Errorf("%v: names %s or lacks %s:\n%.400s", args, user, alias, out)
		}
		out, _, err = runCmd(t, "", nil, append([]string{"agreement", "--db", db, "--project", "se", "--bootstrap", "0", "--real-names"}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out, user) {
			t.Errorf("%v --real-names: no usernames:\n%.400s", args, out)
		}
	}
}
