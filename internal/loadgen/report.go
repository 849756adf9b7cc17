package loadgen

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"text/tabwriter"
	"time"
)

// percentile returns the p-th percentile (0..100) of sorted latencies by
// the nearest-rank method.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(float64(len(sorted))*p/100+0.999999) - 1
	return sorted[min(max(rank, 0), len(sorted)-1)]
}

// Write prints requests per second overall and, per route, the count,
// errors and p50 / p95 / p99 latency.
func (r *Result) Write(w io.Writer) error {
	fmt.Fprintf(w, "%d requests in %s: %.1f requests/s, %d failed, %d acknowledged label saves\n",
		r.Requests, r.Elapsed.Round(time.Millisecond), float64(r.Requests)/r.Elapsed.Seconds(), r.Failed, len(r.Acks))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "route\tcount\terrors\tp50\tp95\tp99\tmax\t")
	names := make([]string, 0, len(r.Routes))
	for n := range r.Routes {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		st := r.Routes[n]
		l := slices.Clone(st.Latencies)
		slices.Sort(l)
		ms := func(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000) }
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t%s\t\n", n, len(l), st.Errors, ms(percentile(l, 50)), ms(percentile(l, 95)), ms(percentile(l, 99)), ms(l[len(l)-1]))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, e := range r.Errors {
		fmt.Fprintln(w, "error:", e)
	}
	return nil
}

// WriteTimeline writes every request of the run as CSV, in the order they
// ended: start and latency in milliseconds since the run started, the
// route, and whether it failed.
func (r *Result) WriteTimeline(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"start_ms", "latency_ms", "route", "failed"})
	for _, e := range r.Timeline {
		cw.Write([]string{ms(e.Start), ms(e.Latency), e.Route, strconv.FormatBool(e.Failed)})
	}
	cw.Flush()
	return cw.Error()
}

// ms is d in milliseconds, to the microsecond.
func ms(d time.Duration) string { return strconv.FormatFloat(d.Seconds()*1000, 'f', 3, 64) }
