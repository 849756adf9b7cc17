package assist_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"annotate/internal/assist"
)

// sampleResults runs both protocols against the fake to get real results.
func sampleResults(t *testing.T) []assist.SentenceResult {
	t.Helper()
	f := newFake(t, debateAnswers(stubborn, func(n int) string { return "unfaithful" }))
	c := f.client(t, nil, nil)
	var out []assist.SentenceResult
	for _, s := range []assist.Settings{
		{Protocol: assist.ProtocolSingle, Ambiguity: true, KeyFacts: true},
		{Protocol: assist.ProtocolDebate, Rounds: 2, Ambiguity: true},
	} {
		r, err := c.Assess(ctxT(t), "k", testItem(), s)
		if err != nil || r.Status != assist.StatusOK {
			t.Fatalf("Assess = %s, %v: %s", r.Status, err, r.Error)
		}
		out = append(out, r)
	}
	it := testItem()
	it.DocUnits = nil
	failed, _ := c.Assess(ctxT(t), "k", it, assist.Settings{})
	return append(out, failed)
}

// TestExportRoundTrip proves records written by the encoder come back equal
// from the decoder, one JSON object per line.
func TestExportRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	enc := assist.NewEncoder(&buf)
	var want []assist.ExportRecord
	for i, r := range sampleResults(t) {
		rec := assist.ExportRecord{ProjectID: "p1", DocumentID: "d1", SummaryID: "s1", SentenceID: string(rune('a' + i)), Result: r}
		if err := enc.Encode(rec); err != nil {
			t.Fatal(err)
		}
		want = append(want, rec)
	}
	if lines := strings.Count(buf.String(), "\n"); lines != len(want) {
		t.Fatalf("%d lines for %d records", lines, len(want))
	}
	dec := assist.NewDecoder(strings.NewReader("\n" + buf.String()))
	for i := range want {
		got, err := dec.Decode()
		if err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(want[i])
		if string(gj) != string(wj) {
			t.Errorf("record %d changed:\n%s\n%s", i, gj, wj)
		}
		if err := got.Result.CheckCitations(6); err != nil {
			t.Errorf("record %d: %v", i, err)
		}
	}
	if _, err := dec.Decode(); !errors.Is(err, io.EOF) {
		t.Errorf("after the last record: %v, want io.EOF", err)
	}
}

// TestImportValidation proves bad lines are reported with their line number
// and the offending field.
func TestImportValidation(t *testing.T) {
	good, err := json.Marshal(assist.ExportRecord{ProjectID: "p", DocumentID: "d", SummaryID: "s", SentenceID: "1", Result: sampleResults(t)[0]})
	if err != nil {
		t.Fatal(err)
	}
	g := string(good)
	for _, tc := range []struct {
		name, line, want string
	}{
		{"not JSON", `{"project_id":`, "line 2:"},
		{"unknown field", strings.Replace(g, `"project_id"`, `"projct_id":"x","project_id"`, 1), `unknown field "projct_id"`},
		{"missing id", strings.Replace(g, `"sentence_id":"1"`, `"sentence_id":""`, 1), "sentence_id is empty"},
		{"bad label", strings.Replace(g, `"label":"unfaithful"`, `"label":"maybe"`, 1), `unknown label "maybe"`},
		{"bad protocol", strings.Replace(g, `"protocol":"single"`, `"protocol":"solo"`, 1), `protocol: unknown "solo"`},
		{"zero citation", strings.Replace(g, `"evidence":[`, `"evidence":[0,`, 1), "evidence: unit 0 is below 1"},
		{"bad ambiguity type", strings.Replace(g, `"type":"other_evaluability"`, `"type":"sarcasm"`, 1), `ambiguity.type: unknown "sarcasm"`},
		{"ok with error", strings.Replace(g, `"status":"ok"`, `"status":"ok","error":"boom"`, 1), "error: set on a result with status ok"},
		{"failed without reason", strings.Replace(g, `"status":"ok"`, `"status":"failed"`, 1), "a failed result must say why"},
		{"two values", g + " {}", "more than one JSON value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.line == g {
				t.Fatal("the replacement did not apply")
			}
			dec := assist.NewDecoder(strings.NewReader(g + "\n" + tc.line + "\n"))
			if _, err := dec.Decode(); err != nil {
				t.Fatalf("good first line: %v", err)
			}
			_, err := dec.Decode()
			if err == nil || !strings.Contains(err.Error(), "line 2") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want line 2 and %q", err, tc.want)
			}
		})
	}
	var rec assist.ExportRecord
	json.Unmarshal(good, &rec)
	if err := rec.Result.CheckCitations(2); err == nil || !strings.Contains(err.Error(), "outside the document's 1..2") {
		t.Errorf("CheckCitations(2) = %v", err)
	}
	if err := assist.NewEncoder(io.Discard).Encode(assist.ExportRecord{Result: rec.Result}); err == nil {
		t.Error("the encoder wrote a record without ids")
	}
}
