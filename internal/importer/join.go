package importer

import (
	"fmt"
	"slices"
	"strings"

	"annotate/internal/domain"
)

// tofuSummary gathers the rows of one summary.
type tofuSummary struct {
	docID, topic, model string
	file                string
	rows                map[int]*tofuRow
}

// tofuDoc gathers the summaries of one document, in file order.
type tofuDoc struct {
	id, annotationID string
	file             string
	line             int
	summaries        []*tofuSummary
}

// tofuInputs are the files of one TofuEval import.
type tofuInputs struct {
	factual   []namedRows
	keyPoints []namedKeyPoints
	madisse   []namedMADISSE
	// transcripts are documents given by id: {doc_id, turns} records or
	// native documents.
	transcripts []namedTranscripts
}

type namedTranscripts struct {
	name  string
	docs  []domain.DocumentInput
	stats *FileStats
}

type namedRows struct {
	name  string
	rows  []tofuRow
	stats *FileStats
}

type namedKeyPoints struct {
	name  string
	rows  []tofuKeyPoints
	stats *FileStats
}

type namedMADISSE struct {
	name  string
	recs  []madisseRecord
	stats *FileStats
}

// sentenceKey compares summary sentences up to spacing.
func sentenceKey(s string) string { return strings.Join(strings.Fields(s), " ") }

// SummaryID is the external id given to a TofuEval summary: the document
// id, the topic and a tag derived from the model name, joined by "|". The
// model's name stays out of the id, which people may see; it is kept in
// SummaryInput.Model.
func SummaryID(docID, topic, model string) string {
	return docID + "|" + topic + "|m" + shortHash(model)[:8]
}

