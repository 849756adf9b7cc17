package importer

import (
	"errors"

	"annotate/internal/domain"
)

// pipeDepth is how many calls a pipeSink holds before the reading waits
// for the writing: a few documents, so that memory stays bounded.
const pipeDepth = 16

// errWriterStopped is what a pipeSink answers once its writer failed; the
// writer's own error is what the import reports.
var errWriterStopped = errors.New("the import's writer stopped")

// pipeSink runs a Sink on another goroutine: StreamNative decodes and
// checks the next documents (JSON decoding and the checks are a large
// part of an import's work) while the sink writes those before them, in
// order. Each call is queued and answered at once; a call after the sink
// failed answers errWriterStopped, and the sink's error comes from run.
type pipeSink struct {
	calls   chan func(Sink) error
	stopped chan struct{} // closed when the sink failed
}

func newPipeSink() *pipeSink {
	return &pipeSink{calls: make(chan func(Sink) error, pipeDepth), stopped: make(chan struct{})}
}

func (p *pipeSink) queue(call func(Sink) error) error {
	select {
	case <-p.stopped:
		return errWriterStopped
	default:
	}
	select {
	case p.calls <- call:
		return nil
	case <-p.stopped:
		return errWriterStopped
	}
}

// Begin queues the sink's Begin.
func (p *pipeSink) Begin(taxonomy string) error {
	return p.queue(func(s Sink) error { return s.Begin(taxonomy) })
}

// Scales queues the sink's Scales.
func (p *pipeSink) Scales(sc []domain.Scale) error {
	return p.queue(func(s Sink) error { return s.Scales(sc) })
}

// Document queues the sink's Document: d is the sink's from now on.
func (p *pipeSink) Document(d *domain.DocumentInput) error {
	return p.queue(func(s Sink) error { return s.Document(d) })
}

// Labels queues the sink's Labels: labels are the sink's from now on.
func (p *pipeSink) Labels(labels []domain.LabelRecord) error {
	return p.queue(func(s Sink) error { return s.Labels(labels) })
}

// close ends the queue: run returns once it has run what was queued.
func (p *pipeSink) close() { close(p.calls) }

// run makes the queued calls on sink, in order, until the queue is closed,
// and returns the first error: from then on the calls are dropped and the
// queue answers errWriterStopped.
func (p *pipeSink) run(sink Sink) error {
	var err error
	for call := range p.calls {
		if err != nil {
			continue
		}
		if err = call(sink); err != nil {
			close(p.stopped)
		}
	}
	return err
}
