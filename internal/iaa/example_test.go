package iaa_test

import (
	"fmt"
	"math"

	"annotate/internal/iaa"
)

func ExampleCohenKappaTable() {
	// Two coders, three categories; rows are coder A, columns coder B.
	table := [][]float64{{0, 4, 1}, {0, 8, 0}, {0, 1, 5}}
	k, err := iaa.CohenKappaTable(table, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("kappa %.4f, ASE %.4f, 95%% CI %.4f–%.4f, z %.2f\n", k.Value, k.SE, k.Low, k.High, k.Z)
	// Output: kappa 0.4842, ASE 0.1380, 95% CI 0.2137–0.7547, z 3.26
}

func ExampleCohenKappa() {
	nan := math.NaN()
	a := []float64{1, 2, 3, 3, 2, nan}
	b := []float64{1, 2, 3, 2, 2, 3}
	k, _ := iaa.CohenKappa(iaa.FromColumns(a, b), 0, 1, iaa.Quadratic)
	fmt.Printf("quadratic-weighted kappa %.3f over %.0f units\n", k.Value, k.N)
	// Output: quadratic-weighted kappa 0.800 over 5 units
}

func ExampleFleissKappa() {
	// Units × categories: how many of the 3 coders chose each category.
	counts := iaa.NewCounts([][]int{
		{3, 0}, {2, 1}, {0, 3}, {3, 0}, {1, 2},
	})
	f, err := iaa.FleissKappa(counts)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("kappa %.3f on %d units with %d ratings each, z %.2f\n", f.Kappa, f.Units, f.Raters, f.Z)
	// Output: kappa 0.444 on 5 units with 3 ratings each, z 1.72
}

func ExampleAlpha() {
	nan := math.NaN()
	// Krippendorff (2011): four coders, twelve units, missing values.
	r := iaa.FromColumns(
		[]float64{1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan},
		[]float64{1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3},
		[]float64{nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan},
		[]float64{1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan},
	)
	for _, level := range []iaa.Level{iaa.Nominal, iaa.Ordinal, iaa.Interval, iaa.Ratio} {
		a, _ := iaa.Alpha(r, level)
		fmt.Printf("%-8s %.3f\n", level, a)
	}
	// Output:
	// nominal  0.743
	// ordinal  0.815
	// interval 0.849
	// ratio    0.797
}

func ExampleAlpha_undefined() {
	r := iaa.FromColumns([]float64{1, 1, 1}, []float64{1, 1, 1})
	_, err := iaa.Alpha(r, iaa.Nominal)
	fmt.Println(err)
	// Output: Krippendorff's alpha undefined: every pairable value is the same, so expected disagreement is zero
}

func ExampleAlphaBootstrap() {
	nan := math.NaN()
	r := iaa.FromColumns(
		[]float64{1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan},
		[]float64{1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3},
		[]float64{nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan},
		[]float64{1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan},
	)
	b, err := iaa.AlphaBootstrap(r, iaa.Nominal, iaa.BootstrapOptions{
		Replicates: 5000, Seed: 1, Min: []float64{0.667},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("alpha %.3f, resampling %s: %d per replicate\n", b.Alpha, b.Method, b.Draws)
	fmt.Println("interval brackets alpha:", b.Low < b.Alpha && b.Alpha < b.High)

	// The Hayes & Krippendorff (2007) bootstrap draws pairs of values.
	hk, _ := iaa.AlphaBootstrap(r, iaa.Nominal, iaa.BootstrapOptions{
		Replicates: 5000, Seed: 1, Method: iaa.BootstrapPairs,
	})
	fmt.Printf("resampling %s: %d per replicate\n", hk.Method, hk.Draws)
	// Output:
	// alpha 0.743, resampling units: 11 per replicate
	// interval brackets alpha: true
	// resampling pairs: 55 per replicate
}

func ExampleGwetAC1() {
	// High prevalence of one category: κ-type coefficients drop while raw
	// agreement stays high; AC1 stays close to it.
	counts := iaa.NewCounts([][]int{
		{2, 0}, {2, 0}, {2, 0}, {2, 0}, {2, 0}, {2, 0}, {2, 0}, {2, 0}, {1, 1}, {1, 1},
	})
	pa, _ := iaa.PercentAgreement(counts)
	pi, _ := iaa.ScottPi(counts)
	ac1, _ := iaa.GwetAC1(counts)
	fmt.Printf("agreement %.2f, Scott's pi %.2f, AC1 %.2f\n", pa.Value, pi.Value, ac1.Value)
	// Output: agreement 0.80, Scott's pi -0.11, AC1 0.76
}