// tofuevalDocuments joins the TofuEval rows with the MADISSE transcripts.
func tofuevalDocuments(in tofuInputs, c *collector) []parsed {
	if len(in.factual) == 0 {
		c.add(&Error{Message: "a TofuEval import needs meetingbank_factual_eval_*.csv: the summaries and their labels are there"})
		return nil
	}
	docs, order := groupTofuRows(in.factual, c)
	given := map[string]*domain.DocumentInput{}
	for fi := range in.transcripts {
		f := &in.transcripts[fi]
		f.stats.Records = len(f.docs)
		for i := range f.docs {
			given[f.docs[i].ExternalID] = &f.docs[i]
		}
	}
	if len(in.madisse) == 0 && len(given) == 0 {
		c.add(&Error{File: factualNames(in.factual), Message: fmt.Sprintf("the TofuEval files carry no document text, and no transcripts were given for their %d %s (%s); %s",
			len(order), plural(len(order), "document", "documents"), idList(order), transcriptHelp)})
		return nil
	}

	// Link each transcript to the document whose summaries its sentences
	// come from.
	bySentence := map[string]map[string]bool{}
	for _, d := range order {
		for _, s := range docs[d].summaries {
			for _, row := range s.rows {
				k := sentenceKey(row.text)
				if bySentence[k] == nil {
					bySentence[k] = map[string]bool{}
				}
				bySentence[k][d] = true
			}
		}
	}
	type transcript struct {
		turns []string
		recs  []*madisseRecord
		file  *namedMADISSE
		votes int
	}
	var transcripts []*transcript
	seen := map[string]*transcript{}
	for fi := range in.madisse {
		f := &in.madisse[fi]
		f.stats.Records = len(f.recs)
		for ri := range f.recs {
			rec := &f.recs[ri]
			key := transcriptKey(rec.transcript)
			t := seen[key]
			if t == nil {
				t = &transcript{turns: rec.transcript, file: f}
				seen[key] = t
				transcripts = append(transcripts, t)
			}
			t.recs = append(t.recs, rec)
		}
	}
	linked := map[string]*transcript{}
	unlinked := 0
	for _, t := range transcripts {
		votes := map[string]int{}
		for _, rec := range t.recs {
			for d := range bySentence[sentenceKey(rec.summary)] {
				votes[d]++
			}
		}
		best := ""
		for _, d := range order {
			if votes[d] > votes[best] {
				best = d
			}
		}
		if best == "" {
			unlinked++
			continue
		}
		t.votes = votes[best]
		if prev := linked[best]; prev != nil {
			c.warnf("%s: two transcripts match document %s; kept the one sharing more summary sentences with it", t.file.name, best)
			if prev.votes >= t.votes {
				continue
			}
		}
		linked[best] = t
	}
	if unlinked > 0 {
		c.warnf("%s: %d %s share no summary sentence with the TofuEval files given; not imported", in.madisse[0].name, unlinked, plural(unlinked, "transcript", "transcripts"))
	}

	// Attach the ambiguity labels to the sentences of the linked
	// document that read the same.
	unmatched := 0
	for _, d := range order {
		t := linked[d]
		if t == nil {
			continue
		}
		t.file.stats.Documents++
		for _, rec := range t.recs {
			k := sentenceKey(rec.summary)
			found := false
			for _, s := range docs[d].summaries {
				for _, row := range s.rows {
					if sentenceKey(row.text) == k {
						amb := rec.gold()
						row.gold.Ambiguous = amb.Ambiguous
						row.gold.AmbiguityType = amb.AmbiguityType
						row.gold.AmbiguityNote = amb.AmbiguityNote
						found = true
					}
				}
			}
			if found {
				t.file.stats.AmbiguityLabels++
			} else {
				unmatched++
				t.file.stats.Skipped++
			}
		}
	}
	if unmatched > 0 {
		c.warnf("%s: %d ambiguity %s match no sentence of the linked document's summaries; not imported", in.madisse[0].name, unmatched, plural(unmatched, "label", "labels"))
	}

	// Key facts by document, in file order.
	keyFacts := map[string][]domain.KeyFactInput{}
	for _, f := range in.keyPoints {
		f.stats.Records = len(f.rows)
		for _, k := range f.rows {
			for _, text := range k.facts {
				keyFacts[k.docID] = append(keyFacts[k.docID], domain.KeyFactInput{Topic: k.topic, Text: text})
			}
		}
	}

	var out []parsed
	statsOf := map[string]*FileStats{}
	for _, f := range in.factual {
		statsOf[f.name] = f.stats
	}
	type skip struct{ docs, summaries, sentences int }
	skipped := map[string]*skip{}
	for _, id := range order {
		d := docs[id]
		st := statsOf[d.file]
		t := linked[id]
		g := given[id]
		if t == nil && g == nil {
			s := skipped[d.file]
			if s == nil {
				s = &skip{}
				skipped[d.file] = s
			}
			s.docs++
			s.summaries += len(d.summaries)
			for _, sum := range d.summaries {
				s.sentences += len(sum.rows)
				st.Skipped += len(sum.rows)
			}
			continue
		}
		doc := domain.DocumentInput{
			ExternalID:   id,
			Kind:         domain.KindDialogue,
			Language:     "en",
			Domain:       tofuDomain(d.file),
			KeyFacts:     keyFacts[id],
			AnnotationID: d.annotationID,
		}
		if g != nil {
			// A transcript given by id wins over a MADISSE match.
			doc.Kind, doc.Text, doc.Sentences, doc.Turns = g.Kind, g.Text, g.Sentences, g.Turns
			if g.Title != "" {
				doc.Title = g.Title
			}
			if g.Domain != "" {
				doc.Domain = g.Domain
			}
			if g.Language != "" {
				doc.Language = g.Language
			}
			doc.KeyFacts = append(doc.KeyFacts, g.KeyFacts...)
			for fi := range in.transcripts {
				in.transcripts[fi].stats.Documents += countIf(in.transcripts[fi].docs, id)
			}
		} else {
			for _, u := range t.turns {
				doc.Turns = append(doc.Turns, splitTurn(u))
			}
		}
		for _, s := range d.summaries {
			sum := domain.SummaryInput{
				ExternalID: SummaryID(id, s.topic, s.model),
				Topic:      s.topic,
				Model:      s.model,
				Language:   "en",
			}
			for _, idx := range sortedIdx(s.rows) {
				row := s.rows[idx]
				g := row.gold
				sum.Sentences = append(sum.Sentences, domain.SentenceInput{Text: row.text, Gold: &g, SourceIndex: row.idx})
			}
			doc.Summaries = append(doc.Summaries, sum)
		}
		out = append(out, parsed{doc: doc, at: Error{File: d.file, Line: d.line}})
	}
	if len(out) == 0 {
		c.add(&Error{File: factualNames(in.factual), Message: fmt.Sprintf("none of the %d %s has a transcript in the files given (%s), so nothing would be imported; missing: %s; %s",
			len(order), plural(len(order), "document", "documents"), transcriptSources(in), idList(order), transcriptHelp)})
		return nil
	}
	for _, f := range in.factual {
		if s := skipped[f.name]; s != nil {
			var ids []string
			for _, id := range order {
				if docs[id].file == f.name && linked[id] == nil && given[id] == nil {
					ids = append(ids, id)
				}
			}
			var unnamed []string
			for _, id := range ids {
				if !c.skip[id] {
					unnamed = append(unnamed, id)
				}
			}
			if len(unnamed) > 0 && !c.partial {
				c.add(&Error{File: f.name, Message: fmt.Sprintf("%d of its documents %s no transcript in %s, so %d summaries and %d sentences would be lost: %s; %s; or name the documents to leave out (--skip-documents ID,..., the Import page's documents to leave out, the API's skip_documents), or declare the import partial (--partial, the Import page's partial box, the API's partial=true) to import the rest",
					len(unnamed), plural(len(unnamed), "has", "have"), transcriptSources(in), s.summaries, s.sentences, idList(unnamed), transcriptHelp)})
				continue
			}
			c.warnf("%s: skipped %d %s (%d summaries, %d sentences) without a transcript in %s: %s", f.name, s.docs, plural(s.docs, "document", "documents"),
				s.summaries, s.sentences, transcriptSources(in), idList(ids))
		}
	}
	var unused []string
	for id := range given {
		if docs[id] == nil {
			unused = append(unused, id)
		}
	}
	if len(unused) > 0 {
		slices.Sort(unused)
		c.warnf("%d %s given match no doc_id of the TofuEval files; not imported: %s", len(unused), plural(len(unused), "transcript", "transcripts"), idList(unused))
	}
	imported := map[string]bool{}
	for _, p := range out {
		imported[p.doc.ExternalID] = true
	}
	for fi := range in.keyPoints {
		f := &in.keyPoints[fi]
		docsLeft, docsUsed, rowsLeft := map[string]bool{}, map[string]bool{}, 0
		for _, k := range f.rows {
			if imported[k.docID] {
				f.stats.KeyFacts += len(k.facts)
				docsUsed[k.docID] = true
				continue
			}
			docsLeft[k.docID] = true
			rowsLeft++
		}
		f.stats.Skipped = rowsLeft
		f.stats.Documents = len(docsUsed)
		if rowsLeft > 0 {
			c.warnf("%s: skipped the key facts of %d %s (%d %s) that are not imported", f.name, len(docsLeft), plural(len(docsLeft), "document", "documents"), rowsLeft, plural(rowsLeft, "topic", "topics"))
		}
	}
	return out
}

