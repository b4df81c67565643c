package mockprovider

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/model"
)

func TestIs(t *testing.T) {
	tests := []struct {
		name  string
		model string
		want  bool
	}{
		{name: "bare", model: "mock", want: true},
		{name: "script", model: "mock/x.json", want: true},
		{name: "other", model: "mockingbird", want: false},
		{name: "empty", model: "", want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Is(tt.model); got != tt.want {
				t.Fatalf("Is(%q) = %v", tt.model, got)
			}
		})
	}
}

// TestDemoScript: the embedded demo script reads, edits and runs the test,
// in that order, then answers in text.
func TestDemoScript(t *testing.T) {
	p, err := Named("mock", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var calls []string
	for range 4 {
		s := p.Stream(context.Background(), &model.Request{})
		for ev, ok := s.Next(); ok; ev, ok = s.Next() {
			if c, ok := ev.(model.ToolCallStart); ok {
				calls = append(calls, c.Name)
			}
		}
		_ = s.Close()
	}
	if got := strings.Join(calls, " "); got != "read edit bash" {
		t.Fatalf("tool calls = %s", got)
	}
	if names := ScriptNames(); len(names) == 0 || names[0] != "demo" {
		t.Fatalf("Names = %v", names)
	}
}

func TestLoadFileAndErrors(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "s.json"), []byte(`{"mock_script":1,"responses":[{"text":"hi"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Named("mock/s.json", dir); err != nil {
		t.Fatalf("relative script: %v", err)
	}
	if _, err := Named("mock/"+filepath.Join(dir, "s.json"), "/"); err != nil {
		t.Fatalf("absolute script: %v", err)
	}
	_, err := Named("mock/none.json", dir)
	if err == nil || !strings.Contains(err.Error(), `"none.json"`) || !strings.Contains(err.Error(), "demo") {
		t.Fatalf("missing script error = %v", err)
	}
}
