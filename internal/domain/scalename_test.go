package domain_test

import (
	"strings"
	"testing"

	"annotate/internal/domain"
)

// TestReservedScaleName: a scale named after a built-in dimension is
// refused with the reserved names and a way out.
func TestReservedScaleName(t *testing.T) {
	lo, hi := 1, 5
	field, err := domain.Scale{Name: "relevance", Level: domain.LevelSummary, Min: &lo, Max: &hi}.Validate()
	if field != "name" || err == nil || !strings.Contains(err.Error(), "reserved: faithfulness, error_types") || !strings.Contains(err.Error(), "relevance_score") {
		t.Fatalf("field %q, err %v", field, err)
	}
}
