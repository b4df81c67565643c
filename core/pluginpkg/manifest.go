package pluginpkg

import (
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/calico32/kdl-go"

	"github.com/smith-agent/smith/core/internal/bytesize"
	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/core/internal/secret"
	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/wasmhost"
)

// ManifestFile is the manifest's name inside a package.
const ManifestFile = "plugin.kdl"

// Capabilities are the capabilities a manifest may request.
var Capabilities = pluginabi.Capabilities

// Manifest is a validated plugin.kdl.
type Manifest struct {
	// Name is the plugin's name: lowercase letters, digits and '-'.
	Name string `json:"name"`
	// Version is the plugin's own version, MAJOR.MINOR.PATCH[-PRE].
	Version string `json:"version"`
	// World is the smith:plugin world version; always plugin.WorldVersion.
	World string `json:"world"`
	// Artifact is the artifact's path relative to the package directory,
	// slash-separated.
	Artifact string `json:"artifact"`
	// Capabilities are the requested capabilities, sorted.
	Capabilities []string `json:"capabilities,omitempty"`
	// Network are the URL prefixes of the http capability.
	Network []string `json:"network,omitempty"`
	// Secrets are the registered secrets (by name) the http capability's
	// request headers may carry by reference, restored just before a
	// request is sent.
	Secrets []string `json:"secrets,omitempty"`
	// Timeout is the budget hint for one call; 0 is the host default.
	Timeout time.Duration `json:"timeout,omitempty"`
	// Stores are the secrets (by name) the secrets capability may store
	// and check, never read back: a credential-source plugin's tokens.
	Stores []string `json:"stores,omitempty"`
	// Memory is the hint for the plugin's linear memory in bytes, a
	// multiple of 64 KiB; 0 is the host default (256 MiB, also the most).
	Memory int64 `json:"memory,omitempty"`
}

// parser reads one manifest, collecting every error.
type parser struct {
	file string
	errs Errors
	seen map[string]kdl.Location
}

func (p *parser) fail(l kdl.Location, field, value, problem, fix string) {
	p.errs = append(p.errs, &Error{File: p.file, Line: l.Line, Col: l.Column, Field: field, Value: value, Problem: problem, Fix: fix})
}

// ParseManifest parses and validates src, the text of the manifest named
// file in messages. On any problem it returns [Errors], each naming its
// file:line:col, field and fix.
func ParseManifest(file string, src []byte) (Manifest, error) {
	p := &parser{file: file, seen: map[string]kdl.Location{}}
	if len(src) > MaxManifest {
		p.fail(kdl.Location{Line: 1, Column: 1}, "", "", fmt.Sprintf("is %d bytes, more than the %d a manifest may have", len(src), MaxManifest), "keep plugin.kdl to the fields of a manifest")
		return Manifest{}, p.errs
	}
	res := kdl.ParseStringWithDiagnostics(string(src), kdl.WithSourceName(file), kdl.WithVersion(kdl.Version2), kdl.WithDuplicateProperties(kdl.DupError))
	for _, d := range res.Diagnostics {
		if d.Severity == kdl.SeverityError {
			p.fail(d.Start, "", "", "is not valid KDL 2: "+d.Message, `write one field per line, strings in double quotes, such as name "shout"`)
		}
	}
	if len(p.errs) > 0 || res.Document == nil {
		return Manifest{}, p.errs
	}
	var m Manifest
	for _, n := range res.Document.Nodes {
		p.node(&m, n)
	}
	start := kdl.Location{Line: 1, Column: 1}
	for _, f := range []struct{ field, example string }{
		{"name", `name "shout"`}, {"version", `version "0.1.0"`},
		{"world", fmt.Sprintf("world %q", plugin.WorldVersion)}, {"artifact", `artifact "shout.wasm"`},
	} {
		if _, ok := p.seen[f.field]; !ok {
			p.fail(start, f.field, "", "is missing", "add "+f.example)
		}
	}
	if len(p.errs) > 0 {
		return Manifest{}, p.errs
	}
	slices.Sort(m.Capabilities)
	return m, nil
}

