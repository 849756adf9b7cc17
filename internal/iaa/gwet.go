package iaa

// GwetAC1 computes Gwet's first-order agreement coefficient for any number
// of coders and missing ratings (Gwet 2008, 2014). With p_a and π_k as
// in [PercentAgreement] and [FleissKappaVarying] and q = c.Categories:
//
//	p_e = (1/(q−1)) Σ_k π_k(1 − π_k),  AC1 = (p_a − p_e)/(1 − p_e)
//
// q counts every category column of c, used or not, so include the unused
// categories of the scale as zero columns: AC1 depends on them. The standard
// error is Gwet's linearised one (see [FleissKappaVarying]). AC1 is the usual
// companion of κ when one category dominates, where κ and π are low despite
// high raw agreement (the "kappa paradox"). Undefined with fewer than two
// categories or no unit with two ratings.
func GwetAC1(c Counts) (Coefficient, error) {
	return manyCoders(c, chanceGwet, 0, "Gwet's AC1")
}

// GwetAC1Table computes Gwet's AC1 from a two-coder k × k contingency table
// (layout as in [CohenKappaTable]), with q = k categories:
//
//	π_k = (p_k. + p_.k)/2,  p_e = Σ_k π_k(1−π_k)/(q−1),  AC1 = (p_o − p_e)/(1 − p_e)
//
// and Gwet's (2008) variance, written with e_kl = 2(1 − (π_k+π_l)/2)/(q−1):
//
//	Var = [Σ_kl p_kl ([k=l] − (1−AC1) e_kl)² − (p_o − 2(1−AC1)p_e)²] / (n(1−p_e)²)
//
// Undefined when the table is empty or has fewer than two categories. Panics
// on a table that is not square.
func GwetAC1Table(table [][]float64) (Coefficient, error) {
	return twoCoder(table, chanceGwet, "Gwet's AC1")
}
