package iaa

// ScottPiTable computes Scott's π from a two-coder k × k contingency table
// (see [CohenKappaTable] for its layout). With π_k = (p_k. + p_.k)/2 the mean
// of the two coders' margins:
//
//	p_o = Σ_k p_kk,  p_e = Σ_k π_k²,  π = (p_o − p_e)/(1 − p_e)
//
// (Scott 1955). The standard error is Gwet's (2014; as irrCAC's
// scott2.table):
//
//	Var(π) = [Σ_kl p_kl ([k=l] − (1−π)(π_k + π_l))² − (p_o − 2(1−π)p_e)²] / (n(1−p_e)²)
//
// Undefined when the table is empty or only one category is used. Panics on a
// table that is not square.
func ScottPiTable(table [][]float64) (Coefficient, error) {
	return twoCoder(table, chanceFleiss, "Scott's pi")
}

// ScottPi is Scott's π generalised to many coders and missing ratings, which
// is Fleiss' κ in its form for varying numbers of ratings per unit; it is the
// same computation as [FleissKappaVarying], under the name used for two
// coders.
func ScottPi(c Counts) (Coefficient, error) {
	return manyCoders(c, chanceFleiss, 0, "Scott's pi")
}

// twoCoder computes Scott's π or Gwet's AC1 from a contingency table. Both
// use the mean margins π_k; they differ in p_e and in the per-cell
// contribution of chance agreement e_kl, with Σ p_kl e_kl = 2p_e:
// Scott e_kl = π_k + π_l, Gwet e_kl = 2(1 − (π_k + π_l)/2)/(q − 1).
func twoCoder(table [][]float64, model chance, stat string) (Coefficient, error) {
	q := len(table)
	checkSquare("table", table, q)
	n := 0.0
	for _, row := range table {
		for _, x := range row {
			if x < 0 || x != x {
				panic("iaa: negative or NaN count in table")
			}
			n += x
		}
	}
	if n == 0 {
		return Coefficient{}, undefined(stat, reasonNoOverlap)
	}
	if n < 2 {
		return Coefficient{}, undefined(stat, reasonOneOverlap)
	}
	pi := make([]float64, q)
	po := 0.0
	used := 0
	for i, row := range table {
		for j, x := range row {
			pi[i] += x / n / 2
			pi[j] += x / n / 2
			if i == j {
				po += x / n
			}
		}
	}
	for _, p := range pi {
		if p > 0 {
			used++
		}
	}
	pe := 0.0
	e := func(k, l int) float64 { return pi[k] + pi[l] }
	switch model {
	case chanceFleiss:
		if used < 2 {
			return Coefficient{}, undefined(stat, reasonOneCategory)
		}
		for _, p := range pi {
			pe += p * p
		}
	case chanceGwet:
		if q < 2 {
			return Coefficient{}, undefined(stat, "fewer than two categories")
		}
		for _, p := range pi {
			pe += p * (1 - p)
		}
		pe /= float64(q - 1)
		e = func(k, l int) float64 { return 2 * (1 - (pi[k]+pi[l])/2) / float64(q-1) }
	}
	coef := (po - pe) / (1 - pe)
	s := 0.0
	for k, row := range table {
		for l, x := range row {
			agree := 0.0
			if k == l {
				agree = 1
			}
			d := agree - (1-coef)*e(k, l)
			s += x / n * d * d
		}
	}
	t := po - 2*(1-coef)*pe
	v := (s - t*t) / (n * (1 - pe) * (1 - pe))
	return newCoefficient(coef, sqrtPos(v), int(n)), nil
}
