// Package study holds the rules of a crowd study that do not depend on
// storage or HTTP: the study definition a lead writes, how a platform's
// entry link identifies a participant (Prolific, MTurk or a generic
// pid), where a participant is sent back with their completion code, and
// the quality figures and exclusion rules that decide whose labels count.
//
// The statistics of a study's assistance experiment are in package
// experiment; the lead's guide and every definition are in
// docs/studies.md.
package study
