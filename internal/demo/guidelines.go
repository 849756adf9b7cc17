package demo

// Guidelines are the demo project's annotation guidelines, in Markdown.
// The numbered list is also what the assistant's agents cite.
const Guidelines = `## Faithfulness

Judge each summary sentence against the transcript alone. A sentence is
**faithful** when everything it states can be verified in the transcript,
directly or by an inference any careful reader would make.

1. Every claim of the sentence must be supported by the transcript; one unsupported detail makes the sentence unfaithful.
2. Do not use outside knowledge, even when it is true.
3. Plans, proposals and opinions must stay plans, proposals and opinions; stating them as decisions or facts is an error.
4. Who said or did what matters: attributing a statement to the wrong speaker or body is an error.
5. Vague but correct sentences are faithful; note the vagueness under ambiguity if it changes how the sentence can be read.
6. A sentence about the meeting itself ("the council discussed X") is faithful when X was discussed.

## Error types

When a sentence is unfaithful, choose every error type that applies and
explain in one or two sentences what is wrong, citing the transcript.

## Ambiguity

Mark a sentence ambiguous when one reasonable reading makes it faithful and
another makes it unfaithful, and pick the type from the taxonomy.
`
