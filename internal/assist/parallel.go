package assist

import (
	"context"
	"sync"
)

// parallel runs f for 0..n-1 concurrently, waits for all of them and returns
// the error of the lowest index that failed, so the reason reported is the
// same from run to run. Siblings of a failure are not cancelled: their
// answers are cached, and a rerun then repeats only the question that failed.
func parallel(ctx context.Context, n int, f func(ctx context.Context, i int) error) error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { errs[i] = f(ctx, i) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
