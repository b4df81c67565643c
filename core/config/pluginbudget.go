package config

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/calico32/kdl-go"

	"github.com/smith-agent/smith/core/internal/bytesize"
	"github.com/smith-agent/smith/core/internal/ident"
	"github.com/smith-agent/smith/wasmhost"
)

// PluginBudget is a plugin block of smith.kdl: the budgets of one
// plugin's calls, which beat its manifest's hints and Smith's defaults:
//
//	plugin "shout" {
//	    timeout "2m"          // the wall time of one call (default 30s; 1s to 1h)
//	    fuel 10000000000      // its instruction budget (default 4294967296)
//	    memory "64MiB"        // its linear memory (default and most 256MiB)
//	    output "256KiB"       // a tool call's or command's output (default 64KiB; 1KiB to 1MiB)
//	    log "16KiB"           // the log bytes one call may write (default 64KiB; 1KiB to 1MiB)
//	}
//
// A project's block may only tighten what is in force below it.
type PluginBudget struct {
	// Name is the plugin's name.
	Name string
	// Source is where the block starts.
	Source  Source
	Timeout Setting[time.Duration]
	Fuel    Setting[int64]
	// Memory is in bytes, a multiple of 64 KiB.
	Memory Setting[int64]
	// Output and Log are in bytes.
	Output Setting[int64]
	Log    Setting[int64]
}

// The bounds of a plugin's budgets, and the defaults a user plugin gets
// when neither smith.kdl nor its manifest says otherwise: wasmhost's own.
const (
	DefaultPluginTimeout = wasmhost.DefaultTimeout
	MaxPluginTimeout     = time.Hour
	DefaultPluginFuel    = wasmhost.DefaultFuel
	MinPluginFuel        = 1 << 20
	MaxPluginFuel        = 1 << 40
	DefaultPluginMemory  = wasmhost.DefaultMemoryLimitPages * wasmhost.PageSize
	MinPluginMemory      = 1 << 20
	// A call's output and its log records are bounded alike.
	DefaultPluginOutput = 64 << 10
	DefaultPluginLog    = 64 << 10
	MinPluginBytes      = 1 << 10
	MaxPluginBytes      = 1 << 20
)

// pluginBudgetNodes are the budgets a plugin block may set.
var pluginBudgetNodes = []string{"timeout", "fuel", "memory", "output", "log"}

const pluginBudgetExample = `plugin "shout" { timeout "2m"; fuel 10000000000; memory "64MiB"; output "256KiB"; log "16KiB"; }`

