package screen_test

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/smith-agent/smith/termkit/screen"
	"github.com/smith-agent/smith/termkit/termtest"
)

var full = screen.RendererOptions{Profile: screen.TrueColor, SyncOutput: true, Hyperlinks: true}

// check renders b into e and fails unless e then shows exactly b.
func check(t testing.TB, r *screen.Renderer, e *termtest.Emulator, b *screen.Buffer) {
	t.Helper()
	r.Render(b)
	if err := r.Flush(e); err != nil {
		t.Fatal(err)
	}
	if err := e.Err(); err != nil {
		t.Fatal(err)
	}
	if got, want := termtest.Frame(e.Screen()), termtest.Frame(b); got != want {
		t.Fatalf("terminal shows\n%s\nwant\n%s", got, want)
	}
}

func TestRendererFrames(t *testing.T) {
	red := screen.Style{Fg: screen.Indexed(1), Attr: screen.Bold}
	link := screen.Style{Link: "https://example.com/a", Attr: screen.Underline}
	steps := []struct {
		name string
		draw func(b *screen.Buffer)
	}{
		{name: "text", draw: func(b *screen.Buffer) { b.SetString(0, 0, "hello world", screen.Style{}) }},
		{name: "style", draw: func(b *screen.Buffer) { b.SetString(6, 0, "WORLD", red) }},
		{name: "wide", draw: func(b *screen.Buffer) { b.SetString(0, 1, "日本語 😀 👨\u200d👩\u200d👧", screen.Style{}) }},
		{name: "narrow over wide half", draw: func(b *screen.Buffer) { b.SetString(1, 1, "x", screen.Style{}) }},
		{name: "wide over narrow", draw: func(b *screen.Buffer) { b.SetString(0, 0, "語", screen.Style{}) }},
		{name: "link", draw: func(b *screen.Buffer) { b.SetString(0, 2, "click", link) }},
		{name: "rgb", draw: func(b *screen.Buffer) {
			b.SetString(0, 3, "rgb", screen.Style{Fg: screen.RGB(1, 2, 3), Bg: screen.Indexed(200)})
		}},
		{name: "last column", draw: func(b *screen.Buffer) { b.SetString(14, 3, "Z", screen.Style{}) }},
		{name: "wide at last column", draw: func(b *screen.Buffer) { b.SetString(13, 2, "日", screen.Style{}) }},
		{name: "clear", draw: func(b *screen.Buffer) { b.Clear() }},
	}
	r := screen.NewRenderer(full)
	e := termtest.NewEmulator(15, 4)
	b := screen.NewBuffer(15, 4)
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			s.draw(b)
			check(t, r, e, b)
			if e.FramesOutsideSync != 0 {
				t.Errorf("%d writes of text outside synchronized output", e.FramesOutsideSync)
			}
		})
	}
}

func TestRendererIdleFrameWritesNothing(t *testing.T) {
	r := screen.NewRenderer(full)
	b := screen.NewBuffer(20, 5)
	b.SetString(0, 0, "x", screen.Style{})
	r.Render(b)
	r.Flush(&bytes.Buffer{})
	r.Render(b)
	if n := r.Buffered(); n != 0 {
		t.Errorf("unchanged frame rendered %d bytes, want 0", n)
	}
}

func TestRendererSyncBrackets(t *testing.T) {
	r := screen.NewRenderer(full)
	b := screen.NewBuffer(20, 5)
	b.SetString(0, 0, "x", screen.Style{})
	var out bytes.Buffer
	r.Render(b)
	r.Flush(&out)
	s := out.String()
	if !strings.HasPrefix(s, "\x1b[?2026h") || !strings.HasSuffix(s, "\x1b[?2026l") {
		t.Errorf("frame %q is not inside BSU/ESU", s)
	}
	r = screen.NewRenderer(screen.RendererOptions{})
	out.Reset()
	r.Render(b)
	r.Flush(&out)
	if strings.Contains(out.String(), "2026") {
		t.Errorf("frame %q uses synchronized output though it was not enabled", out.String())
	}
}

