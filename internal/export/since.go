package export

import (
	"time"

	"annotate/internal/domain"
)

// newer reports whether any of the timestamps is at or after the since
// filter; everything is newer when there is none. Unparsable or empty
// timestamps are not.
func (x *run) newer(stamps ...string) bool {
	if x.opt.Since.IsZero() {
		return true
	}
	for _, ts := range stamps {
		t, err := time.Parse(time.RFC3339Nano, ts)
		if err == nil && !t.Before(x.opt.Since) {
			return true
		}
	}
	return false
}

// goldSince reports whether a summary's gold, or the gold of one of its
// sentences, was decided at or after the since filter.
func (x *run) goldSince(s *domain.ExportSummary, sents []domain.ExportSentence) bool {
	if x.opt.Since.IsZero() {
		return true
	}
	if s.Gold != nil && x.newer(s.Gold.DecidedAt) {
		return true
	}
	for _, st := range sents {
		if st.Gold != nil && x.newer(st.Gold.DecidedAt) {
			return true
		}
	}
	return false
}