// pluginBudget reads a plugin block.
func (r *reader) pluginBudget(n *kdl.Node) {
	if !r.shape(n, "plugin", 1, 1, nil, true, pluginBudgetExample) {
		return
	}
	nv := n.Arg(0)
	name := nv.String()
	if nv.Kind() != kdl.String || !validPluginName(name) {
		r.fail(nv.Location(), "plugin", show(nv), "is not a plugin name: lowercase letters, digits and '-' (smith plugin list shows the names)", pluginBudgetExample)
		return
	}
	path := "plugin." + name
	if !r.once(path, n, path) {
		return
	}
	b := &PluginBudget{Name: name, Source: r.at(n.Location())}
	if c := n.Children(); c != nil {
		for _, k := range c.Nodes {
			kp := path + "." + k.Name()
			if !slices.Contains(pluginBudgetNodes, k.Name()) {
				r.fail(k.Location(), kp, "", "is not part of a plugin block; it holds "+strings.Join(pluginBudgetNodes, ", ")+suggest(k.Name(), pluginBudgetNodes), pluginBudgetExample)
				continue
			}
			ex := pluginBudgetNodeExample(k.Name())
			if !r.shape(k, kp, 1, 1, nil, false, ex) || !r.once(kp, k, kp) {
				continue
			}
			v := k.Arg(0)
			src := r.at(v.Location())
			switch k.Name() {
			case "timeout":
				d, why := parseTimeout(v.String())
				switch {
				case v.Kind() != kdl.String && v.Kind() != kdl.Int:
					why = `is not a duration: write it as "90s", "2m" or "1h30m"`
				case why == "" && (d < time.Second || d > MaxPluginTimeout):
					why = fmt.Sprintf("is outside 1s to %s", MaxPluginTimeout)
				}
				if why != "" {
					r.fail(v.Location(), kp, show(v), why, ex)
					continue
				}
				b.Timeout = Setting[time.Duration]{Value: d, Source: src}
			case "fuel":
				f, ok := number(v)
				if !ok || f != float64(int64(f)) || f < MinPluginFuel || f > MaxPluginFuel {
					r.fail(v.Location(), kp, show(v), fmt.Sprintf("is not a whole number of fuel units from %d to %d (the default is %d)", MinPluginFuel, int64(MaxPluginFuel), int64(DefaultPluginFuel)), ex)
					continue
				}
				b.Fuel = Setting[int64]{Value: int64(f), Source: src}
			case "memory":
				m, why := parseMemory(v)
				if why != "" {
					r.fail(v.Location(), kp, show(v), why, ex)
					continue
				}
				b.Memory = Setting[int64]{Value: m, Source: src}
			case "output", "log":
				n, why := parseBytes(v)
				if why != "" {
					r.fail(v.Location(), kp, show(v), why, ex)
					continue
				}
				if k.Name() == "output" {
					b.Output = Setting[int64]{Value: n, Source: src}
				} else {
					b.Log = Setting[int64]{Value: n, Source: src}
				}
			}
		}
	}
	if r.out.cfg.PluginBudgets == nil {
		r.out.cfg.PluginBudgets = map[string]*PluginBudget{}
	}
	r.out.cfg.PluginBudgets[name] = b
}

func pluginBudgetNodeExample(name string) string {
	switch name {
	case "timeout":
		return `timeout "2m"`
	case "fuel":
		return `fuel 10000000000`
	case "output":
		return `output "256KiB"`
	case "log":
		return `log "16KiB"`
	}
	return `memory "64MiB"`
}

// parseBytes reads a size written "256KiB" or "1MiB", from 1 KiB to
// 1 MiB.
func parseBytes(v kdl.Value) (int64, string) {
	const why = `is not a size from 1KiB to 1MiB: write it as "256KiB" or "1MiB"`
	if v.Kind() != kdl.String {
		return 0, why
	}
	n, err := bytesize.Parse(v.String())
	if err != nil || n < MinPluginBytes || n > MaxPluginBytes {
		return 0, why
	}
	return n, ""
}

// parseMemory reads a size written "64MiB" or "512KiB": a multiple of
// 64 KiB from 1 MiB to 256 MiB.
func parseMemory(v kdl.Value) (int64, string) {
	const why = `is not a memory size from 1MiB to 256MiB in steps of 64KiB: write it as "64MiB" or "512KiB"`
	if v.Kind() != kdl.String {
		return 0, why
	}
	m, err := bytesize.Parse(v.String())
	if err != nil || m < MinPluginMemory || m > DefaultPluginMemory || m%wasmhost.PageSize != 0 {
		return 0, why
	}
	return m, ""
}

// validPluginName reports whether s is a plugin name as manifests spell
// it: lowercase letters, digits and '-', starting with a letter.
func validPluginName(s string) bool {
	return ident.Valid(s, 64, ident.Lower, ident.LowerAlnumDash)
}

