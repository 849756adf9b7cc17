package iaa

import "math"

// Fleiss is Fleiss' κ over the units that share one number of ratings.
type Fleiss struct {
	Kappa float64 // κ over the units used
	// SE0 is the standard error under κ = 0 of Fleiss, Nee & Landis (1979),
	// as reported by irr's kappam.fleiss; Z = Kappa/SE0 tests κ = 0.
	SE0, Z float64
	// SE is Gwet's (2014) standard error without assuming κ = 0, for the
	// interval Low..High = Kappa ± 1.96·SE clipped to [−1, 1].
	SE, Low, High float64
	Raters        int // m, the ratings per unit of the units used
	Units         int // the units used: those with exactly m ratings
	// PerCategory holds κ_j for each category column of the counts.
	PerCategory []CategoryKappa
}

// CategoryKappa is Fleiss' κ for one category against all others.
type CategoryKappa struct {
	Kappa, SE0, Z float64 // κ_j, its null standard error and κ_j/SE0
	Err           error   // an [*UndefinedError] when nobody or everybody used the category
}

// FleissKappa computes Fleiss' (1971) κ from a units × categories count
// matrix. It uses the units rated by the most common number m ≥ 2 of coders
// (ties go to the larger m) and reports m and how many units that is; see
// [FleissKappaVarying] to use every unit. Over those N units, with
// p_j = Σ_i n_ij/(Nm) and q_j = 1 − p_j:
//
//	P̄ = (Σ_ij n_ij² − Nm) / (Nm(m−1)),  P̄_e = Σ_j p_j²,  κ = (P̄ − P̄_e)/(1 − P̄_e)
//	κ_j = 1 − Σ_i n_ij(m − n_ij) / (Nm(m−1) p_j q_j)
//
// with null standard errors (Fleiss, Nee & Landis 1979)
//
//	SE0(κ)  = √2 / (Σ p_j q_j √(Nm(m−1))) · √((Σ p_j q_j)² − Σ p_j q_j (q_j − p_j))
//	SE0(κ_j) = √(2/(Nm(m−1)))
//
// and Gwet's non-null SE for the interval. Undefined when no unit has two
// ratings or all ratings fall in one category.
func FleissKappa(c Counts) (Fleiss, error) {
	c.check()
	return fleissKappa(countsRows(c))
}

func fleissKappa(c countRows) (Fleiss, error) {
	const stat = "Fleiss' kappa"
	// The sums below are of whole numbers, which float64 adds exactly in
	// any order (they stay far below 2⁵³), so units sharing a row are
	// counted together: rows[i] stands for times[i] units (nil: one each).
	rows, times := c, []int(nil)
	if p, ok := c.(*profileRows); ok {
		rows, times = p.flat, p.times()
	}
	weight := func(i int) int {
		if times == nil {
			return 1
		}
		return times[i]
	}
	freq := map[int]int{}
	var row countRow
	for u := range rows.units() {
		if rows.row(u, &row); row.total >= 2 {
			freq[row.total] += weight(u)
		}
	}
	m, units := 0, 0
	for r, f := range freq {
		if f > units || f == units && r > m {
			m, units = r, f
		}
	}
	if units == 0 {
		return Fleiss{}, undefined(stat, reasonNoPairable)
	}
	if units < 2 {
		return Fleiss{}, undefined(stat, reasonOnePairable)
	}
	q := c.categories()
	colSum := make([]float64, q)
	dis := make([]float64, q) // Σ n_ij(m − n_ij) over the units used, for κ_j
	sumSq := 0.0
	for u := range rows.units() {
		if rows.row(u, &row); row.total != m {
			continue
		}
		w := weight(u)
		for i, j := range row.cats {
			x := int(row.n[i])
			colSum[j] += float64(w * x)
			sumSq += float64(w * x * x)
			dis[j] += float64(w * x * (m - x))
		}
	}
	N, M := float64(units), float64(m)
	nm := N * M
	p := make([]float64, q)
	sumPQ, sumPQQP, pe := 0.0, 0.0, 0.0
	used := 0
	for j := range p {
		p[j] = colSum[j] / nm
		qj := 1 - p[j]
		sumPQ += p[j] * qj
		sumPQQP += p[j] * qj * (qj - p[j])
		pe += p[j] * p[j]
		if colSum[j] > 0 {
			used++
		}
	}
	if used < 2 {
		return Fleiss{Raters: m, Units: units}, undefined(stat, reasonOneCategory)
	}
	pbar := (sumSq - nm) / (nm * (M - 1))
	kappa := (pbar - pe) / (1 - pe)
	se0 := math.Sqrt2 / (sumPQ * math.Sqrt(nm*(M-1))) * sqrtPos(sumPQ*sumPQ-sumPQQP)

	f := Fleiss{Kappa: kappa, SE0: se0, Raters: m, Units: units}
	if se0 > 0 {
		f.Z = kappa / se0
	}
	g, err := manyCodersRows(c, chanceFleiss, m, stat)
	if err != nil {
		return Fleiss{}, err
	}
	f.SE, f.Low, f.High = g.SE, g.Low, g.High

	seJ := math.Sqrt(2 / (nm * (M - 1)))
	f.PerCategory = make([]CategoryKappa, q)
	for j := range q {
		pq := p[j] * (1 - p[j])
		if pq == 0 {
			reason := "no rating uses this category"
			if p[j] == 1 {
				reason = reasonOneCategory
			}
			f.PerCategory[j] = CategoryKappa{Err: undefined("Fleiss' kappa for a category", reason)}
			continue
		}
		kj := 1 - dis[j]/(nm*(M-1)*pq)
		f.PerCategory[j] = CategoryKappa{Kappa: kj, SE0: seJ, Z: kj / seJ}
	}
	return f, nil
}

// FleissKappaVarying is Fleiss' κ generalised to units rated by different
// numbers of coders (Gwet 2014; as irrCAC's fleiss.kappa.raw). With r_i
// ratings of unit i, n_ik in category k, n the units with r_i ≥ 1 and n₂
// those with r_i ≥ 2:
//
//	p_a = (1/n₂) Σ_{r_i≥2} Σ_k n_ik(n_ik−1)/(r_i(r_i−1))
//	π_k = (1/n) Σ_i n_ik/r_i,  p_e = Σ_k π_k²,  κ = (p_a − p_e)/(1 − p_e)
//
// It equals [FleissKappa] when every unit has the same number of ratings,
// and Scott's π for two coders. The standard error is Gwet's linearised one:
// Var = (1/(n(n−1))) Σ_i (κ*_i − κ)² with
// κ_i = (n/n₂)(p_a,i − p_e·[r_i≥2])/(1−p_e),
// κ*_i = κ_i − 2(1−κ)(p_e,i − p_e)/(1−p_e) and p_e,i = Σ_k n_ik π_k / r_i.
// Undefined when no unit has two ratings or all ratings fall in one category.
func FleissKappaVarying(c Counts) (Coefficient, error) {
	return manyCoders(c, chanceFleiss, 0, "Fleiss' kappa")
}
