package plugin

import (
	"fmt"
	"unicode/utf8"

	"github.com/smith-agent/smith/core/internal/pluginabi"
)

// outputLimit is the output bound of a call to l through b: the plugin's
// own (Artifact.OutputBytes, from smith.kdl), else the binding's.
func (b *Binding) outputLimit(l *loaded) uint32 {
	if n := l.art.OutputBytes; n > 0 {
		return uint32(n)
	}
	return b.limit
}

// boundOutput cuts the text blocks of out past limit bytes in all: the
// guest was told the limit, and a guest that ignores it does not get to
// flood the model's context. The block that crosses it ends with a note
// naming the plugin's output budget; the text blocks after it are
// dropped. Images are kept (linear memory bounds them).
func boundOutput(blocks []pluginabi.ContentBlock, limit uint32, plugin string) []pluginabi.ContentBlock {
	total := 0
	for _, c := range blocks {
		if c.Case == pluginabi.ContentBlockText {
			total += len(c.Text)
		}
	}
	if limit == 0 || total <= int(limit) {
		return blocks
	}
	note := fmt.Sprintf("\n[output cut: %d bytes exceed plugin %s's %d-byte output limit; smith.kdl: plugin %q { output \"256KiB\"; }]", total, plugin, limit, plugin)
	left := max(int(limit)-len(note), 0)
	out := make([]pluginabi.ContentBlock, 0, len(blocks))
	cut := false
	for _, c := range blocks {
		if c.Case != pluginabi.ContentBlockText {
			out = append(out, c)
			continue
		}
		if cut {
			continue
		}
		if len(c.Text) <= left {
			left -= len(c.Text)
			out = append(out, c)
			continue
		}
		keep := left
		for keep > 0 && !utf8.RuneStart(c.Text[keep]) {
			keep--
		}
		c.Text = c.Text[:keep] + note
		out = append(out, c)
		cut = true
	}
	return out
}