func TestRendererNoColorKeepsAttributes(t *testing.T) {
	r := screen.NewRenderer(screen.RendererOptions{})
	b := screen.NewBuffer(5, 1)
	b.SetString(0, 0, "x", screen.Style{Fg: screen.RGB(255, 0, 0), Attr: screen.Bold, Link: "http://x"})
	var out bytes.Buffer
	r.Render(b)
	r.Flush(&out)
	s := out.String()
	if strings.Contains(s, "38;") || strings.Contains(s, "31") || strings.Contains(s, "]8;") {
		t.Errorf("NoColor frame %q has a colour or a link", s)
	}
	if !strings.Contains(s, "\x1b[0;1m") {
		t.Errorf("NoColor frame %q lost bold", s)
	}
}

// TestRendererBytesPerChange shows output is proportional to the number of
// changed cells, not to the screen size.
func TestRendererBytesPerChange(t *testing.T) {
	tests := []struct {
		name  string
		cells int
		max   int
	}{
		{name: "one cell", cells: 1, max: 40},
		{name: "ten cells in a run", cells: 10, max: 50},
		{name: "forty cells in a run", cells: 40, max: 80},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := screen.NewRenderer(full)
			b := screen.NewBuffer(200, 60)
			for y := range 60 {
				b.SetString(0, y, strings.Repeat("abcdefghij", 20), screen.Style{})
			}
			r.Render(b)
			r.Flush(&bytes.Buffer{})
			b.SetString(50, 30, strings.Repeat("Z", tt.cells), screen.Style{})
			r.Render(b)
			if n := r.Buffered(); n > tt.max {
				t.Errorf("changing %d cells wrote %d bytes, want ≤ %d", tt.cells, n, tt.max)
			}
		})
	}
}

func TestRendererGolden(t *testing.T) {
	b := screen.NewBuffer(24, 3)
	b.SetString(0, 0, "plain ", screen.Style{})
	b.SetString(6, 0, "bold", screen.Style{Attr: screen.Bold})
	b.SetString(0, 1, "日本 😀 e\u0301", screen.Style{Fg: screen.Indexed(2)})
	b.SetString(0, 2, "\x1b[31mhostile\ttab", screen.Style{Bg: screen.RGB(16, 32, 48)})
	r := screen.NewRenderer(full)
	e := termtest.NewEmulator(24, 3)
	check(t, r, e, b)
	termtest.Golden(t, e.Screen())
}

func FuzzRenderer(f *testing.F) {
	f.Add([]byte("hello\x00日本\x01😀\x02e\u0301"), uint64(1))
	f.Add([]byte("👨\u200d👩\u200d👧 abc"), uint64(7))
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		rng := rand.New(rand.NewPCG(seed, 0))
		r := screen.NewRenderer(full)
		e := termtest.NewEmulator(12, 3)
		b := screen.NewBuffer(12, 3)
		parts := strings.Split(string(data), "\x00")
		for i, p := range parts {
			if i > 8 {
				break
			}
			st := screen.Style{Fg: screen.Indexed(uint8(rng.IntN(256))), Attr: screen.Attr(rng.IntN(128))}
			if rng.IntN(4) == 0 {
				st.Link = "http://l/" + string(rune('a'+rng.IntN(3)))
			}
			b.SetString(rng.IntN(14)-1, rng.IntN(3), p, st)
			check(t, r, e, b)
		}
	})
}

func BenchmarkRenderOneCellChange(b *testing.B) {
	r := screen.NewRenderer(full)
	buf := screen.NewBuffer(200, 60)
	for y := range 60 {
		buf.SetString(0, y, strings.Repeat("abcdefghij", 20), screen.Style{})
	}
	r.Render(buf)
	var out bytes.Buffer
	r.Flush(&out)
	total := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		buf.SetString(i%200, i%60, string(rune('A'+i%26)), screen.Style{})
		r.Render(buf)
		total += r.Buffered()
		out.Reset()
		r.Flush(&out)
	}
	b.ReportMetric(float64(total)/float64(b.N), "bytes/frame")
}

func BenchmarkRenderFullRepaint(b *testing.B) {
	r := screen.NewRenderer(full)
	buf := screen.NewBuffer(200, 60)
	var out bytes.Buffer
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		for y := range 60 {
			buf.SetString(0, y, strings.Repeat(string(rune('a'+i%26)), 200), screen.Style{})
		}
		r.Render(buf)
		out.Reset()
		r.Flush(&out)
	}
}
