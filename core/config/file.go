package config

import (
	"bytes"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/calico32/kdl-go"
	"github.com/smith-agent/smith/core/auth"
	"github.com/smith-agent/smith/core/catalog"
)

// maxTokens bounds max-output-tokens.
const maxTokens = 10_000_000

// topNodes are the nodes a smith.kdl may hold at its top level.
var topNodes = []string{KeyModel, KeyThinking, KeyMaxOutputTokens, "provider", "alias", "group", "model-info", "trusted-project"}

// providerNodes are the nodes a provider block may hold.
var providerNodes = []string{"api", "base-url", "accounts", "credential", "quirks"}

// layerData is what one file (or the env and flag layers) sets.
type layerData struct {
	cfg     Config
	trusted []Setting[string]
	// notes are diagnostics about the file that are not errors.
	notes []string
}

// reader reads one KDL document into a layerData, collecting every error.
type reader struct {
	layer   Layer
	file    string
	name    string // a plugin's name, for plugin layers
	errs    Errors
	secrets []string
	out     layerData
	// first remembers where each singleton node was first set.
	first map[string]kdl.Location
	// date is the file's modification date (YYYY-MM-DD), the provenance
	// date of the models it describes.
	date string
}

// literalKeys finds the values written after key= in src (quoted,
// raw or bare, terminated or not), so that no diagnostic of the KDL parser
// can echo a literal credential, even from a file that does not parse.
func literalKeys(src []byte) []string {
	var out []string
	for i := 0; i < len(src); i++ {
		j, ok := afterKeyEquals(src, i)
		if !ok {
			continue
		}
		if v := valueAt(src, j); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// afterKeyEquals reports whether src holds "key", optional blanks, '='
// and optional blanks at i, and returns the index after them.
func afterKeyEquals(src []byte, i int) (int, bool) {
	if !bytes.HasPrefix(src[i:], []byte("key")) {
		return 0, false
	}
	j := skipBlanks(src, i+3)
	if j >= len(src) || src[j] != '=' {
		return 0, false
	}
	return skipBlanks(src, j+1), true
}

func skipBlanks(src []byte, j int) int {
	for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	return j
}

// valueAt returns the text of the value starting at src[j]: a raw
// string's content up to its closing quote and hashes, a quoted string's
// content up to its closing quote or the end of the line, or a bare word.
func valueAt(src []byte, j int) string {
	if j >= len(src) {
		return ""
	}
	rest := src[j:]
	switch {
	case rest[0] == '#':
		h := 0
		for h < len(rest) && rest[h] == '#' {
			h++
		}
		if h >= len(rest) || rest[h] != '"' {
			return ""
		}
		body := rest[h+1:]
		end := bytes.Index(body, append([]byte{'"'}, bytes.Repeat([]byte{'#'}, h)...))
		if end < 0 {
			end = len(body)
		}
		return string(body[:end])
	case rest[0] == '"':
		body := rest[1:]
		end := 0
		for end < len(body) && body[end] != '"' && body[end] != '\n' {
			if body[end] == '\\' {
				end++
			}
			end++
		}
		return string(body[:min(end, len(body))])
	}
	end := 0
	for end < len(rest) && !bytes.ContainsRune([]byte(" \t\r\n;{}\"="), rune(rest[end])) {
		end++
	}
	return string(rest[:end])
}

// parseDocument reads src, the text of a configuration file (or a plugin's
// contribution) of layer l, named file in messages.
func parseDocument(l Layer, file, name string, src []byte, date string) (layerData, Errors) {
	r := &reader{layer: l, file: file, name: name, first: map[string]kdl.Location{}, date: date}
	r.secrets = literalKeys(src)
	res := kdl.ParseStringWithDiagnostics(string(src), kdl.WithSourceName(file), kdl.WithVersion(kdl.Version2), kdl.WithDuplicateProperties(kdl.DupError))
	for _, d := range res.Diagnostics {
		if d.Severity != kdl.SeverityError {
			continue
		}
		r.errs = append(r.errs, &Error{Source: r.at(d.Start), Value: r.near(src, d.Start.Line), Problem: "is not valid KDL 2: " + r.scrub(d.Message),
			Example: `model "anthropic/claude-sonnet-4-5" (strings in double quotes, one node per line, blocks in { })`})
	}
	if len(r.errs) > 0 || res.Document == nil {
		return layerData{}, r.errs
	}
	for _, n := range res.Document.Nodes {
		r.top(n)
	}
	return r.out, r.errs
}

// near quotes line n of src for a syntax error, or "" when the line is
// out of range, too long, or could hold a credential.
func (r *reader) near(src []byte, n int) string {
	lines := strings.Split(string(src), "\n")
	if n < 1 || n > len(lines) {
		return ""
	}
	l := strings.TrimSpace(lines[n-1])
	if l == "" || len(l) > 80 || strings.Contains(l, "key") {
		return ""
	}
	return "near " + strconv.Quote(r.scrub(l))
}

// scrub removes every literal credential of the source from msg.
func (r *reader) scrub(msg string) string {
	for _, s := range r.secrets {
		msg = strings.ReplaceAll(msg, s, "[redacted]")
	}
	return msg
}

func (r *reader) at(l kdl.Location) Source {
	return Source{Layer: r.layer, File: r.file, Line: l.Line, Col: l.Column, Name: r.name}
}

func (r *reader) fail(l kdl.Location, path, value, problem, example string) {
	r.errs = append(r.errs, &Error{Source: r.at(l), Path: path, Value: r.scrub(value), Problem: r.scrub(problem), Example: example})
}

// show renders a value as written in KDL.
func show(v kdl.Value) string {
	switch v.Kind() {
	case kdl.String:
		return strconv.Quote(v.String())
	case kdl.Bool:
		if v.Bool() {
			return "#true"
		}
		return "#false"
	case kdl.Null:
		return "#null"
	case kdl.Int:
		return strconv.Itoa(v.Int())
	}
	if lit, ok := v.Literal(); ok {
		return lit
	}
	return v.String()
}

// shape checks that n has exactly the arguments and properties allowed,
// no children unless kids, and no type annotations. It reports each
// violation and returns whether n is usable.
func (r *reader) shape(n *kdl.Node, path string, minArgs, maxArgs int, props []string, kids bool, example string) bool {
	ok := true
	if ty, has := n.TypeAnnotation(); has {
		r.fail(n.Location(), path, "("+ty+")", "has a type annotation, which smith.kdl does not use; remove it", example)
		ok = false
	}
	args := n.Arguments()
	switch {
	case len(args) < minArgs:
		r.fail(n.Location(), path, "", fmt.Sprintf("needs %s, got %d", count(minArgs, maxArgs, "value"), len(args)), example)
		ok = false
	case maxArgs >= 0 && len(args) > maxArgs:
		r.fail(args[maxArgs].Location(), path, show(args[maxArgs]), fmt.Sprintf("is one value too many: %s takes %s", n.Name(), count(minArgs, maxArgs, "value")), example)
		ok = false
	}
	for _, a := range args {
		if ty, has := a.TypeAnnotation(); has {
			r.fail(a.Location(), path, "("+ty+")", "has a type annotation, which smith.kdl does not use; remove it", example)
			ok = false
		}
	}
	for i, kv := range n.PropertyEntries() {
		if !slices.Contains(props, kv.Key) {
			loc, _, _ := n.PropertyEntryKeyLocation(i)
			known := "takes no properties"
			if len(props) > 0 {
				known = "takes the properties " + strings.Join(props, ", ")
			}
			r.fail(loc, path, kv.Key+"=", fmt.Sprintf("is not a property of %s, which %s%s", n.Name(), known, suggest(kv.Key, props)), example)
			ok = false
		}
	}
	if c := n.Children(); !kids && c != nil && len(c.Nodes) > 0 {
		r.fail(c.Nodes[0].Location(), path, "", fmt.Sprintf("%s takes no { } block", n.Name()), example)
		ok = false
	}
	return ok
}

func count(lo, hi int, what string) string {
	switch {
	case lo == hi:
		if lo == 1 {
			return "one " + what
		}
		return fmt.Sprintf("%d %ss", lo, what)
	case hi < 0:
		return fmt.Sprintf("at least %d %ss", lo, what)
	}
	return fmt.Sprintf("%d to %d %ss", lo, hi, what)
}

// str returns v's string, reporting a value of another kind.
func (r *reader) str(v kdl.Value, path, example string) (string, bool) {
	if v.Kind() != kdl.String {
		r.fail(v.Location(), path, show(v), "is not a string", example)
		return "", false
	}
	return v.String(), true
}

// once reports a singleton node set twice in one file.
func (r *reader) once(key string, n *kdl.Node, path string) bool {
	if prev, seen := r.first[key]; seen {
		r.fail(n.Location(), path, "", fmt.Sprintf("is set twice in this file (first at line %d); keep one", prev.Line), "")
		return false
	}
	r.first[key] = n.Location()
	return true
}

func (r *reader) top(n *kdl.Node) {
	name := n.Name()
	switch name {
	case KeyModel:
		const ex = `model "anthropic/claude-sonnet-4-5"`
		if r.shape(n, name, 1, 1, nil, false, ex) && r.once(name, n, name) {
			if s, ok := r.str(n.Arg(0), name, ex); ok {
				if strings.TrimSpace(s) == "" {
					r.fail(n.Arg(0).Location(), name, `""`, "is empty", ex)
					return
				}
				r.out.cfg.Model = Setting[string]{Value: s, Source: r.at(n.Arg(0).Location())}
			}
		}
	case KeyThinking:
		const ex = `thinking "medium"`
		if r.shape(n, name, 1, 1, nil, false, ex) && r.once(name, n, name) {
			if s, ok := r.str(n.Arg(0), name, ex); ok {
				l, err := catalog.ParseLevel(s)
				if err != nil {
					r.fail(n.Arg(0).Location(), name, strconv.Quote(s), "is not a thinking level: use off, minimal, low, medium, high or xhigh", ex)
					return
				}
				r.out.cfg.Thinking = Setting[catalog.Level]{Value: l, Source: r.at(n.Arg(0).Location())}
			}
		}
	case KeyMaxOutputTokens:
		const ex = `max-output-tokens 8192`
		if r.shape(n, name, 1, 1, nil, false, ex) && r.once(name, n, name) {
			v := n.Arg(0)
			if v.Kind() != kdl.Int || v.Int() < 1 || v.Int() > maxTokens {
				r.fail(v.Location(), name, show(v), fmt.Sprintf("is not a whole number of tokens from 1 to %d", maxTokens), ex)
				return
			}
			r.out.cfg.MaxOutputTokens = Setting[int]{Value: v.Int(), Source: r.at(v.Location())}
		}
	case "trusted-project":
		r.trusted(n)
	case "alias":
		r.alias(n)
	case "group":
		r.group(n)
	case "provider":
		r.provider(n)
	case "model-info":
		r.modelInfo(n)
	default:
		r.fail(n.Location(), name, "", "is not a configuration node; known nodes: "+strings.Join(topNodes, ", ")+suggest(name, topNodes), `model "anthropic/claude-sonnet-4-5"`)
	}
}

func (r *reader) trusted(n *kdl.Node) {
	const ex = `trusted-project "/home/me/src/app"`
	if !r.shape(n, "trusted-project", 1, 1, nil, false, ex) {
		return
	}
	if r.layer != LayerUser {
		r.fail(n.Location(), "trusted-project", "", "is read only from your own smith.kdl, never from a project's or a plugin's; move it there", ex)
		return
	}
	s, ok := r.str(n.Arg(0), "trusted-project", ex)
	if !ok {
		return
	}
	if !filepath.IsAbs(s) {
		r.fail(n.Arg(0).Location(), "trusted-project", strconv.Quote(s), "is not an absolute path", ex)
		return
	}
	r.out.trusted = append(r.out.trusted, Setting[string]{Value: filepath.Clean(s), Source: r.at(n.Arg(0).Location())})
}

// validName reports whether s can name an alias, group, provider or
// account: letters, digits, '.', '_' and '-', starting with a letter or
// digit, at most 64 bytes.
func validName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := range len(s) {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case (c == '.' || c == '_' || c == '-') && i > 0:
		default:
			return false
		}
	}
	return true
}

