// Package iaa computes inter-annotator agreement statistics: Cohen's κ
// (weighted and unweighted, with asymptotic inference), Fleiss' κ, Scott's π,
// Gwet's AC1, percent agreement, Krippendorff's α at the nominal, ordinal,
// interval, ratio and MASI (set-valued) levels with a bootstrap over units
// (Zapf et al. 2016) or over pairable values (Hayes & Krippendorff 2007),
// and accuracy-type measures against a reference labelling.
//
// The functions are flat and pure: they take a ratings matrix ([Ratings]) or
// its sparse, coded form ([Coded], for many coders and units), a
// units × categories count matrix ([Counts]) or a two-coder contingency table
// ([][]float64) and return numbers. Missing ratings are NaN in a [Ratings].
//
// A statistic that has no value on the data given (one category only, no unit
// with two ratings, zero expected disagreement, ...) comes back as an error
// that matches [ErrUndefined] under errors.Is and carries the reason in an
// [*UndefinedError]; no function returns NaN or panics on real data. Panics
// are kept for programmer mistakes such as ragged tables or mismatched
// lengths.
//
// References cited in the doc comments:
//
//   - Cohen, J. (1960). A coefficient of agreement for nominal scales.
//     Educational and Psychological Measurement 20, 37–46.
//   - Cohen, J. (1968). Weighted kappa. Psychological Bulletin 70, 213–220.
//   - Cicchetti, D. V. & Allison, T. (1971). A new procedure for assessing
//     reliability of scoring EEG sleep recordings. American Journal of EEG
//     Technology 11, 101–109.
//   - Fleiss, J. L. & Cohen, J. (1973). The equivalence of weighted kappa and
//     the intraclass correlation coefficient as measures of reliability.
//     Educational and Psychological Measurement 33, 613–619.
//   - Fleiss, J. L., Cohen, J. & Everitt, B. S. (1969). Large sample standard
//     errors of kappa and weighted kappa. Psychological Bulletin 72, 323–327.
//   - Fleiss, J. L. (1971). Measuring nominal scale agreement among many
//     raters. Psychological Bulletin 76, 378–382.
//   - Fleiss, J. L., Nee, J. C. M. & Landis, J. R. (1979). Large sample
//     variance of kappa in the case of different sets of raters.
//     Psychological Bulletin 86, 974–977.
//   - Scott, W. A. (1955). Reliability of content analysis: the case of
//     nominal scale coding. Public Opinion Quarterly 19, 321–325.
//   - Light, R. J. (1971). Measures of response agreement for qualitative
//     data. Psychological Bulletin 76, 365–377.
//   - Gwet, K. L. (2008). Computing inter-rater reliability and its variance
//     in the presence of high agreement. British Journal of Mathematical and
//     Statistical Psychology 61, 29–48.
//   - Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th ed.
//   - Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability.
//     Annenberg School for Communication, University of Pennsylvania.
//   - Hayes, A. F. & Krippendorff, K. (2007). Answering the call for a
//     standard reliability measure for coding data. Communication Methods
//     and Measures 1, 77–89.
//   - Zapf, A., Castell, S., Morawietz, L. & Karch, A. (2016). Measuring
//     inter-rater reliability for nominal data – which coefficients and
//     confidence intervals are appropriate? BMC Medical Research
//     Methodology 16, 93.
//   - Hörmann, W. (1993). The generation of binomial random variates.
//     Journal of Statistical Computation and Simulation 46, 101–110.
//   - Kachitvichyanukul, V. & Schmeiser, B. W. (1988). Binomial random
//     variate generation. Communications of the ACM 31, 216–222.
//   - Passonneau, R. (2006). Measuring agreement on set-valued items (MASI)
//     for semantic and pragmatic annotation. LREC 2006.
package iaa
