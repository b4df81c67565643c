package screen

import "strconv"

// Color is a foreground or background colour. The zero value is the
// terminal's default colour. Build others with [Indexed] and [RGB].
type Color uint32

const (
	colorKindShift        = 24
	colorIndexed   uint32 = 1 << colorKindShift
	colorRGB       uint32 = 2 << colorKindShift
)

// DefaultColor is the terminal's default colour (the zero Color).
const DefaultColor Color = 0

// Indexed returns palette colour n (0–15 the basic and bright colours,
// 16–255 the 256-colour cube and grey ramp).
func Indexed(n uint8) Color { return Color(colorIndexed | uint32(n)) }

// RGB returns a 24-bit colour; terminals without true colour get the
// nearest palette colour (see [Profile]).
func RGB(r, g, b uint8) Color {
	return Color(colorRGB | uint32(r)<<16 | uint32(g)<<8 | uint32(b))
}

// IsDefault reports whether c is the terminal's default colour.
func (c Color) IsDefault() bool { return c == 0 }

func (c Color) kind() uint32 { return uint32(c) &^ 0xFFFFFF }

func (c Color) rgb() (r, g, b uint8) {
	return uint8(c >> 16), uint8(c >> 8), uint8(c)
}

// String returns "default", "i<N>" or "#rrggbb".
func (c Color) String() string {
	switch c.kind() {
	case colorIndexed:
		return "i" + strconv.Itoa(int(uint8(c)))
	case colorRGB:
		const hex = "0123456789abcdef"
		r, g, b := c.rgb()
		return string([]byte{'#', hex[r>>4], hex[r&15], hex[g>>4], hex[g&15], hex[b>>4], hex[b&15]})
	}
	return "default"
}

// Attr is a set of text attributes.
type Attr uint8

// The text attributes. Terminals that lack one ignore it.
const (
	Bold Attr = 1 << iota
	Dim
	Italic
	Underline
	Blink
	Reverse
	Strike
)

var attrSGR = [...]struct {
	a    Attr
	code string
	name string
}{
	{Bold, "1", "bold"}, {Dim, "2", "dim"}, {Italic, "3", "italic"}, {Underline, "4", "underline"},
	{Blink, "5", "blink"}, {Reverse, "7", "reverse"}, {Strike, "9", "strike"},
}

// String lists the attributes by name, joined by "+", or "" for none.
func (a Attr) String() string {
	s := ""
	for _, x := range attrSGR {
		if a&x.a != 0 {
			if s != "" {
				s += "+"
			}
			s += x.name
		}
	}
	return s
}

// Style is how a cell is drawn. The zero value is the terminal's default
// style. Link, when not empty, makes the cell part of an OSC 8 hyperlink to
// that URI on terminals that support hyperlinks (see
// [RendererOptions].Hyperlinks); control characters in it are dropped.
type Style struct {
	Fg, Bg Color
	Attr   Attr
	Link   string
}

// String describes the style for test output, e.g. "bold fg=i1 bg=#102030
// link=https://x"; the zero style is "".
func (s Style) String() string {
	out := s.Attr.String()
	add := func(k, v string) {
		if out != "" {
			out += " "
		}
		out += k + "=" + v
	}
	if !s.Fg.IsDefault() {
		add("fg", s.Fg.String())
	}
	if !s.Bg.IsDefault() {
		add("bg", s.Bg.String())
	}
	if s.Link != "" {
		add("link", s.Link)
	}
	return out
}

// Profile is how many colours the terminal can show.
type Profile uint8

// The colour profiles, from fewest to most colours. NoColor keeps
// attributes (bold, underline, reverse …) and drops every colour, which is
// what NO_COLOR asks for.
const (
	NoColor Profile = iota
	ANSI16
	ANSI256
	TrueColor
)

// String names the profile.
func (p Profile) String() string {
	switch p {
	case NoColor:
		return "none"
	case ANSI16:
		return "16"
	case ANSI256:
		return "256"
	case TrueColor:
		return "truecolor"
	}
	return "Profile(" + strconv.Itoa(int(p)) + ")"
}

// convert returns c as the best colour p can show.
func (p Profile) convert(c Color) Color {
	if c.IsDefault() {
		return c
	}
	switch p {
	case NoColor:
		return DefaultColor
	case TrueColor:
		return c
	}
	if c.kind() == colorRGB {
		r, g, b := c.rgb()
		c = Indexed(rgbTo256(r, g, b))
	}
	if p == ANSI16 && uint8(c) >= 16 {
		c = Indexed(to16(uint8(c)))
	}
	return c
}

var cubeLevels = [6]int{0, 95, 135, 175, 215, 255}

func nearestLevel(v uint8) int {
	best, bd := 0, 1<<30
	for i, l := range cubeLevels {
		d := int(v) - l
		if d < 0 {
			d = -d
		}
		if d < bd {
			best, bd = i, d
		}
	}
	return best
}

func rgbTo256(r, g, b uint8) uint8 {
	ri, gi, bi := nearestLevel(r), nearestLevel(g), nearestLevel(b)
	cube := 16 + 36*ri + 6*gi + bi
	cr, cg, cb := cubeLevels[ri], cubeLevels[gi], cubeLevels[bi]
	avg := (int(r) + int(g) + int(b)) / 3
	gi2 := (avg - 3) / 10
	if gi2 < 0 {
		gi2 = 0
	}
	if gi2 > 23 {
		gi2 = 23
	}
	gv := 8 + 10*gi2
	if dist(int(r), int(g), int(b), gv, gv, gv) < dist(int(r), int(g), int(b), cr, cg, cb) {
		return uint8(232 + gi2)
	}
	return uint8(cube)
}

func dist(r1, g1, b1, r2, g2, b2 int) int {
	dr, dg, db := r1-r2, g1-g2, b1-b2
	return dr*dr + dg*dg + db*db
}

var ansi16 = [16][3]int{
	{0, 0, 0}, {205, 0, 0}, {0, 205, 0}, {205, 205, 0}, {0, 0, 238}, {205, 0, 205}, {0, 205, 205}, {229, 229, 229},
	{127, 127, 127}, {255, 0, 0}, {0, 255, 0}, {255, 255, 0}, {92, 92, 255}, {255, 0, 255}, {0, 255, 255}, {255, 255, 255},
}

func to16(n uint8) uint8 {
	var r, g, b int
	if n >= 232 {
		v := 8 + 10*int(n-232)
		r, g, b = v, v, v
	} else {
		n -= 16
		r, g, b = cubeLevels[n/36], cubeLevels[(n/6)%6], cubeLevels[n%6]
	}
	best, bd := 0, 1<<30
	for i, c := range ansi16 {
		if d := dist(r, g, b, c[0], c[1], c[2]); d < bd {
			best, bd = i, d
		}
	}
	return uint8(best)
}

// ConvertColor returns c as the nearest colour profile p can show: true
// colour unchanged, RGB to the 256-colour cube or grey ramp, 256 colours to
// the 16 basic ones, and everything to the default colour under NoColor.
func ConvertColor(p Profile, c Color) Color { return p.convert(c) }
