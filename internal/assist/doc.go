// Package assist is the engine behind the annotation tool's assistant: the
// panel beside each summary sentence that shows an Advocate's case, a
// Skeptic's case and an Adjudicator's tentative label, each citing numbered
// document units.
//
// It holds a client for any OpenAI-compatible chat-completions endpoint
// (structured JSON output checked against a schema, retries with backoff, a
// concurrency limit, a content-addressed cache and token accounting), the two
// debate protocols (a single Advocate/Skeptic/Adjudicator exchange after
// MSumBench, and a multi-round debate with assigned opening stances after
// MADISSE), an ambiguity judge, key-fact suggestions, a lexical evidence
// finder that needs no model (after INFUSE), a resumable runner for many
// sentences and the JSON Lines record used to export and import results.
//
// The package knows nothing of HTTP serving, templates or the database: the
// caller supplies a [Cache] and a [Sink] and stores what comes back.
package assist
