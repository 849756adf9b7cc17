package segment

import (
	"sync"

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
