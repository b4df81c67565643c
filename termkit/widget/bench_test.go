package widget

import (
	"fmt"
	"strings"
	"testing"

	"github.com/smith-agent/smith/termkit/input"
	"github.com/smith-agent/smith/termkit/screen"
)

// text100KB returns about 100 KB of prose in lines of up to 80 bytes.
func text100KB() string {
	words := strings.Fields("the quick brown fox jumps over the lazy dog while 世界 watches and 👍🏽 waves")
	var b, line strings.Builder
	for i := 0; b.Len() < 100<<10; i++ {
		w := words[i%len(words)]
		if line.Len()+len(w)+1 > 80 {
			b.WriteString(line.String())
			b.WriteByte('\n')
			line.Reset()
		}
		if line.Len() > 0 {
			line.WriteByte(' ')
		}
		line.WriteString(w)
	}
	b.WriteString(line.String())
	return b.String()
}

func benchKeystroke(b *testing.B, value string) {
	e := &Editor{Prompt: "> "}
	e.SetValue(value)
	benchKeys(b, e)
}

// benchKeys alternately types a character and deletes it, drawing at 80×8
// after each key.
func benchKeys(b *testing.B, e *Editor) {
	buf := screen.NewBuffer(80, 8)
	e.Draw(buf, buf.Bounds())
	k := input.Key{Code: 'x', Text: "x"}
	bs := input.Key{Code: input.KeyBackspace}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if i%2 == 0 {
			e.HandleKey(k)
		} else {
			e.HandleKey(bs)
		}
		e.Draw(buf, buf.Bounds())
	}
}

// BenchmarkEditorKeystroke100KB inserts (or deletes) one character at the
// end of a 100 KB value and draws at 80×8.
func BenchmarkEditorKeystroke100KB(b *testing.B) { benchKeystroke(b, text100KB()) }

// BenchmarkEditorKeystroke100KBMiddle does the same with the cursor in the
// middle of the text.
func BenchmarkEditorKeystroke100KBMiddle(b *testing.B) {
	e := &Editor{Prompt: "> "}
	e.SetValue(text100KB())
	e.move(pos{len(e.lines) / 2, 10})
	benchKeys(b, e)
}

// BenchmarkEditorHandleKey100KB measures the keystroke alone, without
// drawing.
func BenchmarkEditorHandleKey100KB(b *testing.B) {
	e := &Editor{Prompt: "> "}
	e.SetValue(text100KB())
	k := input.Key{Code: 'x', Text: "x"}
	bs := input.Key{Code: input.KeyBackspace}
	b.ReportAllocs()
	for i := range b.N {
		if i%2 == 0 {
			e.HandleKey(k)
		} else {
			e.HandleKey(bs)
		}
	}
}

// BenchmarkEditorKeystroke100KBOneLine is the worst case: one 100 KB line,
// whose layout is O(line) per keystroke.
func BenchmarkEditorKeystroke100KBOneLine(b *testing.B) {
	benchKeystroke(b, strings.ReplaceAll(text100KB(), "\n", " "))
}

// BenchmarkSelectorFilter1000 filters 1000 items by a 3-letter pattern.
func BenchmarkSelectorFilter1000(b *testing.B) {
	words := strings.Fields("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike")
	items := make([]Item, 1000)
	for i := range items {
		items[i] = Item{Label: fmt.Sprintf("%s-%s session %d", words[i%len(words)], words[(i*7)%len(words)], i)}
	}
	s := NewSelector("Sessions", items)
	patterns := []string{"ali", "ech", "lse"}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		s.SetFilter(patterns[i%len(patterns)])
	}
	if len(s.Visible()) == 0 {
		b.Fatal("nothing matched")
	}
}

// BenchmarkEditorDraw80x8 draws an unchanged 100 KB value at 80×8.
func BenchmarkEditorDraw80x8(b *testing.B) {
	e := &Editor{Prompt: "> "}
	e.SetValue(text100KB())
	buf := screen.NewBuffer(80, 8)
	b.ReportAllocs()
	for range b.N {
		e.Draw(buf, buf.Bounds())
	}
}

// BenchmarkBufferFill80x8 is the floor of a Draw: filling its area.
func BenchmarkBufferFill80x8(b *testing.B) {
	buf := screen.NewBuffer(80, 8)
	for range b.N {
		buf.Fill(buf.Bounds(), screen.Style{})
	}
}
