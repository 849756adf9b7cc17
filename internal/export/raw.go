package export

import (
	"context"

	"annotate/internal/domain"
	"annotate/internal/tasks"
)

// rawColumns are the columns of the raw export: one row per sentence ×
// assignment.
var rawColumns = []string{
	"round", "annotator", "assignment_status", "document_id", "summary_id", "topic", "model", "sentence_idx", "sentence",
	"labelled", "label", "error_types", "explanation", "ambiguous", "ambiguity_type", "ambiguity_note", "unsure_note",
	"first_label", "assistant_visible", "changed_after_reveal", "assistant_label", "followed_assistant", "updated_at",
	"started_at", "submitted_at", "active_seconds", "seconds_per_sentence",
	"relevance", "non_summary", "topic_category", "comment",
	"gold_label", "gold_provenance",
	"flag", "skip_reason",
}

// raw writes every annotator's label on every sentence of the summaries
// in scope, including sentences an annotator has not labelled yet. The
// summaries are read on one goroutine and written on this one, a few
// batches apart, so that reading and writing, about equal work, can run
// on two cores; with Options.OneCore, written as each batch is read.
func (x *run) raw(ctx context.Context) error {
	if x.opt.OneCore {
		return x.rawInline(ctx)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	full, free := make(chan *rawBatch, rawBatches), make(chan *rawBatch, rawBatches)
	for range rawBatches {
		free <- newRawBatch()
	}
	var readErr error
	go func() {
		defer close(full)
		readErr = x.readRaw(ctx, full, free)
	}()
	var err error
	for b := range full {
		for i := 0; i < b.n && err == nil; i++ {
			if err = x.rawRows(b.cells[i], b.scores[i]); err != nil {
				cancel() // the reader stops; its batches are drained here
			}
		}
		free <- b
	}
	if err != nil {
		return err
	}
	return readErr
}

// A raw export holds rawBatches batches of rawBatchSize summaries at a
// time: being read, waiting, and being written. Handing over a batch
// rather than each summary spares most of the goroutine switches.
const (
	rawBatches   = 3
	rawBatchSize = 32
)

// rawBatch is summaries of a raw export on their way from the reader to
// the writer: cells[:n], with scores[i] the scale scores of cells[i] by
// assignment when the project has scales.
type rawBatch struct {
	cells  []*tasks.ExportCells
	scores []map[int64]map[domain.ScaleKey]string
	n      int
}

func newRawBatch() *rawBatch {
	b := &rawBatch{cells: make([]*tasks.ExportCells, rawBatchSize), scores: make([]map[int64]map[domain.ScaleKey]string, rawBatchSize)}
	for i := range b.cells {
		b.cells[i] = &tasks.ExportCells{}
	}
	return b
}

// readRaw reads the summaries in scope into batches taken from free and
// sends them on full.
func (x *run) readRaw(ctx context.Context, full, free chan *rawBatch) error {
	b := <-free
	b.n = 0
	send := func() error {
		select {
		case full <- b:
		case <-ctx.Done():
			return ctx.Err()
		}
		select {
		case b = <-free:
		case <-ctx.Done():
			return ctx.Err()
		}
		b.n = 0
		return nil
	}
	err := x.r.EachCells(ctx, b.cells[0], func(c *tasks.ExportCells) (*tasks.ExportCells, error) {
		var err error
		if b.scores[b.n], err = x.rawScores(ctx, c.ID); err != nil {
			return nil, err
		}
		if b.n++; b.n == len(b.cells) {
			if err := send(); err != nil {
				return nil, err
			}
		}
		return b.cells[b.n], nil
	})
	if err == nil && b.n > 0 {
		full <- b // the writer takes every batch until full is closed
	}
	return err
}

// rawInline reads and writes the summaries in scope one by one on the
// calling goroutine.
func (x *run) rawInline(ctx context.Context) error {
	return x.r.EachCells(ctx, &tasks.ExportCells{}, func(c *tasks.ExportCells) (*tasks.ExportCells, error) {
		scores, err := x.rawScores(ctx, c.ID)
		if err != nil {
			return nil, err
		}
		return c, x.rawRows(c, scores)
	})
}

// rawScores returns the scale scores of a summary's assignments by
// assignment, nil when the project has no scales.
func (x *run) rawScores(ctx context.Context, summaryID int64) (map[int64]map[domain.ScaleKey]string, error) {
	if len(x.project.Settings.Scales) == 0 {
		return nil, nil
	}
	return x.r.Scores(ctx, summaryID)
}

// rawRows writes the rows of one summary, with the scale scores of its
// assignments.
func (x *run) rawRows(s *tasks.ExportCells, scores map[int64]map[domain.ScaleKey]string) error {
	scales := len(x.project.Settings.Scales) > 0
	for i := range s.Labels {
		l := &s.Labels[i]
		prov := l.GoldProvenance
		if !x.keep(prov) || !x.newer(l.UpdatedAt, l.SubmittedAt) {
			continue
		}
		if prov == "" {
			prov = NoGold
		}
		o := x.out
		o.str(l.Round)
		o.str(x.person(l.UserID, l.Username))
		o.str(l.Status)
		o.str(s.Document)
		o.str(s.External)
		o.str(s.Topic)
		o.str(s.Model)
		o.num(l.SentenceIndex)
		o.str(sentenceText(s, l.SentenceID))
		o.flag(l.Labelled)
		o.str(l.Label)
		o.list(l.ErrorTypes)
		o.str(l.Explanation)
		o.optFlag(l.Ambiguous)
		o.str(l.AmbiguityType)
		o.str(l.AmbiguityNote)
		o.str(l.UnsureNote)
		o.str(l.FirstLabel)
		o.flag(l.AssistantVisible)
		o.flag(l.ChangedAfterReveal)
		o.str(l.AssistantLabel)
		o.optFlag(followed(l))
		o.str(l.UpdatedAt)
		o.str(l.StartedAt)
		o.str(l.SubmittedAt)
		o.num(l.ActiveSeconds)
		o.optFloat(perSentence(l.ActiveSeconds, len(s.Sentences)))
		o.optNum(l.Relevance)
		o.flag(l.NonSummary)
		o.str(l.TopicCategory)
		o.str(l.Comment)
		o.str(l.GoldLabel)
		o.str(prov)
		o.str(l.Flag)
		o.str(l.SkipReason)
		if x.studies != nil {
			m := x.studies[l.UserID]
			cond, ok := x.conditions[l.AssignmentID]
			if !ok {
				cond = m.Condition
			}
			o.value(m.Study)
			o.value(cond)
			o.value(x.checks[l.AssignmentID])
			o.value(m.Excluded)
		}
		if scales {
			sent, sum := x.scoresOf(scores[l.AssignmentID], l.SentenceID)
			o.value(sent)
			o.value(sum)
		}
		if err := o.endRow(); err != nil {
			return err
		}
	}
	return nil
}

// sentenceText is the text of a sentence of s.
func sentenceText(s *tasks.ExportCells, id int64) string {
	for _, st := range s.Sentences {
		if st.ID == id {
			return st.Text
		}
	}
	return ""
}

// followed says whether the annotator's label is the assistant's: nil when
// the assistant was not visible, had no label, or the sentence is not
// labelled.
func followed(l *domain.ExportLabel) *bool {
	if !l.AssistantVisible || l.AssistantLabel == "" || l.Label == "" {
		return nil
	}
	v := l.Label == l.AssistantLabel
	return &v
}

// perSentence is an assignment's active time shared over its summary's
// sentences; nil before any time was recorded.
func perSentence(seconds, sentences int) *float64 {
	if seconds <= 0 || sentences == 0 {
		return nil
	}
	v := float64(seconds) / float64(sentences)
	return &v
}