// nameArg reads argument 0 of n as a name.
func (r *reader) nameArg(n *kdl.Node, what, ex string) (string, bool) {
	s, ok := r.str(n.Arg(0), what, ex)
	if !ok {
		return "", false
	}
	if !validName(s) {
		r.fail(n.Arg(0).Location(), what, strconv.Quote(s), "is not a valid name: use letters, digits, '.', '_' and '-' (no '/' or '@'), at most 64 bytes", ex)
		return "", false
	}
	return s, true
}

// modelRef checks a model name an alias or group points at.
func (r *reader) modelRef(v kdl.Value, path, ex string) (string, bool) {
	s, ok := r.str(v, path, ex)
	if !ok {
		return "", false
	}
	if strings.TrimSpace(s) == "" || strings.ContainsAny(s, " \t\n") {
		r.fail(v.Location(), path, strconv.Quote(s), "is not a model name: write PROVIDER/MODEL, a model name, an alias or a group, without spaces", ex)
		return "", false
	}
	return s, true
}

func (r *reader) alias(n *kdl.Node) {
	const ex = `alias "fast" "anthropic/claude-haiku-4-5"`
	if !r.shape(n, "alias", 2, 2, nil, false, ex) {
		return
	}
	name, ok := r.nameArg(n, "alias", ex)
	if !ok {
		return
	}
	path := "alias." + name
	if !r.once(path, n, path) {
		return
	}
	to, ok := r.modelRef(n.Arg(1), path, ex)
	if !ok {
		return
	}
	if r.out.cfg.Aliases == nil {
		r.out.cfg.Aliases = map[string]Setting[string]{}
	}
	r.out.cfg.Aliases[name] = Setting[string]{Value: to, Source: r.at(n.Location())}
}

