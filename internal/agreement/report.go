package agreement

// Report is the agreement report on one ratings file. It marshals to JSON of
// this shape, which is kept stable:
//
//	{
//	  "units": 12,              // distinct units in the file
//	  "coders": 4,              // distinct coders in the file
//	  "ratings": 41,            // rows with a value
//	  "level": "nominal",       // nominal | ordinal | interval | ratio
//	  "weights": "none",        // Cohen's κ weights: none | linear | quadratic
//	  "statistics": {
//	    "krippendorff_alpha": {"value": 0.743, "ci95": [0.58, 0.88], ...},
//	    "fleiss_kappa":       {"value": ..., "se": ..., "ci95": [...], "n_units": 9, "ratings_per_unit": 4},
//	    "cohen_kappa_mean":   {"value": ..., "n_pairs": 6},
//	    "percent_agreement":  {"value": ..., "se": ..., "ci95": [...], "n_units": 11},
//	    "scott_pi":           {...},
//	    "gwet_ac1":           {...}
//	  },
//	  "pairwise": [{"coders": ["A", "B"], "n": 9, "cohen_kappa": 0.8, "se": ..., "ci95": [...]}, ...]
//	}
//
// A statistic with no value on the data carries {"undefined": "reason"}
// instead of "value", and so does a pair. No number is ever NaN or infinite.
type Report struct {
	Units   int    `json:"units"`   // distinct units in the file, rated or not
	Coders  int    `json:"coders"`  // distinct coders in the file
	Ratings int    `json:"ratings"` // rows with a value
	Level   string `json:"level"`   // nominal, ordinal, interval or ratio
	Weights string `json:"weights"` // Cohen's κ weights: none, linear or quadratic
	// Span is the range of the scale the weights are taken over; absent
	// when they are by the positions of the values observed.
	Span       float64    `json:"span,omitempty"`
	Statistics Statistics `json:"statistics"` // the coefficients
	// IntervalCaution, when not empty, says that too few pairable ratings
	// differ from the most common value for the intervals of α, Fleiss'
	// κ, Scott's π and the pairwise Cohen's κ to be trusted (see
	// RareValueRatings).
	IntervalCaution string `json:"interval_caution,omitempty"`
	Pairwise        []Pair `json:"pairwise"` // Cohen's κ for every pair of coders, in file order
}

// Statistics holds the report's coefficients under their JSON names.
type Statistics struct {
	// KrippendorffAlpha is α at the report's level over every unit with two
	// or more ratings; with a bootstrap it carries the bootstrap's ci95
	// (see BootstrapInterval), the replicate count and the probability
	// that α is below MinAlpha.
	KrippendorffAlpha Statistic `json:"krippendorff_alpha"`
	// FleissKappa is Fleiss' κ over the units with the most common number of
	// ratings (n_units of them, ratings_per_unit each), with Gwet's SE.
	FleissKappa Statistic `json:"fleiss_kappa"`
	// CohenKappaMean is the mean of the pairwise Cohen's κ (Light's κ) over
	// the n_pairs pairs where κ is defined, with the report's weights.
	CohenKappaMean Statistic `json:"cohen_kappa_mean"`
	// PercentAgreement is the share of agreeing pairs of ratings within units.
	PercentAgreement Statistic `json:"percent_agreement"`
	// ScottPi is Scott's π generalised to many coders and missing ratings.
	ScottPi Statistic `json:"scott_pi"`
	// GwetAC1 is Gwet's AC1 over the categories observed: in the whole
	// file for agreement --ratings, on the units with two or more ratings
	// in a project's report (see iaa.PairableCountStatisticsCoded).
	GwetAC1 Statistic `json:"gwet_ac1"`
}

// named lists the statistics in report order with their JSON names.
func (s *Statistics) named() []namedStatistic {
	return []namedStatistic{
		{"krippendorff_alpha", &s.KrippendorffAlpha},
		{"fleiss_kappa", &s.FleissKappa},
		{"cohen_kappa_mean", &s.CohenKappaMean},
		{"percent_agreement", &s.PercentAgreement},
		{"scott_pi", &s.ScottPi},
		{"gwet_ac1", &s.GwetAC1},
	}
}

type namedStatistic struct {
	name string
	stat *Statistic
}

