package httpengine

import (
	"testing"
	"time"
)

func TestZeroConfigTakesTheDocumentedDefaults(t *testing.T) {
	e := newEngine(t, Config{})
	tests := []struct {
		name      string
		got, want int64
	}{
		{"request body 16 MiB", e.s.maxRequest, 16 << 20},
		{"response body 64 MiB", e.s.maxResponse, 64 << 20},
		{"head 120 s", int64(e.s.headTimeout), int64(120 * time.Second)},
		{"chunk gap 300 s", int64(e.s.chunkGap), int64(300 * time.Second)},
		{"queue 8", int64(e.s.queue), 8},
		{"read size 32 KiB", int64(e.s.readSize), 32 << 10},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %d", tt.name, tt.got)
		}
	}
	if e.s.transport == nil || !e.s.secrets["Authorization"] || !e.s.secrets["Set-Cookie"] {
		t.Fatalf("default transport or secret headers missing: %+v", e.s)
	}
}
