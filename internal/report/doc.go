// Package report builds the agreement report of a project: for every label
// dimension (faithfulness, error types one-vs-rest and as a set, the
// ambiguity flag and type, key-fact alignment, relevance, topic category)
// at sentence and summary level, the statistics of package iaa with their
// intervals; each annotator against the others, the rest of the group and
// gold; the assistant's effect on labels; the trend across rounds; and the
// sentences the annotators split on most.
//
// [Build] works on the labels that tasks.Store.ReportData loads and knows
// nothing of HTTP; the command line and the web pages both render the
// [Report] it returns.
package report
