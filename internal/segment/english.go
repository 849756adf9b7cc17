package segment

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/neurosnap/sentences"
	"github.com/neurosnap/sentences/english"
)

// englishTokenizer loads the Punkt model once; loading parses a large JSON
// asset. Tokenizing afterwards only reads the model, so the one tokenizer
// is shared by all goroutines.
var englishTokenizer = sync.OnceValue(func() *sentences.DefaultSentenceTokenizer {
	t, err := english.NewSentenceTokenizer(nil)
	if err != nil {
		// The model is compiled into the library; failing to load it is
		// a broken build, not bad input.
		panic("segment: loading the English Punkt model: " + err.Error())
	}
	// The library's English rules read every number followed by a full
	// stop as a list number ("1. Call to order") and never end a sentence
	// there, so "approved in 2021. The council met" and "The vote was 7 to
	// 2. The motion passed." stayed one sentence. numberEnd runs last and
	// restores those breaks.
	t.Annotations = append(t.Annotations, numberEnd{}, noEnd{})
	return t
})

// splitEnglish splits one paragraph with Punkt. The returned pieces are
// consecutive slices of para.
func splitEnglish(para string) []string {
	var out []string
	for _, s := range englishTokenizer().Tokenize(para) {
		out = append(out, s.Text)
	}
	return out
}

// numberToken matches a number that ends with a full stop: "2.", "2021.",
// "$2,000.", "3.5%.", "(7)." and the like.
var numberToken = regexp.MustCompile(`^[($£€]*\d[\d,.]*%?\)?\.$`)

// numberEnd is a Punkt annotation pass: a number with a final full stop
// ends its sentence when a capitalised word follows, unless the number
// itself opens the sentence, as list numbers do ("1. Approve the minutes.
// 2. Adopt the budget.").
type numberEnd struct{}

// Annotate implements sentences.AnnotateTokens.
func (numberEnd) Annotate(tokens []*sentences.Token) []*sentences.Token {
	for i, tok := range tokens {
		if tok.SentBreak || i == 0 || i+1 >= len(tokens) || !numberToken.MatchString(tok.Tok) {
			continue
		}
		if tokens[i-1].SentBreak {
			continue // a list number opening its item
		}
		if opensSentence(tokens[i+1].Tok) {
			tok.SentBreak = true
			tok.Abbr = false
		}
	}
	return tokens
}

// opensSentence reports whether a word can start a sentence: it begins,
// after any opening quotes or brackets, with an upper-case letter.
func opensSentence(word string) bool {
	word = strings.TrimLeft(word, "\"'“‘([")
	r, _ := utf8.DecodeRuneInString(word)
	return unicode.IsUpper(r)
}

// noEnd is a Punkt annotation pass: the library counts "no." as an
// abbreviation, as in "Council Bill No. 5", so "Council voted no. A block
// vote passed" stayed one sentence. Before anything but a number it is the
// word "no" ending its sentence, when a capitalised word follows.
type noEnd struct{}

// Annotate implements sentences.AnnotateTokens.
func (noEnd) Annotate(tokens []*sentences.Token) []*sentences.Token {
	for i, tok := range tokens {
		if tok.SentBreak || i+1 >= len(tokens) || !strings.EqualFold(tok.Tok, "no.") {
			continue
		}
		next := tokens[i+1].Tok
		if r, _ := utf8.DecodeRuneInString(next); unicode.IsDigit(r) || r == '#' {
			continue
		}
		if opensSentence(next) {
			tok.SentBreak = true
			tok.Abbr = false
		}
	}
	return tokens
}