// groupTofuRows gathers rows into summaries and documents, in the order
// they first appear, dropping rows repeated verbatim.
func groupTofuRows(files []namedRows, c *collector) (map[string]*tofuDoc, []string) {
	docs := map[string]*tofuDoc{}
	var order []string
	type sumKey struct{ doc, topic, model string }
	sums := map[sumKey]*tofuSummary{}
	for fi := range files {
		f := &files[fi]
		f.stats.Records = len(f.rows)
		repeated := 0
		for ri := range f.rows {
			row := &f.rows[ri]
			d := docs[row.docID]
			if d == nil {
				d = &tofuDoc{id: row.docID, annotationID: row.annotationID, file: f.name, line: row.line}
				docs[row.docID] = d
				order = append(order, row.docID)
			}
			k := sumKey{row.docID, row.topic, row.model}
			s := sums[k]
			if s == nil {
				s = &tofuSummary{docID: row.docID, topic: row.topic, model: row.model, file: f.name, rows: map[int]*tofuRow{}}
				sums[k] = s
				d.summaries = append(d.summaries, s)
			}
			if prev := s.rows[row.idx]; prev != nil {
				if prev.text == row.text && slices.Equal(prev.gold.ErrorTypes, row.gold.ErrorTypes) &&
					prev.gold.Label == row.gold.Label && prev.gold.Explanation == row.gold.Explanation {
					repeated++
					f.stats.Skipped++
					continue
				}
				c.addf(&Error{File: f.name, Line: row.line}, "sent_idx", "sentence %d of this summary is already on line %d, with a different text or label", row.idx, prev.line)
				continue
			}
			s.rows[row.idx] = row
		}
		if repeated > 0 {
			c.warnf("%s: dropped %d %s repeating an earlier row word for word", f.name, repeated, plural(repeated, "row", "rows"))
		}
	}
	return docs, order
}

// sortedIdx returns the sentence numbers of a summary in order.
func sortedIdx(rows map[int]*tofuRow) []int {
	idx := make([]int, 0, len(rows))
	for i := range rows {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	return idx
}
