package tui

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/smith-agent/smith/termkit/markdown"
	"github.com/smith-agent/smith/termkit/screen"
)

// Theme is how the interactive mode draws: one style per role. The
// product plugin contributes the styles (plugins-src/product/src/ui.rs)
// and the user's smith.kdl overrides them; without either every role is
// plain text and markdown keeps termkit's defaults.
type Theme struct {
	User, UserMark         screen.Style
	Thinking, ThinkingHead screen.Style
	ToolName, ToolArgs     screen.Style
	ToolOK, ToolErr        screen.Style
	ToolOutput             screen.Style
	DiffAdd, DiffDel       screen.Style
	DiffHunk               screen.Style
	Notice, Warning, Error screen.Style
	Dim, Accent            screen.Style
	Status, StatusAccent   screen.Style
	Border, Selection      screen.Style
	Queued                 screen.Style
	Markdown               markdown.Theme
}

// baseTheme is the theme before any plugin or user style: plain roles, a
// reversed selection, and termkit's markdown defaults.
func baseTheme() Theme {
	return Theme{Selection: screen.Style{Attr: screen.Reverse}, Markdown: markdown.DefaultTheme()}
}

// applyStyles sets the roles of styles (role → style words); an unknown
// role or a bad style is skipped with a warning naming where it came from.
func (t *Theme) applyStyles(styles map[string]string, from func(role string) string) []string {
	var warn []string
	for _, role := range slices.Sorted(maps.Keys(styles)) {
		if err := t.SetRole(role, styles[role]); err != nil {
			warn = append(warn, fmt.Sprintf("%s: %v; the style is ignored", from(role), err))
		}
	}
	return warn
}

// themeRoles are the theme's roles by the names smith.kdl styles them
// with (tui { theme { ROLE "STYLE" } }).
func (t *Theme) roles() map[string]*screen.Style {
	return map[string]*screen.Style{
		"user": &t.User, "user-mark": &t.UserMark, "thinking": &t.Thinking, "thinking-head": &t.ThinkingHead,
		"tool-name": &t.ToolName, "tool-args": &t.ToolArgs, "tool-ok": &t.ToolOK, "tool-error": &t.ToolErr,
		"tool-output": &t.ToolOutput, "diff-add": &t.DiffAdd, "diff-del": &t.DiffDel, "diff-hunk": &t.DiffHunk,
		"notice": &t.Notice, "warning": &t.Warning, "error": &t.Error, "dim": &t.Dim, "accent": &t.Accent,
		"status": &t.Status, "status-accent": &t.StatusAccent, "border": &t.Border, "selection": &t.Selection,
		"queued":  &t.Queued,
		"heading": &t.Markdown.Heading, "code": &t.Markdown.Code, "code-block": &t.Markdown.CodeBlock,
		"link": &t.Markdown.Link, "quote": &t.Markdown.Quote, "list-marker": &t.Markdown.ListMarker,
		"strong": &t.Markdown.Strong, "emphasis": &t.Markdown.Emph, "rule": &t.Markdown.Rule,
	}
}

// ThemeRoles lists the role names a theme override may style, sorted.
func ThemeRoles() []string {
	var t Theme
	names := make([]string, 0, 40)
	for n := range t.roles() {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// SetRole styles the role name with spec: words among bold, dim, italic,
// underline, reverse, strike and plain, a foreground colour, and "on" and
// a background colour. A colour is a name (black, red, green, yellow,
// blue, magenta, cyan, white, and bright-…), 0–255, or #rrggbb. The error
// names the bad word and the valid forms.
func (t *Theme) SetRole(name, spec string) error {
	dst, ok := t.roles()[name]
	if !ok {
		return fmt.Errorf("%q is not a theme role; the roles are %s", name, strings.Join(ThemeRoles(), ", "))
	}
	st, err := ParseStyle(spec)
	if err != nil {
		return err
	}
	*dst = st
	return nil
}

var colorNames = []string{"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"}

var attrNames = map[string]screen.Attr{"bold": screen.Bold, "dim": screen.Dim, "italic": screen.Italic,
	"underline": screen.Underline, "reverse": screen.Reverse, "strike": screen.Strike}

// ParseStyle reads a style such as "bold #ff8800 on 236".
func ParseStyle(spec string) (screen.Style, error) {
	var st screen.Style
	words := strings.Fields(spec)
	bg := false
	fgSet := false
	for _, w := range words {
		lw := strings.ToLower(w)
		if a, ok := attrNames[lw]; ok {
			st.Attr |= a
			continue
		}
		switch lw {
		case "plain":
			continue
		case "on":
			bg = true
			continue
		}
		c, ok := parseColor(lw)
		if !ok {
			return screen.Style{}, fmt.Errorf("style %q: %q is not an attribute (bold, dim, italic, underline, reverse, strike, plain), \"on\", or a colour (a name such as red or bright-blue, 0-255, or #rrggbb)", spec, w)
		}
		switch {
		case bg:
			st.Bg, bg = c, false
		case fgSet:
			return screen.Style{}, fmt.Errorf("style %q: two foreground colours; write \"on\" before a background colour", spec)
		default:
			st.Fg, fgSet = c, true
		}
	}
	if bg {
		return screen.Style{}, fmt.Errorf("style %q ends with \"on\"; give the background colour after it", spec)
	}
	return st, nil
}

func parseColor(w string) (screen.Color, bool) {
	if strings.HasPrefix(w, "#") && len(w) == 7 {
		v, err := strconv.ParseUint(w[1:], 16, 32)
		if err != nil {
			return 0, false
		}
		return screen.RGB(uint8(v>>16), uint8(v>>8), uint8(v)), true
	}
	if n, err := strconv.Atoi(w); err == nil {
		if n < 0 || n > 255 {
			return 0, false
		}
		return screen.Indexed(uint8(n)), true
	}
	bright := strings.HasPrefix(w, "bright-")
	if i := slices.Index(colorNames, strings.TrimPrefix(w, "bright-")); i >= 0 {
		if bright {
			i += 8
		}
		return screen.Indexed(uint8(i)), true
	}
	return 0, false
}