func (r *reader) group(n *kdl.Node) {
	const ex = `group "steady" "anthropic/claude-sonnet-4-5" "openai/gpt-5"`
	if !r.shape(n, "group", 2, -1, nil, false, ex) {
		return
	}
	name, ok := r.nameArg(n, "group", ex)
	if !ok {
		return
	}
	path := "group." + name
	if !r.once(path, n, path) {
		return
	}
	var members []string
	for _, v := range n.Arguments()[1:] {
		m, ok := r.modelRef(v, path, ex)
		if !ok {
			return
		}
		if slices.Contains(members, m) {
			r.fail(v.Location(), path, strconv.Quote(m), "is listed twice; list each model once, in failover order", ex)
			return
		}
		members = append(members, m)
	}
	if r.out.cfg.Groups == nil {
		r.out.cfg.Groups = map[string]Setting[[]string]{}
	}
	r.out.cfg.Groups[name] = Setting[[]string]{Value: members, Source: r.at(n.Location())}
}

func (r *reader) provider(n *kdl.Node) {
	const ex = `provider "anthropic" { base-url "https://gateway.example/anthropic" }`
	if !r.shape(n, "provider", 1, 1, nil, true, ex) {
		return
	}
	name, ok := r.nameArg(n, "provider", ex)
	if !ok {
		return
	}
	path := "provider." + name
	if !r.once(path, n, path) {
		return
	}
	p := &Provider{Name: name, Source: r.at(n.Location())}
	if c := n.Children(); c != nil {
		for _, k := range c.Nodes {
			r.providerField(p, k, path)
		}
	}
	if r.out.cfg.Providers == nil {
		r.out.cfg.Providers = map[string]*Provider{}
	}
	r.out.cfg.Providers[name] = p
}

