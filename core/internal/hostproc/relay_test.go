//go:build unix

package hostproc

import (
	"context"
	"strings"
	"sync"
	"testing"
)

// TestOutputRelay: Options.Output sees every byte of the combined output
// in order, beyond what the kept tail holds.
func TestOutputRelay(t *testing.T) {
	tests := []struct {
		name, cmd, want, kept string
		max                   int
	}{
		{name: "stdout and stderr", cmd: "echo one; echo two >&2; echo three", want: "one\ntwo\nthree\n", kept: "one\ntwo\nthree\n"},
		{name: "longer than the tail", cmd: "printf 0123456789", want: "0123456789", kept: "6789", max: 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var got strings.Builder
			r := run(t, context.Background(), tc.cmd, Options{MaxOutput: tc.max, Output: func(b []byte) {
				mu.Lock()
				got.Write(b)
				mu.Unlock()
			}})
			mu.Lock()
			defer mu.Unlock()
			if got.String() != tc.want || string(r.Output) != tc.kept {
				t.Errorf("relayed %q, kept %q; want %q and %q", got.String(), r.Output, tc.want, tc.kept)
			}
		})
	}
}
