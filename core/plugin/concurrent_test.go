package plugin

import (
	"context"
	"fmt"
	"sync"
	"testing"
)

// TestConcurrentCalls: calls of one Binding run in parallel on pooled
// instances, each seeing its own arguments and files.
func TestConcurrentCalls(t *testing.T) {
	g := shared(t)
	w := newBench(t, g, Effects{})
	const n = 12
	for i := range n {
		w.write(t, fmt.Sprintf("f%d.txt", i), fmt.Sprintf("content %d\n", i))
	}
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			tool := "read"
			args := fmt.Sprintf(`{"path":"f%d.txt"}`, i)
			want := fmt.Sprintf("content %d\n", i)
			if i%2 == 1 {
				tool, args, want = "bash", fmt.Sprintf(`{"command":"cat f%d.txt"}`, i), want+"[exit code 0]"
			}
			res, out, err := w.call(context.Background(), t, tool, args)
			if err != nil || res.IsError || out != want {
				errs <- fmt.Errorf("call %d (%s) = %q, %v; want %q", i, tool, out, err, want)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	recs, _ := w.store.Records(context.Background())
	if len(recs) != 2*n {
		t.Errorf("journal holds %d records; want %d (an intent and a completion per call)", len(recs), 2*n)
	}
}
