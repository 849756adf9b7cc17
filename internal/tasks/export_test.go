package tasks

import (
	"fmt"
	"testing"
)

// DriverName lets tests open stores through a wrapping driver.
var DriverName = &driverName

// ExportApartBetween lets tests write between the start of an export's
// transaction and that of the second one that reads its labels or
// sentences.
var ExportApartBetween = &exportApartBetween

// SeekRunsMax lets tests choose how the raw export reads the assistant's
// labels (see assistantLabel).
var SeekRunsMax = &seekRunsMax

// ExportAssistantVia lets tests choose whether the raw export reads the
// runs' labels whole ("runs") or seeks them per sentence ("seeks").
var ExportAssistantVia = &exportAssistantVia

// AssistRunRead lets tests see each run whose labels are read: whole or
// for the sentences wanting one, and how many want one.
var AssistRunRead = &assistRunRead

// HoldSecondConnection takes the store's one permit to read on a second
// connection, so that readings made meanwhile use one; release gives it
// back.
func HoldSecondConnection(s *Store) (release func()) {
	s.reportApart <- struct{}{}
	return func() { <-s.reportApart }
}

// GoldCountsDrift compares the kept gold counts (gold_counts.go) with the
// gold index counted afresh and describes the first difference, or
// returns "".
func GoldCountsDrift(t *testing.T, s *Store) string {
	kept, counted := goldCountRows(t, s.read)
	for k, n := range counted {
		if kept[k] != n {
			return fmt.Sprintf("count %q is %d, the index has %d", k, kept[k], n)
		}
	}
	for k, n := range kept {
		if _, ok := counted[k]; !ok {
			return fmt.Sprintf("count %q is %d, the index has none", k, n)
		}
	}
	return ""
}

// ProjectTopicsQuery is the query ProjectTopics runs, for its plan.
const ProjectTopicsQuery = projectTopicsQuery
