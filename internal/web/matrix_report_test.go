package web_test

// The agreement report is for leads of the project only: annotators get
// 403 and members of other projects 404, as on every lead page. An unknown
// CSV table is refused with 422 naming the field, after the role check.
func init() {
	moreMatrix = append(moreMatrix,
		matrixEntry{route: "GET /p/:slug/report", want: leadPage},
		matrixEntry{route: "GET /p/:slug/report.json", want: leadPage},
		matrixEntry{route: "GET /p/:slug/report.csv", want: leadPage, path: func(*matrixFixture) string { return "/p/alpha/report.csv?table=pairwise" }},
		matrixEntry{route: "GET /p/:slug/report.csv", want: access{see, no, gone, no, bad, bad}, path: func(*matrixFixture) string { return "/p/alpha/report.csv?table=nope" }},
	)
}
