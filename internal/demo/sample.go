package demo

import (
	"bytes"
	_ "embed"
)

// sampleRun is a sample assistant run over the corpus, in the format of
// "annotate assist export". It was written without a model by
//
//	go run internal/demo/gen_sample/main.go
//
// and every record says so: sample is true, the model field reads "none
// (sample output, not from a model)" and every argument begins "Sample
// output (not from a model)".
//
//go:embed sample_run.jsonl
var sampleRun []byte

// SampleRun returns the sample run as JSON Lines, for the demo setup to
// import the same way "annotate assist import --sample" does.
func SampleRun() []byte {
	return bytes.Clone(sampleRun)
}
