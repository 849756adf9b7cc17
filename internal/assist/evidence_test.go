package assist_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"annotate/internal/assist"
)

func units(texts ...string) []assist.Unit {
	out := make([]assist.Unit, len(texts))
	for i, t := range texts {
		out[i] = assist.Unit{Text: t}
	}
	return out
}

func unitNumbers(ev []assist.Evidence) []int {
	out := make([]int, len(ev))
	for i, e := range ev {
		out[i] = e.Unit
	}
	return out
}

// TestEvidenceEnglish proves the finder ranks the unit sharing the
// sentence's content words first, grows the premise when a second unit
// covers what the first lacks, and stops before units that add nothing.
func TestEvidenceEnglish(t *testing.T) {
	doc := units(
		"The meeting opened at seven with the pledge of allegiance.",
		"Councilmember Price proposed a new bike lane on Elm Street.",
		"The weather was discussed briefly.",
		"The bike lane would cost 250,000 dollars, according to the city engineer.",
		"Public comment followed on unrelated zoning matters.",
		"Price said the bike lane on Elm Street is overdue.",
	)
	f := assist.NewFinder(doc)
	for _, tc := range []struct {
		name     string
		sentence string
		want     []int
	}{
		{"single unit", "The weather was discussed.", []int{3}},
		{"fused units", "Price proposed an Elm Street bike lane costing 250,000 dollars.", []int{2, 4}},
		{"possessive and plural", "The engineer's estimate: 250,000 dollars.", []int{4}},
		{"stopwords only", "It was the one that they had.", []int{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := unitNumbers(f.Premise(tc.sentence, 5))
			if !slices.Equal(got, tc.want) {
				t.Errorf("Premise(%q) = %v, want %v (ranking %v)", tc.sentence, got, tc.want, f.Rank(tc.sentence))
			}
		})
	}
	if got := unitNumbers(f.Premise("Price proposed an Elm Street bike lane costing 250,000 dollars.", 1)); !slices.Equal(got, []int{2}) {
		t.Errorf("cap 1 gave %v", got)
	}
	rank := f.Rank("bike lane")
	if len(rank) != 3 || rank[0].Score < rank[1].Score || rank[1].Score < rank[2].Score {
		t.Errorf("Rank(bike lane) = %v, want units 2, 4, 6 by falling score", rank)
	}
}

// TestEvidenceSpeakers proves speaker names count as text of their turns.
func TestEvidenceSpeakers(t *testing.T) {
	doc := []assist.Unit{
		{Speaker: "Ortiz", Text: "We should fund the library."},
		{Speaker: "Lee", Text: "We should fund the library."},
	}
	if got := unitNumbers(assist.NewFinder(doc).Premise("Lee wants library funding.", 5)); !slices.Equal(got, []int{2}) {
		t.Errorf("got %v, want Lee's turn", got)
	}
}

// TestEvidenceChinese proves Chinese text is matched through character
// bigrams, with Latin words and numbers inside it kept as words.
func TestEvidenceChinese(t *testing.T) {
	doc := units(
		"市议会今晚召开会议，讨论图书馆预算。",
		"奥尔蒂斯议员提议延长周日的开放时间。",
		"李议员说，延长开放时间每年大约需要四万美元。",
		"主席宣布，图书馆开放时间的表决推迟到下个月。",
		"公园部门申请购买两台新割草机，预算为 3000 美元。",
	)
	f := assist.NewFinder(doc)
	for _, tc := range []struct {
		sentence string
		first    int
	}{
		{"延长开放时间每年需要四万美元。", 3},
		{"表决被推迟到下个月。", 4},
		{"公园部门要买割草机。", 5},
		{"割草机花费 3000 美元", 5},
	} {
		got := f.Premise(tc.sentence, 5)
		if len(got) == 0 || got[0].Unit != tc.first {
			t.Errorf("Premise(%q) = %v, want unit %d first", tc.sentence, got, tc.first)
		}
	}
	// A sentence fusing two units gets both.
	got := unitNumbers(f.Premise("奥尔蒂斯议员提议延长周日开放时间，每年需要四万美元。", 5))
	if !slices.Contains(got, 2) || !slices.Contains(got, 3) {
		t.Errorf("fused sentence gave %v, want units 2 and 3", got)
	}
}

// TestFindEvidenceBatch proves the convenience function matches per-sentence
// use and a document without matches yields empty, non-nil premises.
func TestFindEvidenceBatch(t *testing.T) {
	doc := units("Alpha beta gamma.", "Delta epsilon.")
	got := assist.FindEvidence(doc, []string{"gamma rays", "zeta"}, 5)
	if len(got) != 2 || unitNumbers(got[0])[0] != 1 || got[1] == nil || len(got[1]) != 0 {
		t.Errorf("FindEvidence = %v", got)
	}
}

// longDocument returns a deterministic document of about words words in
// sentences of 20, drawn from a skewed vocabulary like real text.
func longDocument(words int) ([]assist.Unit, []string) {
	g := rand.New(rand.NewPCG(1, 2))
	vocab := make([]string, 3000)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%dx", i)
	}
	word := func() string {
		// Squaring a uniform draw favours frequent (low-index) words.
		u := g.Float64()
		return vocab[int(u*u*float64(len(vocab)))]
	}
	var doc []assist.Unit
	for n := 0; n < words; n += 20 {
		var b strings.Builder
		for i := range 20 {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(word())
		}
		b.WriteByte('.')
		doc = append(doc, assist.Unit{Speaker: fmt.Sprintf("Speaker %d", len(doc)%4+1), Text: b.String()})
	}
	sentences := make([]string, 10)
	for i := range sentences {
		// Each summary sentence borrows from two units, as summaries do.
		a := strings.Fields(doc[(i*37)%len(doc)].Text)
		b := strings.Fields(doc[(i*91+5)%len(doc)].Text)
		sentences[i] = strings.Join(append(a[:8], b[10:18]...), " ")
	}
	return doc, sentences
}

// TestEvidenceOnLongDocument finds, in a 5,000-word document, the two units
// each summary sentence was stitched from (BenchmarkFindEvidence measures
// the time).
func TestEvidenceOnLongDocument(t *testing.T) {
	doc, sentences := longDocument(5000)
	got := assist.FindEvidence(doc, sentences, 5)
	for i, ev := range got {
		want := []int{(i*37)%len(doc) + 1, (i*91+5)%len(doc) + 1}
		if len(ev) < 2 || !slices.Contains(unitNumbers(ev[:2]), want[0]) || !slices.Contains(unitNumbers(ev[:2]), want[1]) {
			t.Errorf("sentence %d: premise %v, want units %v first", i, unitNumbers(ev), want)
		}
	}
}

// BenchmarkFindEvidence indexes a 5,000-word document and grows the premise
// of 10 summary sentences against it.
func BenchmarkFindEvidence(b *testing.B) {
	doc, sentences := longDocument(5000)
	b.ReportAllocs()
	for b.Loop() {
		assist.FindEvidence(doc, sentences, 5)
	}
}

// BenchmarkPremise measures one sentence against an already indexed
// 5,000-word document.
func BenchmarkPremise(b *testing.B) {
	doc, sentences := longDocument(5000)
	f := assist.NewFinder(doc)
	b.ReportAllocs()
	for b.Loop() {
		f.Premise(sentences[3], 5)
	}
}