func (r *reader) providerField(p *Provider, n *kdl.Node, parent string) {
	name := n.Name()
	path := parent + "." + name
	switch name {
	case "api":
		const ex = `api "openai-compatible"`
		if r.shape(n, path, 1, 1, nil, false, ex) && r.once(path, n, path) {
			if s, ok := r.str(n.Arg(0), path, ex); ok {
				if !validName(s) {
					r.fail(n.Arg(0).Location(), path, strconv.Quote(s), "is not a provider name of the codec plugin", ex)
					return
				}
				p.API = Setting[string]{Value: s, Source: r.at(n.Arg(0).Location())}
			}
		}
	case "base-url":
		const ex = `base-url "https://gateway.example/v1"`
		if r.shape(n, path, 1, 1, nil, false, ex) && r.once(path, n, path) {
			if s, ok := r.str(n.Arg(0), path, ex); ok {
				if err := checkURL(s); err != "" {
					r.fail(n.Arg(0).Location(), path, strconv.Quote(redactURL(s)), err, ex)
					return
				}
				p.BaseURL = Setting[string]{Value: s, Source: r.at(n.Arg(0).Location())}
			}
		}
	case "accounts":
		const ex = `accounts "work" "personal"`
		if r.shape(n, path, 1, -1, nil, false, ex) && r.once(path, n, path) {
			var accts []string
			for _, v := range n.Arguments() {
				s, ok := r.str(v, path, ex)
				if !ok {
					return
				}
				if !validName(s) || slices.Contains(accts, s) {
					r.fail(v.Location(), path, strconv.Quote(s), "is not a new account name (letters, digits, '.', '_', '-'; each once)", ex)
					return
				}
				accts = append(accts, s)
			}
			p.Accounts = Setting[[]string]{Value: accts, Source: r.at(n.Location())}
		}
	case "credential":
		r.credential(p, n, path)
	case "quirks":
		r.quirks(p, n, path)
	default:
		r.fail(n.Location(), path, "", "is not a provider setting; known: "+strings.Join(providerNodes, ", ")+suggest(name, providerNodes), `base-url "https://gateway.example/v1"`)
	}
}

// checkURL returns why s is not a usable base URL, or "".
func checkURL(s string) string {
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return "is not a URL"
	case u.Scheme != "http" && u.Scheme != "https":
		return "is not an http:// or https:// URL"
	case u.Host == "":
		return "has no host"
	case u.RawQuery != "" || u.Fragment != "":
		return "has a query or fragment; give only the base the request paths are joined to"
	}
	return ""
}

