package term

import (
	"strconv"
	"strings"

	"github.com/smith-agent/smith/termkit/input"
	"github.com/smith-agent/smith/termkit/screen"
)

// Caps is what the terminal can do: probed at [Open], from the
// environment, then overridden by [Options].Override.
type Caps struct {
	// Profile is the colour profile: NO_COLOR (present and not empty)
	// means none; COLORTERM=truecolor or 24bit true colour; a TERM ending
	// in 256color 256; TERM=dumb none; otherwise 16.
	Profile screen.Profile
	// SyncOutput: the terminal reported mode 2026 (synchronized output).
	SyncOutput bool
	// Hyperlinks: the terminal is known to show OSC 8 links (kitty,
	// ghostty, WezTerm, iTerm2, foot, VTE 0.50+, Windows Terminal, VS
	// Code, tmux 3.4+).
	Hyperlinks bool
	// KittyKeyboard: the terminal answered the kitty keyboard query.
	KittyKeyboard bool
	// Focus: the terminal reported mode 1004 (focus events).
	Focus bool
	// BracketedPaste: pastes arrive bracketed (mode 2004); assumed unless
	// the terminal reported the mode unknown.
	BracketedPaste bool
	// GraphemeWidth: the terminal reported mode 2027 (it measures grapheme
	// clusters as one unit, as termkit does); Open enables it.
	GraphemeWidth bool
	// Clipboard: OSC 52 writes are sent (not on TERM=dumb or the Linux
	// console). Terminals give no acknowledgement.
	Clipboard bool
	// Version is the XTVERSION reply ("kitty(0.40.1)", "tmux 3.5a"), or
	// TERM_PROGRAM and its version when the terminal did not answer.
	Version string
	// Dark is whether the background is dark (from the OSC 11 reply); nil
	// when unknown.
	Dark *bool
	// Probed is false when the terminal answered nothing before the probe
	// deadline.
	Probed bool
}

// RendererOptions are the renderer options for these capabilities.
func (c Caps) RendererOptions() screen.RendererOptions {
	return screen.RendererOptions{Profile: c.Profile, SyncOutput: c.SyncOutput, Hyperlinks: c.Hyperlinks}
}

// envCaps is what the environment says before any reply.
func envCaps(env func(string) string) Caps {
	c := Caps{BracketedPaste: true, Clipboard: true}
	termName := env("TERM")
	switch {
	case env("NO_COLOR") != "":
		c.Profile = screen.NoColor
	case termName == "dumb":
		c.Profile = screen.NoColor
	case strings.EqualFold(env("COLORTERM"), "truecolor") || strings.EqualFold(env("COLORTERM"), "24bit"):
		c.Profile = screen.TrueColor
	case strings.HasSuffix(termName, "256color") || strings.Contains(termName, "kitty") || strings.Contains(termName, "ghostty") ||
		strings.Contains(termName, "wezterm") || strings.Contains(termName, "alacritty") || strings.HasPrefix(termName, "foot"):
		c.Profile = screen.ANSI256
	default:
		c.Profile = screen.ANSI16
	}
	if termName == "dumb" || termName == "linux" {
		c.Clipboard = false
	}
	if p := env("TERM_PROGRAM"); p != "" {
		c.Version = strings.TrimSpace(p + " " + env("TERM_PROGRAM_VERSION"))
	}
	c.Hyperlinks = hyperlinks(env, c.Version)
	return c
}

// hyperlinks reports whether the terminal is one known to show OSC 8.
func hyperlinks(env func(string) string, version string) bool {
	termName := env("TERM")
	v := strings.ToLower(version)
	for _, k := range []string{"kitty", "ghostty", "wezterm", "iterm", "foot", "vscode", "contour", "rio"} {
		if strings.Contains(v, k) || strings.Contains(termName, k) {
			return true
		}
	}
	if env("KITTY_WINDOW_ID") != "" || env("WT_SESSION") != "" {
		return true
	}
	if n, err := strconv.Atoi(env("VTE_VERSION")); err == nil && n >= 5000 {
		return true
	}
	if strings.HasPrefix(v, "tmux ") {
		return versionAtLeast(strings.TrimPrefix(v, "tmux "), 3, 4)
	}
	return false
}

// versionAtLeast reports whether a version such as "3.5a" is at least
// major.minor.
func versionAtLeast(v string, major, minor int) bool {
	maj, rest, _ := strings.Cut(v, ".")
	n, err := strconv.Atoi(maj)
	if err != nil {
		return false
	}
	if n != major {
		return n > major
	}
	m := 0
	for _, r := range rest {
		if r < '0' || r > '9' {
			break
		}
		m = m*10 + int(r-'0')
	}
	return m >= minor
}

// apply updates c with one probe reply; it reports whether ev was one.
func (c *Caps) apply(ev input.Event, env func(string) string) bool {
	switch ev := ev.(type) {
	case input.ModeReport:
		on := ev.Value == 1 || ev.Value == 2
		switch ev.Mode {
		case 2026:
			c.SyncOutput = on
		case 2027:
			c.GraphemeWidth = on
		case 1004:
			c.Focus = on
		case 2004:
			c.BracketedPaste = ev.Value != 0
		}
	case input.KittyFlags:
		c.KittyKeyboard = true
	case input.TermVersion:
		c.Version = ev.Text
		c.Hyperlinks = c.Hyperlinks || hyperlinks(env, ev.Text)
	case input.ColorReport:
		if ev.Slot == 11 {
			// Relative luminance on 16-bit channels.
			l := 0.2126*float64(ev.R) + 0.7152*float64(ev.G) + 0.0722*float64(ev.B)
			dark := l < 0.5*65535
			c.Dark = &dark
		}
	case input.PrimaryAttrs, input.CursorPos:
	default:
		return false
	}
	c.Probed = true
	return true
}