// mergePluginBudgets applies a layer's plugin blocks field by field.
func mergePluginBudgets(cfg *Config, s Config) {
	for _, name := range slices.Sorted(maps.Keys(s.PluginBudgets)) {
		p := s.PluginBudgets[name]
		if cfg.PluginBudgets == nil {
			cfg.PluginBudgets = map[string]*PluginBudget{}
		}
		cur, ok := cfg.PluginBudgets[name]
		if !ok {
			cur = &PluginBudget{Name: name}
			cfg.PluginBudgets[name] = cur
		}
		cur.Source = p.Source
		if p.Timeout.IsSet() {
			cur.Timeout = p.Timeout
		}
		if p.Fuel.IsSet() {
			cur.Fuel = p.Fuel
		}
		if p.Memory.IsSet() {
			cur.Memory = p.Memory
		}
		if p.Output.IsSet() {
			cur.Output = p.Output
		}
		if p.Log.IsSet() {
			cur.Log = p.Log
		}
	}
}

// confinePluginBudgets drops what a project's plugin blocks would loosen:
// a budget above the one in force below (the user's, else the default),
// with a note.
func confinePluginBudgets(d *layerData, below *Config) {
	for _, name := range slices.Sorted(maps.Keys(d.cfg.PluginBudgets)) {
		p := d.cfg.PluginBudgets[name]
		var under PluginBudget
		if b := below.PluginBudgets[name]; b != nil {
			under = *b
		}
		loosen := func(key string, src Source, in string) {
			d.notes = append(d.notes, fmt.Sprintf("ignored plugin %q %s from the project's %s: a project may tighten a plugin's budgets, not loosen them (%s is in force); set it in your own smith.kdl",
				name, key, src, in))
		}
		if t, in := p.Timeout, under.Timeout.Value; t.IsSet() && t.Value > orDefault(in, DefaultPluginTimeout) {
			loosen("timeout", t.Source, orDefault(in, DefaultPluginTimeout).String())
			p.Timeout = Setting[time.Duration]{}
		}
		if f, in := p.Fuel, under.Fuel.Value; f.IsSet() && f.Value > orDefault(in, DefaultPluginFuel) {
			loosen("fuel", f.Source, strconv.FormatInt(orDefault(in, DefaultPluginFuel), 10))
			p.Fuel = Setting[int64]{}
		}
		if m, in := p.Memory, under.Memory.Value; m.IsSet() && m.Value > orDefault(in, DefaultPluginMemory) {
			loosen("memory", m.Source, bytesize.Format(orDefault(in, DefaultPluginMemory)))
			p.Memory = Setting[int64]{}
		}
		if o, in := p.Output, under.Output.Value; o.IsSet() && o.Value > orDefault(in, DefaultPluginOutput) {
			loosen("output", o.Source, bytesize.Format(orDefault(in, DefaultPluginOutput)))
			p.Output = Setting[int64]{}
		}
		if l, in := p.Log, under.Log.Value; l.IsSet() && l.Value > orDefault(in, DefaultPluginLog) {
			loosen("log", l.Source, bytesize.Format(orDefault(in, DefaultPluginLog)))
			p.Log = Setting[int64]{}
		}
	}
}

// orDefault is v, or def when v is zero.
func orDefault[T int64 | time.Duration](v, def T) T {
	if v == 0 {
		return def
	}
	return v
}

// pluginBudgetEntries lists the plugin blocks for smith config show.
func (c *Config) pluginBudgetEntries(add func(path, value string, s Source)) {
	for _, name := range slices.Sorted(maps.Keys(c.PluginBudgets)) {
		p := c.PluginBudgets[name]
		if p.Timeout.IsSet() {
			add("plugin."+name+".timeout", p.Timeout.Value.String(), p.Timeout.Source)
		}
		if p.Fuel.IsSet() {
			add("plugin."+name+".fuel", strconv.FormatInt(p.Fuel.Value, 10), p.Fuel.Source)
		}
		if p.Memory.IsSet() {
			add("plugin."+name+".memory", bytesize.Format(p.Memory.Value), p.Memory.Source)
		}
		if p.Output.IsSet() {
			add("plugin."+name+".output", bytesize.Format(p.Output.Value), p.Output.Source)
		}
		if p.Log.IsSet() {
			add("plugin."+name+".log", bytesize.Format(p.Log.Value), p.Log.Source)
		}
	}
}
