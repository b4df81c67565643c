package plugin

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/internal/hostops"
	"github.com/smith-agent/smith/core/internal/pluginabi"
)

// TestLogBudgetConfigured: a plugin's configured log budget
// (Artifact.LogBytes, from smith.kdl) bounds one call's records in place
// of LogBytesPerCall, and the exhaustion record names it and where to
// raise it; a new call has a full budget again.
func TestLogBudgetConfigured(t *testing.T) {
	var buf bytes.Buffer
	h := &Host{log: &syncWriter{w: &buf}}
	l := newLogHost(h, Artifact{Name: "shout", LogBytes: 1 << 10})
	call := func() context.Context {
		return context.WithValue(context.Background(), callKey{}, &callState{ops: &hostops.Ops{}})
	}
	ctx := call()
	msg := strings.Repeat("m", 300)
	for range 5 {
		if err := l.WriteLog(ctx, msg, pluginabi.LogOptions{Level: pluginabi.LevelInfo}); err != nil {
			t.Fatal(err)
		}
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 4 || !strings.Contains(lines[3], "log budget exhausted (at most 256 records and 1024 bytes per call; smith.kdl: plugin \"shout\" { log") {
		t.Fatalf("log:\n%s", buf.String())
	}
	buf.Reset()
	if err := l.WriteLog(call(), msg, pluginabi.LogOptions{}); err != nil || !strings.Contains(buf.String(), msg) {
		t.Fatalf("a new call's record: %v %q", err, buf.String())
	}
	if d := newLogHost(h, Artifact{Name: "x"}); d.maxBytes != LogBytesPerCall {
		t.Errorf("default budget %d", d.maxBytes)
	}
}
