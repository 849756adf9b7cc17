package web_test

import "net/url"

func init() {
	moreMatrix = append(moreMatrix,
		// A study's entry link with a token no study holds is not found,
		// whoever follows it.
		matrixEntry{route: "GET /s/:token", want: access{gone, gone, gone, gone, gone, gone},
			path: func(*matrixFixture) string { return "/s/no-such-study?pid=p1" }},
		// Only a study's participants have a study step; nobody of the
		// matrix is one.
		matrixEntry{route: "GET /study", want: access{see, gone, gone, gone, gone, gone}},
		matrixEntry{route: "POST /study", want: access{anon, gone, gone, gone, gone, gone},
			form: func(*matrixFixture) url.Values { return url.Values{"answer": {"accept"}} }},
		// Studies are leads' pages; a study the project lacks is not found.
		matrixEntry{route: "GET /p/:slug/studies", want: leadPage},
		matrixEntry{route: "GET /p/:slug/studies/:name", want: access{see, no, gone, no, gone, gone},
			path: func(*matrixFixture) string { return "/p/alpha/studies/none-such" }},
		matrixEntry{route: "POST /p/:slug/studies/:name/entry", want: access{anon, no, gone, no, gone, gone},
			path: func(*matrixFixture) string { return "/p/alpha/studies/none-such/entry" },
			form: func(*matrixFixture) url.Values { return url.Values{"entry": {"close"}} }},
		matrixEntry{route: "GET /p/:slug/studies/:name/report", want: access{see, no, gone, no, gone, gone},
			path: func(*matrixFixture) string { return "/p/alpha/studies/none-such/report" }},
		matrixEntry{route: "POST /p/:slug/studies/:name/participants/:n", want: access{anon, no, gone, no, gone, gone},
			path: func(*matrixFixture) string { return "/p/alpha/studies/none-such/participants/1" },
			form: func(*matrixFixture) url.Values { return url.Values{"decision": {"exclude"}, "reason": {"x"}} }},
		// A plan that is not JSON: the form comes back to a lead.
		matrixEntry{route: "POST /p/:slug/studies/plan", want: access{anon, no, gone, no, bad, bad},
			form: func(*matrixFixture) url.Values { return url.Values{"plan": {"not json"}} }},
		// A definition that is not JSON: the form comes back to a lead.
		matrixEntry{route: "POST /p/:slug/studies", want: access{anon, no, gone, no, bad, bad},
			form: func(*matrixFixture) url.Values { return url.Values{"name": {"s"}, "definition": {"not json"}} }},
	)
}
