package importer

import (
	"regexp"
	"strings"

	"annotate/internal/domain"
)

// speakerLine matches one utterance written "Speaker: text". The speaker
// may be long ("Mr. KARIM SADJADPOUR (International Crisis Group)") but
// holds no colon; a space must follow the colon, so clock times and URLs do
// not count.
var speakerLine = regexp.MustCompile(`^([^:\n]{1,80}?):[ \t]+(\S[^\n]*)$`)

// joinedTurn matches where a turn starts in a dialogue flattened onto one
// line with " . " between turns, as in the SummEdits SAMSum documents: at
// the start, or after the separator, a short name without sentence
// punctuation followed by a colon.
var joinedTurn = regexp.MustCompile(`(?:^|\s\.\s+)([^\s:.?!][^:.?!\n]{0,40}?):\s`)

// splitTurn reads "Speaker: text" into a turn; a line without a speaker
// becomes a turn with an empty speaker.
func splitTurn(s string) domain.TurnInput {
	s = strings.TrimSpace(s)
	if m := speakerLine.FindStringSubmatch(s); m != nil {
		return domain.TurnInput{Speaker: strings.TrimSpace(m[1]), Text: strings.TrimSpace(m[2])}
	}
	return domain.TurnInput{Text: s}
}

// dialogueTurns recognises a dialogue written as text: either every
// non-empty line is "Speaker: text" (at least two of them), or the whole
// text is one line of " . "-separated "Speaker: text" turns. It reports
// false for anything else, which is then treated as prose.
func dialogueTurns(text string) ([]domain.TurnInput, bool) {
	text = strings.TrimSpace(text)
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) >= 2 {
		var turns []domain.TurnInput
		for _, l := range lines {
			m := speakerLine.FindStringSubmatch(l)
			if m == nil {
				return nil, false
			}
			turns = append(turns, domain.TurnInput{Speaker: strings.TrimSpace(m[1]), Text: strings.TrimSpace(m[2])})
		}
		return turns, true
	}
	if len(lines) != 1 {
		return nil, false
	}
	locs := joinedTurn.FindAllStringSubmatchIndex(text, -1)
	if len(locs) < 2 || locs[0][0] != 0 {
		return nil, false
	}
	var turns []domain.TurnInput
	for i, loc := range locs {
		end := len(text)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		body := strings.TrimSpace(text[loc[1]:end])
		if i+1 == len(locs) {
			// The last turn may still carry the separator's full stop.
			body = strings.TrimSpace(strings.TrimSuffix(body, " ."))
		}
		if body == "" {
			return nil, false
		}
		turns = append(turns, domain.TurnInput{Speaker: strings.TrimSpace(text[loc[2]:loc[3]]), Text: body})
	}
	return turns, true
}
