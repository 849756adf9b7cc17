package assiststore

// EvalPairsQuery is the query EvalAssistRun reads its pairs with, for its
// plan.
const EvalPairsQuery = evalPairsQuery
