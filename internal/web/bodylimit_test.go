package web_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// multipartBody builds a multipart form of about size bytes with a CSRF
// token, as the 60 MB login floods did.
func multipartBody(t *testing.T, tok string, size int) (*bytes.Buffer, string) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mw.WriteField("_csrf", tok)
	mw.WriteField("username", "x")
	fw, _ := mw.CreateFormFile("f", "big.bin")
	fw.Write(bytes.Repeat([]byte("a"), size))
	mw.Close()
	return &buf, mw.FormDataContentType()
}

// Finding 4: anonymous requests could send 64 MiB bodies that the CSRF
// check parsed before anything else.
func TestBodyLimits(t *testing.T) {
	w := newWorkFixture(t)
	t.Run("anonymous login form", func(t *testing.T) {
		b := w.browser()
		tok := b.csrf("/login")
		body, ct := multipartBody(t, tok, 1<<20)
		req, _ := http.NewRequest(http.MethodPost, w.srv.URL+"/login", body)
		req.Header.Set("Content-Type", ct)
		if p := b.do(req); p.status != http.StatusRequestEntityTooLarge {
			t.Fatalf("1 MiB anonymous login: %d, want 413", p.status)
		}
	})
	t.Run("anonymous chunked body", func(t *testing.T) {
		b := w.browser()
		tok := b.csrf("/login")
		form := url.Values{"_csrf": {tok}, "username": {"x"}, "password": {strings.Repeat("p", 64<<10)}}
		req, _ := http.NewRequest(http.MethodPost, w.srv.URL+"/login", struct{ *strings.Reader }{strings.NewReader(form.Encode())})
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if p := b.do(req); p.status != http.StatusRequestEntityTooLarge {
			t.Fatalf("64 KiB chunked anonymous login: %d, want 413", p.status)
		}
	})
	t.Run("logged-in form route", func(t *testing.T) {
		b := w.browser()
		b.login("lea", testPassword)
		tok := b.csrf("/projects")
		p := b.post("/p/alpha/settings", url.Values{"_csrf": {tok}, "guidelines": {strings.Repeat("g", 2<<20)}})
		if p.status != http.StatusRequestEntityTooLarge {
			t.Fatalf("2 MiB settings form: %d, want 413", p.status)
		}
	})
	t.Run("import upload only from a lead", func(t *testing.T) {
		b := w.browser()
		b.login("ann", testPassword)
		tok := b.csrf("/projects")
		body, ct := multipartBody(t, tok, 4<<20)
		req, _ := http.NewRequest(http.MethodPost, w.srv.URL+"/p/alpha/import", body)
		req.Header.Set("Content-Type", ct)
		if p := b.do(req); p.status != http.StatusForbidden {
			t.Fatalf("annotator's 4 MiB upload: %d, want 403", p.status)
		}
		lead := w.browser()
		lead.login("lea", testPassword)
		tok = lead.csrf("/projects")
		body, ct = multipartBody(t, tok, 4<<20)
		req, _ = http.NewRequest(http.MethodPost, w.srv.URL+"/p/alpha/import", body)
		req.Header.Set("Content-Type", ct)
		if p := lead.do(req); p.status != http.StatusUnprocessableEntity {
			t.Fatalf("lead's 4 MiB upload without files: %d, want 422 (read and checked)", p.status)
		}
	})
}
