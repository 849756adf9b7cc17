package web_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/config"
	"github.com/pb33f/libopenapi-validator/content"
	verrors "github.com/pb33f/libopenapi-validator/errors"

	"annotate/internal/web"
)

var (
	openAPIOnce      sync.Once
	openAPIValidator validator.Validator
	openAPIErr       error
)

// apiValidator loads the served OpenAPI description once and checks it is
// a valid OpenAPI 3.1 document.
func apiValidator(t testing.TB) validator.Validator {
	t.Helper()
	openAPIOnce.Do(func() {
		doc, err := libopenapi.NewDocument(web.OpenAPI)
		if err != nil {
			openAPIErr = err
			return
		}
		if doc.GetVersion() != "3.1.0" {
			openAPIErr = fmt.Errorf("OpenAPI version %s, want 3.1.0", doc.GetVersion())
			return
		}
		v, errs := validator.NewValidator(doc, config.WithBodyDecoder("application/jsonl", content.DecoderFunc(decodeJSONLines)))
		if len(errs) > 0 {
			openAPIErr = fmt.Errorf("%v", errs)
			return
		}
		if ok, verrs := v.ValidateDocument(); !ok {
			openAPIErr = fmt.Errorf("the description is not valid OpenAPI: %v", verrs)
			return
		}
		openAPIValidator = v
	})
	if openAPIErr != nil {
		t.Fatal(openAPIErr)
	}
	return openAPIValidator
}

// decodeJSONLines reads a JSON Lines body as the array of its lines, which
// is how the description gives its schema.
func decodeJSONLines(in *content.DecodeInput) (any, error) {
	var out []any
	dec := json.NewDecoder(in.Body)
	for dec.More() {
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// apiClient calls the API with a token and checks every answer against the
// OpenAPI description.
type apiClient struct {
	t     testing.TB
	base  string
	token string
	// noCheck skips the description check of requests (for deliberately
	// bad ones); answers are always checked.
	noCheck bool
}

type apiAnswer struct {
	status int
	header http.Header
	body   []byte
}

func (a apiAnswer) String() string { return fmt.Sprintf("%d %s", a.status, a.body) }

// decode unmarshals a JSON answer.
func (a apiAnswer) decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(a.body, v); err != nil {
		t.Fatalf("answer %d is not JSON: %v\n%s", a.status, err, a.body)
	}
}

// problem decodes a problem answer and checks its media type.
func (a apiAnswer) problem(t testing.TB) web.Problem {
	t.Helper()
	if ct := a.header.Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("problem answer has Content-Type %q (%s)", ct, a)
	}
	var p web.Problem
	a.decode(t, &p)
	if p.Status != a.status || !strings.HasPrefix(p.Type, "/api/v1/problems/") {
		t.Fatalf("problem %+v in a %d answer", p, a.status)
	}
	return p
}

func (c *apiClient) do(method, path, contentType string, body []byte, header ...string) apiAnswer {
	c.t.Helper()
	req, err := http.NewRequest(method, c.base+path, bytes.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	c.check(req, resp, body, data)
	return apiAnswer{status: resp.StatusCode, header: resp.Header, body: data}
}

// check validates the request (unless noCheck) and the answer against the
// description.
func (c *apiClient) check(req *http.Request, resp *http.Response, reqBody, respBody []byte) {
	c.t.Helper()
	v := apiValidator(c.t)
	req.Body = io.NopCloser(bytes.NewReader(reqBody))
	resp.Body = io.NopCloser(bytes.NewReader(respBody))
	if !c.noCheck {
		if ok, errs := v.ValidateHttpRequest(req); !ok {
			c.t.Errorf("%s %s: the request does not match the OpenAPI description:\n%s", req.Method, req.URL.Path, validationText(errs))
		}
		req.Body = io.NopCloser(bytes.NewReader(reqBody))
	}
	if ok, errs := v.ValidateHttpResponse(req, resp); !ok {
		c.t.Errorf("%s %s: the %d answer does not match the OpenAPI description:\n%s\n%s", req.Method, req.URL.Path, resp.StatusCode, validationText(errs), respBody)
	}
}

func validationText(errs []*verrors.ValidationError) string {
	var b strings.Builder
	for _, e := range errs {
		fmt.Fprintf(&b, "  %s\n", e.Error())
		for _, f := range e.SchemaValidationErrors {
			fmt.Fprintf(&b, "    %s: %s\n", f.FieldPath, f.Reason)
		}
	}
	return b.String()
}

func (c *apiClient) get(path string, header ...string) apiAnswer {
	c.t.Helper()
	return c.do(http.MethodGet, path, "", nil, header...)
}

func (c *apiClient) postJSON(path string, v any) apiAnswer {
	c.t.Helper()
	body, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	return c.do(http.MethodPost, path, "application/json", body)
}

// upload posts files as multipart fields named files, with extra fields.
func (c *apiClient) upload(path string, files map[string]string, fields ...string) apiAnswer {
	c.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for i := 0; i+1 < len(fields); i += 2 {
		mw.WriteField(fields[i], fields[i+1])
	}
	for name, content := range files {
		fw, err := mw.CreateFormFile("files", name)
		if err != nil {
			c.t.Fatal(err)
		}
		io.WriteString(fw, content)
	}
	mw.Close()
	return c.do(http.MethodPost, path, mw.FormDataContentType(), buf.Bytes())
}
