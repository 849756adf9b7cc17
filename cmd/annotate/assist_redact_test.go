package main

import (
	"database/sql"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Finding 7: an endpoint that echoes the request's Authorization header in
// its error put the API key into assist_runs.error and every failed
// output.
func TestEndpointErrorsAreRedacted(t *testing.T) {
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"error":{"message":"invalid request; headers were Authorization: %s, api_key=%s"}}`,
			r.Header.Get("Authorization"), strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
	}))
	t.Cleanup(echo.Close)
	db := assistDB(t)
	envs := map[string]string{"ANNOTATE_LLM_URL": echo.URL + "/v1", "ANNOTATE_LLM_MODEL": "fake-model", "TEST_LLM_KEY": "sk-never-print-me"}
	out, errOut, _ := runCmd(t, "", envs, "assist", "run", "--db", db, "--project", "p", "--protocol", "single", "--llm-key-env", "TEST_LLM_KEY")
	if strings.Contains(out+errOut, "never-print-me") {
		t.Errorf("the key was printed:\n%s\n%s", out, errOut)
	}
	raw, err := sql.Open("sqlite", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var stored, outputs int
	if err := raw.QueryRow(`SELECT (SELECT count(*) FROM assist_runs WHERE error != ''), (SELECT count(*) FROM assist_outputs)`).Scan(&stored, &outputs); err != nil {
		t.Fatal(err)
	}
	if stored+outputs == 0 {
		t.Fatal("the failing endpoint left no error to check")
	}
	var leaks int
	if err := raw.QueryRow(`SELECT (SELECT count(*) FROM assist_runs WHERE error LIKE '%never-print-me%') + (SELECT count(*) FROM assist_outputs WHERE output LIKE '%never-print-me%')`).Scan(&leaks); err != nil {
		t.Fatal(err)
	}
	if leaks > 0 {
		t.Fatalf("%d stored rows hold the API key", leaks)
	}
}
