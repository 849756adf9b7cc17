// Package agreement reads a ratings file and reports inter-annotator
// agreement on it: the engine behind `annotate agreement --ratings FILE`.
//
// The file is CSV with a header naming the columns unit, coder and value (in
// any order) and one rating per row; an empty value means the coder saw the
// unit but gave no rating. [ReadRatings] streams it into a [Table],
// [Compute] turns the table into a [Report] with the statistics of package
// iaa, and [Report.Write] prints the report as text, JSON or CSV.
package agreement
