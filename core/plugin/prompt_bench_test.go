package plugin

import (
	"context"
	"strings"
	"testing"
)

// BenchmarkPrompt measures what a session start pays for the product
// plugin once it is compiled: rendering the system prompt, and the context
// transform over a repository three levels deep with an AGENTS.md of 2 KB
// at each level and the user's own (six journaled reads, two of them
// misses: the working directory has neither AGENTS.md nor CLAUDE.md).
func BenchmarkPrompt(b *testing.B) {
	w := newWorld(b)
	w.mkdir(b, "repo/.git")
	for _, d := range []string{"repo", "repo/a", "repo/a/b", "config"} {
		w.write(b, d+"/AGENTS.md", strings.Repeat("- a rule of the project.\n", 80))
	}
	w.mkdir(b, "repo/a/b/c")
	f := w.facts("repo/a/b/c", "repo", "config")
	ctx := context.Background()
	b.Run("system-prompt", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if p, err := w.b.SystemPrompt(ctx, f); err != nil || p == "" {
				b.Fatal(p, err)
			}
		}
	})
	b.Run("context", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if a, err := w.b.Context(ctx, f); err != nil || len(a) != 4 {
				b.Fatal(a, err)
			}
		}
	})
}
