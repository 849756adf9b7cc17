package loadgen_test

import (
	"testing"

	"annotate/internal/loadgen"
)

func TestCheckLoopback(t *testing.T) {
	for _, tc := range []struct {
		url string
		ok  bool
	}{
		{"http://127.0.0.1:8080", true},
		{"http://127.3.4.5:80", true},
		{"http://localhost:1", true},
		{"http://[::1]:8080", true},
		{"http://10.0.0.1:8080", false},
		{"http://192.168.1.2", false},
		{"http://example.com", false},
		{"http://0.0.0.0:8080", false},
	} {
		if err := loadgen.CheckLoopback(tc.url); (err == nil) != tc.ok {
			t.Errorf("CheckLoopback(%q) = %v, want ok=%v", tc.url, err, tc.ok)
		}
	}
}
