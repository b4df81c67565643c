package plugin

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/model"
)

// gone reports whether process pid no longer runs (absent or a zombie
// waiting to be reaped), waiting up to 10s for the kill to land.
func gone(pid int) bool {
	for range 1000 {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return true
		}
		if f := strings.Fields(string(b)[strings.LastIndexByte(string(b), ')')+1:]); len(f) > 0 && f[0] == "Z" {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

// waitFile waits up to 10s for a file the command writes, returning its
// content.
func waitFile(t *testing.T, p string) string {
	t.Helper()
	for range 1000 {
		if b, err := os.ReadFile(p); err == nil && strings.HasSuffix(string(b), "\n") {
			return strings.TrimSpace(string(b))
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s never appeared", p)
	return ""
}

// TestBashKillsProcessGroup: a timeout or a cancellation kills the
// command's whole process group, including a background grandchild, and
// the call's mutation is unknown.
func TestBashKillsProcessGroup(t *testing.T) {
	g := shared(t)
	const script = `sleep 300 & echo $! > bg.pid; wait`
	tests := []struct {
		name   string
		args   string
		cancel bool
		want   string
	}{
		{name: "timeout", args: `{"command":"` + script + `","timeout":1}`, want: "bash: timed out after 1s and was killed with everything it started"},
		{name: "cancel", args: `{"command":"` + script + `"}`, cancel: true, want: "bash: cancelled; the process group was killed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newBench(t, g, Effects{})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			type ret struct {
				res  model.Mutation
				out  string
				err  error
				isEr bool
			}
			done := make(chan ret, 1)
			go func() {
				res, out, err := w.call(ctx, t, "bash", tt.args)
				done <- ret{res.Mutation, out, err, res.IsError}
			}()
			pid, err := strconv.Atoi(waitFile(t, filepath.Join(w.root, "bg.pid")))
			if err != nil {
				t.Fatal(err)
			}
			if tt.cancel {
				cancel()
			}
			r := <-done
			msg := r.out
			if r.err != nil {
				msg += r.err.Error()
			}
			if !r.isEr && r.err == nil {
				t.Errorf("the call succeeded: %q", r.out)
			}
			if !strings.Contains(msg, tt.want) {
				t.Errorf("message %q lacks %q", msg, tt.want)
			}
			if r.res != model.MutationUnknown {
				t.Errorf("Mutation = %q; want unknown (the command may have done anything before it was killed)", r.res)
			}
			if !gone(pid) {
				t.Errorf("background process %d survived; the process group was not killed", pid)
			}
			recs, _ := w.store.Records(context.Background())
			if len(recs) != 2 {
				t.Fatalf("journal holds %d records; want the process.run intent and its completion", len(recs))
			}
			if c, ok := recs[1].(effect.Completion); !ok || c.Mutation != model.MutationUnknown {
				t.Errorf("journal completion = %+v; want the process.run effect completed as unknown", recs[1])
			}
		})
	}
}
