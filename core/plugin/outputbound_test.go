package plugin

import (
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/internal/pluginabi"
)

// TestBoundOutput: text past a plugin's output limit is cut at a rune
// boundary with a note naming the plugin and its smith.kdl budget; later
// text blocks are dropped, images kept; output within the limit is
// returned as it was.
func TestBoundOutput(t *testing.T) {
	text := func(s string) pluginabi.ContentBlock {
		return pluginabi.ContentBlock{Case: pluginabi.ContentBlockText, Text: s}
	}
	image := pluginabi.ContentBlock{Case: pluginabi.ContentBlockImage}
	tests := []struct {
		name  string
		in    []pluginabi.ContentBlock
		limit uint32
		// want is the text of each block, with NOTE for the cut note.
		want []string
	}{
		{name: "within", in: []pluginabi.ContentBlock{text("abc"), text("def")}, limit: 6, want: []string{"abc", "def"}},
		{name: "no-limit", in: []pluginabi.ContentBlock{text(strings.Repeat("a", 500))}, limit: 0, want: []string{strings.Repeat("a", 500)}},
		{name: "cut-first", in: []pluginabi.ContentBlock{text(strings.Repeat("a", 500)), image, text("later")}, limit: 300,
			want: []string{"aNOTE", ""}},
		{name: "rune-boundary", in: []pluginabi.ContentBlock{text(strings.Repeat("é", 300))}, limit: 301, want: []string{"éNOTE"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := boundOutput(tt.in, tt.limit, "shout")
			if len(got) != len(tt.want) {
				t.Fatalf("%d blocks, want %d: %+v", len(got), len(tt.want), got)
			}
			total := 0
			for i, c := range got {
				total += len(c.Text)
				w := tt.want[i]
				if before, ok := strings.CutSuffix(w, "NOTE"); ok {
					if !strings.HasPrefix(c.Text, before) || !strings.Contains(c.Text, `[output cut:`) || !strings.Contains(c.Text, `plugin "shout" { output "256KiB"; }`) {
						t.Errorf("block %d = %q", i, c.Text)
					}
					continue
				}
				if c.Text != w {
					t.Errorf("block %d = %q, want %q", i, c.Text, w)
				}
			}
			if tt.limit > 0 && total > int(tt.limit) {
				t.Errorf("%d bytes of text past the %d limit", total, tt.limit)
			}
		})
	}
}
