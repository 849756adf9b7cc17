package export

import (
	"bytes"
	"encoding/json"
	"testing"
)

// encodingJSON is the reference: encoding/json with HTML escaping off,
// as the JSON Lines sink wrote every value before.
func encodingJSON(t testing.TB, v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

// TestAppendJSONLikeEncoding compares appendJSON with encoding/json on
// every type it takes and on text with each kind of escape.
func TestAppendJSONLikeEncoding(t *testing.T) {
	yes, n := true, 42
	vals := []any{nil, "", "plain", "quote \" and back\\slash", "tab\tnew\nline\rcr\bbs\fff", "\x00\x01\x1f\x7f",
		"<script>&amp;</script>", "é ü 漢字 😀", "line\u2028sep\u2029para", "bad \xff\xfe utf-8 \xc3", 0, -7, int64(1) << 60,
		true, false, &yes, (*bool)(nil), &n, (*int)(nil), []string{}, []string{"a", "b\"c"}, []string(nil)}
	for _, v := range vals {
		got, ok := appendJSON(nil, v)
		if !ok {
			t.Fatalf("appendJSON(%#v) not handled", v)
		}
		if want := encodingJSON(t, v); string(got) != want {
			t.Errorf("appendJSON(%#v) = %s, want %s", v, got, want)
		}
	}
	f := 1.5
	for _, v := range []any{1.5, &f, map[string]any{"a": 1}} {
		if _, ok := appendJSON(nil, v); ok {
			t.Errorf("appendJSON(%#v) handled a type it should leave to encoding/json", v)
		}
	}
}

// FuzzAppendJSONString holds appendJSONString to encoding/json on any
// text, valid UTF-8 or not.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "a\"b", "\u2028", "\xff", "\x00<>&", "日本\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(appendJSONString(nil, s)), encodingJSON(t, s); got != want {
			t.Fatalf("appendJSONString(%q) = %s, want %s", s, got, want)
		}
	})
}
