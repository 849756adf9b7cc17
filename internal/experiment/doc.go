// Package experiment holds the statistics of a randomised assistance
// experiment: how conditions are assigned to participants or items from a
// stored seed, the figures each condition is read by (accuracy, balanced
// accuracy, unfaithful-class F1, seconds per sentence, reliance on the
// assistant), their intervals from a two-way cluster bootstrap over
// participants and items, a permutation test of each condition against the
// unassisted one, a Dawid–Skene estimate of participants' competence, and
// power by simulation for planning a study.
//
// It imports only the standard library and package iaa (for the
// percentile interval every bootstrap here shares) and knows nothing of
// storage or HTTP: callers hand it observations, one per participant's label of one
// sentence, with dense participant and item indexes. [NewIndex] gives
// indexes that depend only on the ids, never on the order rows arrive in,
// so every figure here is the same for the same data in any row order.
//
// The definitions are those of docs/studies.md.
package experiment
