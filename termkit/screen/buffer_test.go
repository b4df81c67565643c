package screen_test

import (
	"testing"

	"github.com/smith-agent/smith/termkit/screen"
)

func TestSetString(t *testing.T) {
	tests := []struct {
		name    string
		x, maxX int
		in      string
		want    string
		end     int
	}{
		{name: "ascii", x: 0, maxX: 10, in: "hi", want: "hi", end: 2},
		{name: "combining kept", x: 0, maxX: 10, in: "e\u0301!", want: "e\u0301!", end: 2},
		{name: "wide clipped to space", x: 0, maxX: 3, in: "日本", want: "日", end: 3},
		{name: "zwj one cell pair", x: 1, maxX: 10, in: "👨\u200d👩\u200d👧", want: " 👨\u200d👩\u200d👧", end: 3},
		{name: "tab from x", x: 2, maxX: 12, in: "a\tb", want: "  a       b", end: 11},
		{name: "negative x", x: -1, maxX: 10, in: "abc", want: "bc", end: 2},
		{name: "escape inert", x: 0, maxX: 10, in: "\x1b[2J", want: "␛[2J", end: 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := screen.NewBuffer(12, 1)
			end := b.SetStringMax(tt.x, 0, tt.maxX, tt.in, screen.Style{})
			got := b.String()
			if got != tt.want+"\n" {
				t.Errorf("row = %q, want %q", got, tt.want)
			}
			if end != tt.end {
				t.Errorf("end = %d, want %d", end, tt.end)
			}
		})
	}
}

func TestOverwriteWideHalf(t *testing.T) {
	b := screen.NewBuffer(4, 1)
	b.SetString(0, 0, "日本", screen.Style{})
	b.SetString(1, 0, "x", screen.Style{}) // right half of 日
	if got, want := b.String(), " x本\n"; got != want {
		t.Errorf("after overwriting a right half: %q, want %q", got, want)
	}
	b.SetString(2, 0, "y", screen.Style{}) // left half of 本
	if got, want := b.String(), " xy\n"; got != want {
		t.Errorf("after overwriting a left half: %q, want %q", got, want)
	}
}

func TestColorProfile(t *testing.T) {
	tests := []struct {
		name string
		c    screen.Color
		want string
	}{
		{name: "rgb red", c: screen.RGB(255, 0, 0), want: "i196"},
		{name: "rgb grey", c: screen.RGB(128, 128, 128), want: "i244"},
		{name: "indexed stays", c: screen.Indexed(33), want: "i33"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := screen.ConvertColor(screen.ANSI256, tt.c).String(); got != tt.want {
				t.Errorf("256-colour %v = %s, want %s", tt.c, got, tt.want)
			}
		})
	}
	if got := screen.ConvertColor(screen.ANSI16, screen.RGB(250, 10, 10)).String(); got != "i9" {
		t.Errorf("16-colour red = %s, want i9", got)
	}
	if got := screen.ConvertColor(screen.NoColor, screen.RGB(250, 10, 10)); !got.IsDefault() {
		t.Errorf("no-colour red = %s, want default", got)
	}
}
