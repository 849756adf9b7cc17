package agreement_test

import (
	"strings"
	"testing"

	"annotate/internal/agreement"
)

// FuzzReadRatings feeds arbitrary text to the ratings reader and, when it
// is accepted, to Compute at every level: neither may panic, and the report
// must write as JSON.
func FuzzReadRatings(f *testing.F) {
	f.Add("unit,coder,value\nu1,a,1\nu1,b,2\nu2,a,1\nu2,b,\n")
	f.Add("value,unit,coder\n3,x,c1\n4,x,c2\n")
	f.Add("unit,coder,value\nu1,a,yes\nu1,a,no\n")
	f.Add("unit,coder\nu1,a\n")
	f.Add("\ufeffunit,coder,value\n\"u,1\",a,\"1.5\"\n\"u,1\",b,-2e3\n")
	f.Fuzz(func(t *testing.T, data string) {
		table, err := agreement.ReadRatings(strings.NewReader(data), "fuzz.csv")
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		for _, level := range []string{"nominal", "ordinal", "interval", "ratio"} {
			rep, err := agreement.Compute(table, agreement.Options{Level: level, Bootstrap: 20, Seed: 1})
			if err != nil {
				continue
			}
			var b strings.Builder
			if err := rep.Write(&b, "json"); err != nil {
				t.Fatalf("level %s: write: %v", level, err)
			}
			if strings.Contains(b.String(), "NaN") {
				t.Fatalf("level %s: NaN in the report", level)
			}
		}
	})
}