// node reads one top-level node into m.
func (p *parser) node(m *Manifest, n *kdl.Node) {
	field := n.Name()
	switch field {
	case "name", "version", "world", "artifact", "timeout", "memory":
		if prev, dup := p.seen[field]; dup {
			p.fail(n.Location(), field, "", fmt.Sprintf("is set twice (first at line %d)", prev.Line), "keep one")
			return
		}
		p.seen[field] = n.Location()
		v, ok := p.single(n, field)
		if !ok {
			return
		}
		p.scalar(m, n, field, v)
	case "capability":
		p.capability(m, n)
	default:
		p.fail(n.Location(), field, "", "is not a manifest field", "use only name, version, world, artifact, capability, timeout and memory")
	}
}

// examples are the fix of a field whose value is wrong.
var examples = map[string]string{
	"name":     `name "shout"`,
	"version":  `version "0.1.0"`,
	"world":    fmt.Sprintf("world %q", plugin.WorldVersion),
	"artifact": `artifact "shout.wasm"`,
	"timeout":  `timeout "10s"`,
	"memory":   `memory "64MiB"`,
}

// single returns n's one string argument, reporting any other shape.
func (p *parser) single(n *kdl.Node, field string) (kdl.Value, bool) {
	fix := "write it as " + examples[field]
	if !p.plain(n, field, fix) {
		return kdl.Value{}, false
	}
	if c := n.Children(); c != nil && len(c.Nodes) > 0 {
		p.fail(c.Nodes[0].Location(), field, "", "takes no { } block", fix)
		return kdl.Value{}, false
	}
	args := n.Arguments()
	if len(args) != 1 {
		p.fail(n.Location(), field, "", fmt.Sprintf("needs one value, got %d", len(args)), fix)
		return kdl.Value{}, false
	}
	if args[0].Kind() != kdl.String {
		p.fail(args[0].Location(), field, show(args[0]), "is not a string", fix)
		return kdl.Value{}, false
	}
	return args[0], true
}

// plain reports a type annotation or a property on n.
func (p *parser) plain(n *kdl.Node, field, fix string) bool {
	ok := true
	if ty, has := n.TypeAnnotation(); has {
		p.fail(n.Location(), field, "("+ty+")", "has a type annotation, which a manifest does not use", "remove it")
		ok = false
	}
	for i, kv := range n.PropertyEntries() {
		loc, _, _ := n.PropertyEntryKeyLocation(i)
		p.fail(loc, field, kv.Key+"=", "is a property, which "+field+" does not take", fix)
		ok = false
	}
	return ok
}

// scalar validates the string value v of field.
func (p *parser) scalar(m *Manifest, n *kdl.Node, field string, v kdl.Value) {
	s := v.String()
	q := strconv.Quote(s)
	at := v.Location()
	switch field {
	case "name":
		if problem, fix := checkName(s); problem != "" {
			p.fail(at, field, q, problem, fix)
			return
		}
		m.Name = s
	case "version":
		if !validVersion(s) {
			p.fail(at, field, q, "is not a version MAJOR.MINOR.PATCH (an optional -PRE of letters, digits, '.' or '-')", "such as "+examples[field])
			return
		}
		m.Version = s
	case "world":
		if s != plugin.WorldVersion {
			p.fail(at, field, q, fmt.Sprintf("is not the smith:plugin world this Smith serves (%s)", plugin.WorldVersion),
				fmt.Sprintf("rebuild the plugin against world %s and write %s", plugin.WorldVersion, examples[field]))
			return
		}
		m.World = s
	case "artifact":
		if problem := checkRel(s); problem != "" {
			p.fail(at, field, q, problem, "name a file inside the package directory, such as "+examples[field])
			return
		}
		m.Artifact = filepath.ToSlash(filepath.Clean(s))
	case "timeout":
		d, err := time.ParseDuration(s)
		switch {
		case err != nil:
			p.fail(at, field, q, "is not a duration", "such as "+examples[field])
		case d <= 0:
			p.fail(at, field, q, "is not positive", "such as "+examples[field])
		case d > wasmhost.DefaultTimeout:
			p.fail(at, field, q, fmt.Sprintf("is longer than the %s a call may take: a manifest hint may only tighten a budget", wasmhost.DefaultTimeout),
				fmt.Sprintf("use at most %q, or remove timeout", wasmhost.DefaultTimeout.String()))
		default:
			m.Timeout = d
		}
	case "memory":
		b, err := bytesize.Parse(s)
		max := int64(wasmhost.DefaultMemoryLimitPages) * wasmhost.PageSize
		switch {
		case err != nil:
			p.fail(at, field, q, err.Error(), "such as "+examples[field])
		case b > max:
			p.fail(at, field, q, fmt.Sprintf("is more than the %s a plugin may use: a manifest hint may only tighten a budget", bytesize.Format(max)),
				fmt.Sprintf("use at most %q, or remove memory", bytesize.Format(max)))
		case b < 1<<20 || b%wasmhost.PageSize != 0:
			p.fail(at, field, q, "is not a whole number of 64 KiB pages from 1 MiB", "such as "+examples[field])
		default:
			m.Memory = b
		}
	}
}

