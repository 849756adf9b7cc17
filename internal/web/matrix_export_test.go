package web_test

func init() {
	moreMatrix = append(moreMatrix,
		matrixEntry{route: "GET /p/:slug/export", want: leadPage},
		matrixEntry{route: "GET /p/:slug/export/download", want: leadPage,
			path: func(*matrixFixture) string { return "/p/alpha/export/download?what=raw&format=csv" }},
	)
}
