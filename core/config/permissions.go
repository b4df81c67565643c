package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/calico32/kdl-go"
)

// The options of the permission policy.
const (
	// KeyPermissionMode is the permission mode: "auto" (the default: the
	// sandbox is the boundary, every call runs), "ask" (calls that may
	// change something need approval) or "read-only" (only the reading
	// tools run). In smith.kdl it is the permissions block's mode.
	KeyPermissionMode = "permission-mode"
	// KeyYes approves, for one run, every call the ask mode would ask
	// about; deny rules still refuse.
	KeyYes = "yes"
)

// DefaultPermissionMode is the permission mode when none is configured.
const DefaultPermissionMode = "auto"

// permissionModes are the modes, loosest first.
var permissionModes = []string{"auto", "ask", "read-only"}

// Permissions is the permissions block of smith.kdl, with the
// --permission-mode and --yes flags: the policy the permissions plugin
// applies to every tool call before it runs.
//
//	permissions {
//	    mode "ask"                          // auto (the default), ask or read-only
//	    allow "bash" "git status*" "go test*"
//	    allow "write" "notes/*"
//	    deny "write" "*.env" "*.pem"        // refuses in every mode, --yes or not
//	    deny "*" "secrets/*"                // "*" is every tool
//	}
//
// A rule names a tool and glob patterns matched against a call's subject
// (bash's command line, another tool's path); without patterns it is
// every call of the tool. A project's smith.kdl may add deny rules and
// tighten the mode, never allow: a repository must not approve its own
// commands. The zero value is the default policy. It is immutable after
// [Load].
type Permissions struct {
	// Mode is the permission mode; unset is [DefaultPermissionMode].
	Mode Setting[string]
	// Yes approves what mode ask would ask about (flag or environment
	// only).
	Yes Setting[bool]
	// Rules are the allow and deny rules, in the order read (user, then
	// project).
	Rules []PermissionRule
}

// PermissionRule is one allow or deny rule.
type PermissionRule struct {
	// Allow is true for an allow rule, false for a deny rule.
	Allow bool
	// Tool is the tool's name, or "*" for every tool.
	Tool string
	// Patterns are globs (* any text, ? one character) matched against
	// the call's subject; none matches every call.
	Patterns []string
	Source   Source
}

// PermissionMode returns the permission mode in force.
func (c *Config) PermissionMode() string {
	if c.Permissions.Mode.IsSet() {
		return c.Permissions.Mode.Value
	}
	return DefaultPermissionMode
}

// String writes the rule as smith.kdl spells it: deny "write" "*.env".
func (r PermissionRule) String() string {
	var b strings.Builder
	if r.Allow {
		b.WriteString("allow ")
	} else {
		b.WriteString("deny ")
	}
	b.WriteString(strconv.Quote(r.Tool))
	for _, p := range r.Patterns {
		b.WriteString(" " + strconv.Quote(p))
	}
	return b.String()
}

// parsePermissionMode checks a mode; the problem is "" when it is valid.
func parsePermissionMode(s string) (string, string) {
	m := strings.ToLower(strings.TrimSpace(s))
	if slices.Contains(permissionModes, m) {
		return m, ""
	}
	return "", `is not a permission mode: use "auto", "ask" or "read-only"`
}

// setPermissionOption sets --permission-mode or --yes from the
// environment or a flag; ok is false when o is neither.
func setPermissionOption(cfg *Config, o Option, v string, src Source) (problem string, ok bool) {
	switch o.Flag {
	case KeyPermissionMode:
		m, why := parsePermissionMode(v)
		if why == "" {
			cfg.Permissions.Mode = Setting[string]{Value: m, Source: src}
		}
		return why, true
	case KeyYes:
		b, err := strconv.ParseBool(v)
		if err != nil {
			return "is not a boolean: use 1 or 0, true or false", true
		}
		cfg.Permissions.Yes = Setting[bool]{Value: b, Source: src}
		return "", true
	}
	return "", false
}

// permissionNodes are the nodes a permissions block may hold.
var permissionNodes = []string{"mode", "allow", "deny"}

const permissionsExample = `permissions { mode "ask"; allow "bash" "git status*"; deny "write" "*.env"; }`

