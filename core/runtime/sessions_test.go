package runtime

import (
	"testing"

	"github.com/smith-agent/smith/core/session"
)

func TestAutoName(t *testing.T) {
	tests := []struct {
		name, prompt, want string
	}{
		{name: "words", prompt: "Fix the bug!", want: "fix-the-bug"},
		{name: "punctuation only", prompt: "?!", want: "session"},
		{name: "long prompt is cut at a word", prompt: "please refactor the session directory listing so that it streams", want: "please-refactor-the-session-directory"},
		{name: "non-ascii dropped", prompt: "résumé fix", want: "rsum-fix"},
		{name: "taken names are numbered", prompt: "taken", want: "taken-2"},
	}
	d, err := session.OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f, _, err := d.Create("taken")
	if err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := autoName(d, tt.prompt)
			if err != nil || got != tt.want {
				t.Fatalf("autoName(%q) = %q, %v; want %q", tt.prompt, got, err, tt.want)
			}
		})
	}
}