// capability reads `capability "NAME"`, with an allow list for http.
func (p *parser) capability(m *Manifest, n *kdl.Node) {
	const field = "capability"
	fix := `write one of capability "fs", "process", "log", "ui", "vcs", "state", "compose", "secrets" { store "toy-token"; } or "http" { allow "https://api.example.com/"; }`
	if !p.plain(n, field, fix) {
		return
	}
	args := n.Arguments()
	if len(args) != 1 || args[0].Kind() != kdl.String {
		p.fail(n.Location(), field, "", "needs one string value, the capability", fix)
		return
	}
	c := args[0].String()
	at := args[0].Location()
	if !slices.Contains(Capabilities, c) {
		p.fail(at, field, strconv.Quote(c), "is not a capability ("+strings.Join(Capabilities, ", ")+")", fix)
		return
	}
	if prev, dup := p.seen[field+":"+c]; dup {
		p.fail(at, field, strconv.Quote(c), fmt.Sprintf("is requested twice (first at line %d)", prev.Line), "keep one")
		return
	}
	p.seen[field+":"+c] = n.Location()
	m.Capabilities = append(m.Capabilities, c)
	kids := n.Children()
	if c == "secrets" {
		p.stores(m, n)
		return
	}
	if c != "http" {
		if kids != nil && len(kids.Nodes) > 0 {
			p.fail(kids.Nodes[0].Location(), field, strconv.Quote(c), "takes no { } block (only http and secrets have one)", "remove the block")
		}
		return
	}
	allowFix := `write allow "https://api.example.com/" inside the http block`
	for _, k := range kids.Nodes {
		if k.Name() == "secret" {
			p.httpSecret(m, k)
			continue
		}
		if k.Name() != "allow" {
			p.fail(k.Location(), "capability \"http\" "+k.Name(), "", "is not a field of the http capability (it holds allow and secret)", allowFix)
			continue
		}
		if !p.plain(k, "allow", allowFix) {
			continue
		}
		for _, a := range k.Arguments() {
			if a.Kind() != kdl.String {
				p.fail(a.Location(), "allow", show(a), "is not a string", allowFix)
				continue
			}
			u := a.String()
			if problem := checkPrefix(u); problem != "" {
				p.fail(a.Location(), "allow", strconv.Quote(u), problem, allowFix)
				continue
			}
			if !slices.Contains(m.Network, u) {
				m.Network = append(m.Network, u)
			}
		}
		if len(k.Arguments()) == 0 {
			p.fail(k.Location(), "allow", "", "needs at least one URL prefix", allowFix)
		}
	}
	if len(m.Network) == 0 && (kids == nil || len(kids.Nodes) == 0) {
		p.fail(n.Location(), field, `"http"`, "allows no URL, so the plugin could reach nothing", `add { allow "https://api.example.com/"; } or remove the capability`)
	}
}

// httpSecret reads `secret "NAME" ...` in the http block: the registered
// secrets whose references the plugin's request headers may carry.
func (p *parser) httpSecret(m *Manifest, k *kdl.Node) {
	p.secretNames(k, "secret", &m.Secrets, `write secret "GITHUB_TOKEN" inside the http block, naming a secret registered with smith secret add or smith.kdl`)
}