// permissions reads the permissions block.
func (r *reader) permissions(n *kdl.Node) {
	if !r.shape(n, "permissions", 0, 0, nil, true, permissionsExample) || !r.once("permissions", n, "permissions") {
		return
	}
	c := n.Children()
	if c == nil {
		return
	}
	out := &r.out.cfg.Permissions
	for _, k := range c.Nodes {
		path := "permissions." + k.Name()
		switch k.Name() {
		case "mode":
			const ex = `permissions { mode "ask"; }`
			if !r.shape(k, path, 1, 1, nil, false, ex) || !r.once(path, k, path) {
				continue
			}
			s, ok := r.str(k.Arg(0), path, ex)
			if !ok {
				continue
			}
			m, why := parsePermissionMode(s)
			if why != "" {
				r.fail(k.Arg(0).Location(), path, strconv.Quote(s), why, ex)
				continue
			}
			out.Mode = Setting[string]{Value: m, Source: r.at(k.Arg(0).Location())}
		case "allow", "deny":
			ex := `permissions { ` + k.Name() + ` "bash" "git status*"; }`
			if !r.shape(k, path, 1, -1, nil, false, ex) {
				continue
			}
			rule := PermissionRule{Allow: k.Name() == "allow", Source: r.at(k.Location())}
			ok := true
			for i, v := range k.Arguments() {
				s, good := r.str(v, path, ex)
				if !good {
					ok = false
					break
				}
				if strings.TrimSpace(s) == "" {
					what := "the tool's name (or \"*\" for every tool)"
					if i > 0 {
						what = "a pattern (or leave the patterns out to match every call)"
					}
					r.fail(v.Location(), path, `""`, "is empty; give "+what, ex)
					ok = false
					break
				}
				if i == 0 {
					rule.Tool = s
				} else {
					rule.Patterns = append(rule.Patterns, s)
				}
			}
			if ok {
				out.Rules = append(out.Rules, rule)
			}
		default:
			r.fail(k.Location(), path, "", "is not part of the permissions block; it holds "+strings.Join(permissionNodes, ", ")+suggest(k.Name(), permissionNodes), permissionsExample)
		}
	}
}

// confinePermissions drops what a project's permissions may not do: allow
// a call, or loosen the mode in force below it.
func confinePermissions(d *layerData, below *Config) {
	p := &d.cfg.Permissions
	if p.Mode.IsSet() && slices.Index(permissionModes, p.Mode.Value) < slices.Index(permissionModes, below.PermissionMode()) {
		d.notes = append(d.notes, fmt.Sprintf("ignored permissions mode %q from the project's %s: a project may tighten the permission mode, not loosen it (%s is in force); set it in your own smith.kdl or pass --permission-mode %s",
			p.Mode.Value, p.Mode.Source, below.PermissionMode(), p.Mode.Value))
		p.Mode = Setting[string]{}
	}
	kept := p.Rules[:0]
	for _, r := range p.Rules {
		if r.Allow {
			d.notes = append(d.notes, fmt.Sprintf("ignored %s from the project's %s: a project may deny calls, not allow them; add the rule to the permissions block of your own smith.kdl", r, r.Source))
			continue
		}
		kept = append(kept, r)
	}
	p.Rules = kept
}

// mergePermissions lays a higher layer's permissions over cfg's; rules add
// up.
func mergePermissions(cfg *Config, s Config) {
	if s.Permissions.Mode.IsSet() {
		cfg.Permissions.Mode = s.Permissions.Mode
	}
	if s.Permissions.Yes.IsSet() {
		cfg.Permissions.Yes = s.Permissions.Yes
	}
	cfg.Permissions.Rules = append(cfg.Permissions.Rules, s.Permissions.Rules...)
}

// permissionEntries lists the permission settings, the default mode
// included, for [Config.Entries].
func (c *Config) permissionEntries(add func(path, value string, s Source)) {
	add("permissions.mode", c.PermissionMode(), c.Permissions.Mode.Source)
	if c.Permissions.Yes.IsSet() {
		add(KeyYes, strconv.FormatBool(c.Permissions.Yes.Value), c.Permissions.Yes.Source)
	}
	for _, r := range c.Permissions.Rules {
		kind := "permissions.deny"
		if r.Allow {
			kind = "permissions.allow"
		}
		add(kind, strings.TrimPrefix(strings.TrimPrefix(r.String(), "allow "), "deny "), r.Source)
	}
}