// redactURL hides a URL's user information, which may hold a password.
func redactURL(s string) string {
	if !strings.Contains(s, "@") {
		return s
	}
	u, err := url.Parse(s)
	if err != nil {
		return "[a URL with user information, redacted]"
	}
	if u.User == nil {
		return s
	}
	return u.Scheme + "://[redacted]@" + u.Host + u.EscapedPath()
}

// envName reports whether s is a portable environment variable name.
func envName(s string) bool {
	if s == "" || len(s) > 128 || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for i := range len(s) {
		c := s[i]
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func (r *reader) credential(p *Provider, n *kdl.Node, path string) {
	const ex = `credential env="WORK_ANTHROPIC_KEY" (or key="…", optionally account="work")`
	if !r.shape(n, path, 0, 0, []string{"env", "key", "account"}, false, ex) {
		return
	}
	props := n.Properties()
	env, hasEnv := props["env"]
	key, hasKey := props["key"]
	if hasKey && key.Kind() == kdl.String && key.String() != "" {
		r.secrets = append(r.secrets, key.String())
	}
	var acct string
	if a, ok := props["account"]; ok {
		s, ok := r.str(a, path+".account", ex)
		if !ok {
			return
		}
		if !validName(s) {
			r.fail(a.Location(), path+".account", strconv.Quote(s), "is not an account name", ex)
			return
		}
		acct = s
	}
	cpath := path
	if acct != "" {
		cpath = path + "@" + acct
	}
	if !r.once(cpath, n, cpath) {
		return
	}
	switch {
	case hasEnv == hasKey:
		r.fail(n.Location(), cpath, "", "needs exactly one of env= (a variable to read) and key= (the key itself)", ex)
		return
	case hasEnv:
		s, ok := r.str(env, cpath+".env", ex)
		if !ok {
			return
		}
		if !envName(s) {
			r.fail(env.Location(), cpath+".env", strconv.Quote(s), "is not an environment variable name (letters, digits and '_')", ex)
			return
		}
		r.setCredential(p, acct, Credential{Env: s, Source: r.at(n.Location())})
	default:
		if key.Kind() != kdl.String || strings.TrimSpace(key.String()) == "" {
			r.fail(key.Location(), cpath+".key", "[redacted]", "is not a non-empty string", ex)
			return
		}
		r.setCredential(p, acct, Credential{Key: auth.NewSecret(key.String()), Source: r.at(n.Location())})
	}
}

func (r *reader) setCredential(p *Provider, acct string, c Credential) {
	if p.Credentials == nil {
		p.Credentials = map[string]Credential{}
	}
	p.Credentials[acct] = c
}

func (r *reader) quirks(p *Provider, n *kdl.Node, path string) {
	const ex = `quirks { max-tokens-field "max_tokens"; no-stream-usage #true }`
	if !r.shape(n, path, 0, 0, nil, true, ex) || !r.once(path, n, path) {
		return
	}
	out := map[string]any{}
	if c := n.Children(); c != nil {
		for _, k := range c.Nodes {
			qpath := path + "." + k.Name()
			q, known := quirkNamed(k.Name())
			if !known {
				r.fail(k.Location(), qpath, "", "is not a quirk flag; known: "+strings.Join(quirkNames(), ", ")+suggest(k.Name(), quirkNames()), ex)
				continue
			}
			qex := q.name + " " + q.example
			if !r.shape(k, qpath, 1, 1, nil, false, qex) {
				continue
			}
			if _, dup := out[snake(q.name)]; dup {
				r.fail(k.Location(), qpath, "", "is set twice in this block; keep one", qex)
				continue
			}
			v := k.Arg(0)
			switch {
			case q.kind == "bool" && v.Kind() == kdl.Bool:
				out[snake(q.name)] = v.Bool()
			case q.kind == "int" && v.Kind() == kdl.Int && v.Int() >= 0 && v.Int() <= 1<<16:
				out[snake(q.name)] = v.Int()
			case q.kind == "string" && v.Kind() == kdl.String && slices.Contains(q.allowed, v.String()):
				out[snake(q.name)] = v.String()
			default:
				want := map[string]string{"bool": "#true or #false", "int": "a whole number from 0 to 65536"}[q.kind]
				if q.kind == "string" {
					want = "one of " + strings.Join(q.allowed, ", ")
				}
				r.fail(v.Location(), qpath, show(v), "is not "+want, qex)
			}
		}
	}
	p.Quirks = Setting[map[string]any]{Value: out, Source: r.at(n.Location())}
}

// snake turns a kebab-case name into the codec's snake_case.
func snake(s string) string { return strings.ReplaceAll(s, "-", "_") }
