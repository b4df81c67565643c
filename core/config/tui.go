package config

import (
	"maps"
	"strings"

	"github.com/calico32/kdl-go"
)

// UI is the interactive mode's configuration: the tui block of smith.kdl.
//
//	tui {
//	    mouse #false
//	    keys { follow-up "ctrl+enter"; search "ctrl+s" }
//	    theme { accent "#ff8800"; user "bold"; error "red bold" }
//	    terminal { sync-output #false; hyperlinks #true }
//	}
//
// The reader checks the block's shape; what the names and values mean
// (key actions and key names, theme roles and styles, terminal
// capabilities) is the interactive mode's to check, and its errors name
// each Setting's Source.
type UI struct {
	// Mouse turns Smith's mouse handling (wheel scrolling, drag to copy)
	// on or off; unset is on.
	Mouse Setting[bool]
	// Keys binds an action to keys ("ctrl+s", or several comma-separated).
	Keys map[string]Setting[string]
	// Theme styles a role ("bold #ff8800", "red on #202020", "dim italic").
	Theme map[string]Setting[string]
	// Terminal overrides a probed terminal capability ("#true", "#false",
	// or a value such as "256" for colors).
	Terminal map[string]Setting[string]
}

// tuiSections are the nodes a tui block may hold.
var tuiSections = []string{"mouse", "keys", "theme", "terminal"}

// tui reads the tui block.
func (r *reader) tui(n *kdl.Node) {
	const ex = `tui { keys { search "ctrl+s" } }`
	if !r.shape(n, "tui", 0, 0, nil, true, ex) || !r.once("tui", n, "tui") {
		return
	}
	c := n.Children()
	if c == nil {
		return
	}
	ui := &r.out.cfg.UI
	for _, k := range c.Nodes {
		switch k.Name() {
		case "mouse":
			const mex = `mouse #false`
			if !r.shape(k, "tui.mouse", 1, 1, nil, false, mex) || !r.once("tui.mouse", k, "tui.mouse") {
				continue
			}
			v := k.Arg(0)
			if v.Kind() != kdl.Bool {
				r.fail(v.Location(), "tui.mouse", show(v), "is not #true or #false", mex)
				continue
			}
			ui.Mouse = Setting[bool]{Value: v.Bool(), Source: r.at(v.Location())}
		case "keys":
			ui.Keys = r.tuiTable(k, "tui.keys", `keys { search "ctrl+s" }`, ui.Keys, false)
		case "theme":
			ui.Theme = r.tuiTable(k, "tui.theme", `theme { accent "#ff8800" }`, ui.Theme, false)
		case "terminal":
			ui.Terminal = r.tuiTable(k, "tui.terminal", `terminal { sync-output #false }`, ui.Terminal, true)
		default:
			r.fail(k.Location(), "tui."+k.Name(), "", "is not part of the tui block; it holds "+strings.Join(tuiSections, ", ")+suggest(k.Name(), tuiSections), ex)
		}
	}
}

// tuiTable reads a block of NAME "VALUE" nodes into m; bools are allowed
// (written "#true"/"#false") when bools is set.
func (r *reader) tuiTable(n *kdl.Node, path, ex string, m map[string]Setting[string], bools bool) map[string]Setting[string] {
	if !r.shape(n, path, 0, 0, nil, true, ex) || !r.once(path, n, path) {
		return m
	}
	if m == nil {
		m = map[string]Setting[string]{}
	}
	c := n.Children()
	if c == nil {
		return m
	}
	for _, k := range c.Nodes {
		p := path + "." + k.Name()
		if !r.shape(k, p, 1, 1, nil, false, ex) || !r.once(p, k, p) {
			continue
		}
		v := k.Arg(0)
		s := ""
		switch {
		case bools && v.Kind() == kdl.Bool:
			s = show(v)
		case v.Kind() == kdl.String:
			s = v.String()
		default:
			want := "is not a string"
			if bools {
				want = "is not a string, #true or #false"
			}
			r.fail(v.Location(), p, show(v), want, ex)
			continue
		}
		m[k.Name()] = Setting[string]{Value: s, Source: r.at(v.Location())}
	}
	return m
}

// mergeUI lays the UI settings of a higher layer over cfg's.
func mergeUI(cfg *UI, s UI) {
	if s.Mouse.IsSet() {
		cfg.Mouse = s.Mouse
	}
	for _, p := range []struct{ dst, src *map[string]Setting[string] }{{&cfg.Keys, &s.Keys}, {&cfg.Theme, &s.Theme}, {&cfg.Terminal, &s.Terminal}} {
		if len(*p.src) == 0 {
			continue
		}
		if *p.dst == nil {
			*p.dst = map[string]Setting[string]{}
		}
		maps.Copy(*p.dst, *p.src)
	}
}