// Statistic is one coefficient: either Value (with whatever inference is
// available) or Undefined with the reason. Absent fields are omitted from the
// JSON.
// PairsWarning is said wherever the pairs bootstrap gives an interval:
// measured by TestBootstrapCoverage (internal/iaa), its 95% interval held
// the population α in 436 of 500 simulated studies, against 477 for the
// units bootstrap.
const PairsWarning = "the pairs bootstrap (Hayes & Krippendorff 2007) is known to give intervals that are too narrow: in simulation its 95% interval held the true alpha in 87% of studies (the units bootstrap: 95%); use it only to compare with figures published that way"

type Statistic struct {
	Value   *float64    `json:"value,omitempty"`            // nil when undefined
	SE      *float64    `json:"se,omitempty"`               // large-sample standard error
	CI95    *[2]float64 `json:"ci95,omitempty"`             // 95% confidence interval [low, high]
	NUnits  *int        `json:"n_units,omitempty"`          // units that entered the estimate
	NPairs  *int        `json:"n_pairs,omitempty"`          // coder pairs averaged
	PerUnit *int        `json:"ratings_per_unit,omitempty"` // ratings on each unit used (Fleiss' κ)
	// LeftOut is the number of units with two or more ratings left out
	// because their number of ratings is not ratings_per_unit (Fleiss' κ).
	LeftOut *int `json:"n_units_left_out,omitempty"`
	// Bootstrap is the number of bootstrap replicates behind ci95 and
	// p_below_min: those drawn on which α is defined.
	Bootstrap *int `json:"bootstrap,omitempty"`
	// BootstrapUndefined is the number of replicates drawn on which α was
	// undefined (every drawn value the same), left out of Bootstrap.
	BootstrapUndefined *int `json:"bootstrap_undefined,omitempty"`
	// CI95Withheld says why ci95 and p_below_min are not given although
	// there was a bootstrap: α was undefined on more than
	// MaxUndefinedShare of its replicates.
	CI95Withheld string `json:"ci95_withheld,omitempty"`
	// BootstrapMethod says what the bootstrap resampled: "units" (units
	// with all their ratings; Zapf et al. 2016) or "pairs" (pairable
	// values; Hayes & Krippendorff 2007).
	BootstrapMethod string `json:"bootstrap_method,omitempty"`
	// BootstrapInterval says how ci95 is taken from the replicates:
	// "bca" (bias-corrected and accelerated; the units bootstrap) or
	// "percentile" (the pairs bootstrap, and data with too many distinct
	// values for BCa's jackknife); see iaa.AlphaBoot.Interval.
	BootstrapInterval string `json:"bootstrap_interval,omitempty"`
	// BootstrapWarning says when the method is known to give intervals
	// that are too narrow (the pairs bootstrap; see PairsWarning).
	BootstrapWarning string   `json:"bootstrap_warning,omitempty"`
	MinAlpha         *float64 `json:"min_alpha,omitempty"`   // the minimum acceptable α
	PBelowMin        *float64 `json:"p_below_min,omitempty"` // bootstrap P(α < min_alpha)
	// CI95Caution says that ci95 is too narrow: for a Cohen's κ between
	// two sides, few of their ratings differ from the value they gave
	// most (see RarePairRatings); for an annotator's agreement with the
	// rest, few units show any disagreement (report.FewDisagreements).
	CI95Caution string `json:"ci95_caution,omitempty"`
	Undefined   string `json:"undefined,omitempty"` // why there is no value
}

// Pair is Cohen's κ between two coders over the N units both rated.
type Pair struct {
	Coders     [2]string   `json:"coders"`                // the two coder ids
	N          int         `json:"n"`                     // units both rated
	CohenKappa *float64    `json:"cohen_kappa,omitempty"` // nil when undefined
	SE         *float64    `json:"se,omitempty"`          // Fleiss–Cohen–Everitt asymptotic SE
	CI95       *[2]float64 `json:"ci95,omitempty"`        // κ ± 1.96·SE, clipped to [−1, 1]
	// CI95Caution says that ci95 is too narrow: few of the pair's ratings
	// differ from the value they gave most (see RarePairRatings).
	CI95Caution string `json:"ci95_caution,omitempty"`
	Undefined   string `json:"undefined,omitempty"` // why κ is undefined
}

func ptr[T any](v T) *T { return &v }
