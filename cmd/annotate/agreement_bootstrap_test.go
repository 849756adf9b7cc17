package main

import (
	"strings"
	"testing"
)

func TestAgreementSaysWhichBootstrap(t *testing.T) {
	in := "unit,coder,value\n"
	for u, vs := range []string{"aab", "aaa", "bbb", "abb", "aaa", "bba"} {
		for c, v := range vs {
			in += "u" + string(rune('0'+u)) + ",c" + string(rune('0'+c)) + "," + string(v) + "\n"
		}
	}
	for _, tc := range []struct{ flag, want string }{
		{"", "bootstrap 200 over units"},
		{"pairs", "bootstrap 200 over pairable values"},
	} {
		args := []string{"agreement", "--ratings", "-", "--bootstrap", "200"}
		if tc.flag != "" {
			args = append(args, "--bootstrap-method", tc.flag)
		}
		out, errOut, err := runCmd(t, in, nil, args...)
		if err != nil {
			t.Fatalf("%v: %v\n%s", args, err, errOut)
		}
		if !strings.Contains(out, tc.want) {
			t.Errorf("%v: output does not say %q:\n%s", args, tc.want, out)
		}
		js, _, err := runCmd(t, in, nil, append(args, "--format", "json")...)
		if err != nil || !strings.Contains(js, `"bootstrap_method"`) {
			t.Errorf("%v: JSON without bootstrap_method (%v)", args, err)
		}
	}
	if _, _, err := runCmd(t, in, nil, "agreement", "--ratings", "-", "--bootstrap", "10", "--bootstrap-method", "jackknife"); err == nil {
		t.Error("an unknown bootstrap method was accepted")
	}
}
