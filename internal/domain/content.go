package domain

// Unit is one numbered unit of a document: a sentence or a dialogue turn.
type Unit struct {
	ID      int64
	Index   int // 1-based, as cited
	Speaker string
	Text    string
}

// Document is a source document with its units.
type Document struct {
	ID         int64
	ProjectID  int64
	ExternalID string
	Kind       string
	Language   string
	Domain     string
	Title      string
	Units      []Unit
}

// Sentence is one summary sentence: an annotation unit.
type Sentence struct {
	ID          int64
	Index       int // 1-based
	Text        string
	Translation string
}

// Summary is a summary with its sentences. Model must never reach an
// annotator's page.
type Summary struct {
	ID         int64
	ProjectID  int64
	DocumentID int64
	ExternalID string
	Topic      string
	Model      string
	Language   string
	Original   string
	EditTypes  []string
	Sentences  []Sentence
}

// KeyFact is one key fact of a document (and topic).
type KeyFact struct {
	ID       int64
	Index    int
	Topic    string
	Text     string
	Category string
}

// UnitNames names a project's summaries and sentences by what the imported
// files called them, so that rows written for other tools join back to the
// source. A name is a JSON array, unambiguous whatever characters the ids
// hold: ["DOCUMENT","SUMMARY"] for a summary (the external ids) and
// ["DOCUMENT","SUMMARY",N] for a sentence, N its number as exports give it
// (the source's own sentence number where the import kept one, else 1,
// 2, ...). A key fact is named ["TOPIC",N] within its document (its topic,
// "" for none, and its number in the topic's list, from 1).
type UnitNames struct {
	Summaries map[int64]string
	Sentences map[int64]string
	KeyFacts  map[int64]string
}

// Sentence returns a sentence's name; false when n is nil or lacks it.
func (n *UnitNames) Sentence(id int64) (string, bool) {
	if n == nil {
		return "", false
	}
	s, ok := n.Sentences[id]
	return s, ok
}

// Summary returns a summary's name; false when n is nil or lacks it.
func (n *UnitNames) Summary(id int64) (string, bool) {
	if n == nil {
		return "", false
	}
	s, ok := n.Summaries[id]
	return s, ok
}

// SentenceKeyFact names the alignment of a key fact with a sentence: the
// sentence's name with the key fact's appended, as in
// ["DOCUMENT","SUMMARY",N,["TOPIC",K]]; false when n lacks either.
func (n *UnitNames) SentenceKeyFact(sentence, keyFact int64) (string, bool) {
	name, ok := n.Sentence(sentence)
	return n.withKeyFact(name, ok, keyFact)
}

// SummaryKeyFact names the alignment of a key fact with a summary, as in
// ["DOCUMENT","SUMMARY",["TOPIC",K]]; false when n lacks either.
func (n *UnitNames) SummaryKeyFact(summary, keyFact int64) (string, bool) {
	name, ok := n.Summary(summary)
	return n.withKeyFact(name, ok, keyFact)
}

func (n *UnitNames) withKeyFact(name string, ok bool, keyFact int64) (string, bool) {
	if !ok {
		return "", false
	}
	k, found := n.KeyFacts[keyFact]
	if !found {
		return "", false
	}
	return name[:len(name)-1] + "," + k + "]", true
}

// Overview counts a project's contents for its lead's overview page.
type Overview struct {
	Documents     int
	Summaries     int
	Sentences     int
	KeyFacts      int
	Rounds        int
	Assignments   int
	Submitted     int
	GoldSentences int
	Members       int
}

// DocumentRow is one line of a project's document list.
type DocumentRow struct {
	ID         int64
	ExternalID string
	Kind       string
	Language   string
	Domain     string
	Units      int
	Summaries  int
	Sentences  int
	KeyFacts   int
	Topics     int
}
