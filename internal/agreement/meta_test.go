package agreement_test

import (
	"strings"
	"testing"

	"annotate/internal/agreement"
)

// TestCommentsAndSets: "# key: value" lines before the header are kept in
// Meta and counted in line numbers; at the masi level, values are sets of
// labels joined by "+", and α is MASI's (Passonneau 2006), checked against
// the coincidence formula on the same data by iaa's generic path.
func TestCommentsAndSets(t *testing.T) {
	in := "# dimension: error_types@sentence\n# Level: masi\n# weights: none\nunit,coder,value\n" +
		"u1,a,x+y\nu1,b,x\nu2,a,none\nu2,b,none\nu3,a,y\nu3,b,x+y\nu4,a,x\nu4,b,y\n"
	tab, err := agreement.ReadRatings(strings.NewReader(in), "r.csv")
	if err != nil {
		t.Fatal(err)
	}
	if tab.Meta["level"] != "masi" || tab.Meta["weights"] != "none" || tab.Meta["dimension"] != "error_types@sentence" {
		t.Fatalf("meta %v", tab.Meta)
	}
	rep, err := agreement.Compute(tab, agreement.Options{Level: tab.Meta["level"]})
	if err != nil {
		t.Fatal(err)
	}
	// Krippendorff's α for two coders rating every unit: D_o is the mean
	// distance within units, D_e over every ordered pair of the 8 values.
	units := [][2]string{{"x+y", "x"}, {"", ""}, {"y", "x+y"}, {"x", "y"}}
	var all []string
	do := 0.0
	for _, u := range units {
		do += 2 * masi(u[0], u[1])
		all = append(all, u[0], u[1])
	}
	do /= float64(len(all))
	de := 0.0
	for i := range all {
		for j := range all {
			if i != j {
				de += masi(all[i], all[j])
			}
		}
	}
	de /= float64(len(all) * (len(all) - 1))
	want := 1 - do/de
	got := rep.Statistics.KrippendorffAlpha.Value
	if got == nil || *got-want > 1e-12 || want-*got > 1e-12 {
		t.Fatalf("masi alpha %v, want %v", got, want)
	}
	nominal, _ := agreement.Compute(tab, agreement.Options{})
	if *nominal.Statistics.KrippendorffAlpha.Value == want {
		t.Fatal("the masi level computed the nominal alpha")
	}

	_, err = agreement.Compute(mustRead(t, "# level: masi\nunit,coder,value\nu1,a,x+\nu1,b,x\n"), agreement.Options{Level: "masi"})
	if err == nil || !strings.HasPrefix(err.Error(), "r.csv:3: value:") {
		t.Fatalf("an empty label: %v (want line 3, after the comment)", err)
	}
}

func mustRead(t *testing.T, in string) *agreement.Table {
	t.Helper()
	tab, err := agreement.ReadRatings(strings.NewReader(in), "r.csv")
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// masi is Passonneau's distance 1 − J·M between two "+"-joined sets.
func masi(a, b string) float64 {
	set := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "+") {
			if l != "" {
				m[l] = true
			}
		}
		return m
	}
	A, B := set(a), set(b)
	inter, union := 0, len(B)
	for l := range A {
		if B[l] {
			inter++
		} else {
			union++
		}
	}
	if union == 0 {
		return 0
	}
	var m float64
	switch {
	case inter == len(A) && inter == len(B):
		m = 1
	case inter == len(A) || inter == len(B):
		m = 2.0 / 3
	case inter > 0:
		m = 1.0 / 3
	}
	return 1 - float64(inter)/float64(union)*m
}