// stores reads the secrets capability's block: the names it may store.
func (p *parser) stores(m *Manifest, n *kdl.Node) {
	const fix = `write capability "secrets" { store "toy-token"; }, naming each secret the plugin stores`
	kids := n.Children()
	if kids != nil {
		for _, k := range kids.Nodes {
			if k.Name() != "store" {
				p.fail(k.Location(), "capability \"secrets\" "+k.Name(), "", "is not a field of the secrets capability (it holds store)", fix)
				continue
			}
			p.secretNames(k, "store", &m.Stores, fix)
		}
	}
	if len(m.Stores) == 0 {
		p.fail(n.Location(), "capability", `"secrets"`, "names no secret it may store, so the plugin could store nothing", fix)
	}
}

// secretNames reads node k's secret names into *into (each once).
func (p *parser) secretNames(k *kdl.Node, field string, into *[]string, fix string) {
	if !p.plain(k, field, fix) {
		return
	}
	if len(k.Arguments()) == 0 {
		p.fail(k.Location(), field, "", "needs at least one secret name", fix)
	}
	for _, a := range k.Arguments() {
		if a.Kind() != kdl.String {
			p.fail(a.Location(), field, show(a), "is not a string", fix)
			continue
		}
		name := a.String()
		if !secret.ValidName(name) {
			p.fail(a.Location(), field, strconv.Quote(name), "is not a secret name: a letter or '_', then letters, digits, '_', '.' or '-'", fix)
			continue
		}
		if !slices.Contains(*into, name) {
			*into = append(*into, name)
		}
	}
}

// checkName returns why name is not a plugin name and the fix, or "".
func checkName(name string) (problem, fix string) {
	const fix1 = "use lowercase letters, digits and '-', starting with a letter, such as name \"shout\""
	switch {
	case name == "smith" || strings.HasPrefix(name, "smith:") || strings.HasPrefix(name, "smith-"):
		return "is reserved for the plugins embedded in Smith (the name smith and the prefixes smith: and smith-)", "choose another name, such as name \"my-shout\""
	case name == "" || len(name) > 64:
		return "is not 1 to 64 characters", fix1
	case name[0] < 'a' || name[0] > 'z':
		return "does not start with a lowercase letter", fix1
	case strings.HasSuffix(name, "-"):
		return "ends with '-'", fix1
	}
	for _, c := range []byte(name) {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '-' {
			return fmt.Sprintf("holds %q", string(rune(c))), fix1
		}
	}
	return "", ""
}

// ValidName reports whether name is a plugin name a user's plugin may
// have: lowercase letters, digits and '-', starting with a letter, not
// reserved (smith, smith:…, smith-…).
func ValidName(name string) error {
	if problem, fix := checkName(name); problem != "" {
		return fmt.Errorf("plugin name %q %s; %s", name, problem, fix)
	}
	return nil
}

// validVersion reports whether v is MAJOR.MINOR.PATCH[-PRE].
func validVersion(v string) bool {
	core, pre, hasPre := strings.Cut(v, "-")
	parts := strings.Split(core, ".")
	if len(parts) != 3 || len(v) > 64 {
		return false
	}
	for _, n := range parts {
		if n == "" || (len(n) > 1 && n[0] == '0') || strings.Trim(n, "0123456789") != "" {
			return false
		}
	}
	if hasPre {
		if pre == "" || strings.Trim(pre, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-") != "" {
			return false
		}
	}
	return true
}

// checkRel returns why p is not a local relative path, or "".
func checkRel(p string) string {
	switch {
	case p == "":
		return "is empty"
	case filepath.IsAbs(p) || strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`):
		return "is an absolute path"
	case !filepath.IsLocal(filepath.FromSlash(p)):
		return "leaves the package directory"
	}
	return ""
}

// checkPrefix returns why u is not a network scope, or "".
func checkPrefix(u string) string {
	pu, err := url.Parse(u)
	switch {
	case err != nil:
		return "is not a URL"
	case pu.Scheme != "https" && pu.Scheme != "http":
		return "is not an http:// or https:// URL"
	case pu.Host == "" || pu.User != nil || pu.RawQuery != "" || pu.Fragment != "":
		return "is not a prefix scheme://host[:port][/path] (no user, query or fragment)"
	}
	return ""
}

// show renders a value as written.
func show(v kdl.Value) string {
	if lit, ok := v.Literal(); ok {
		return lit
	}
	switch v.Kind() {
	case kdl.Int:
		return strconv.Itoa(v.Int())
	case kdl.Bool:
		return strconv.FormatBool(v.Bool())
	case kdl.Null:
		return "#null"
	}
	return v.String()
}
