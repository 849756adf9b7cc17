// Package domain holds annotate's values and the rules on them, apart from
// any storage: projects and their settings, documents, summaries and their
// sentences, rounds and assignments, labels and gold with their tallies,
// the error taxonomy, the checks on text, the records an import carries
// and the rows a report or an export reads, and the errors users see
// (Error with its codes). Nothing here touches a database; the SQLite
// store in package tasks keeps these values and applies the rules that
// need stored state.
package domain
