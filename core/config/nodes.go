package config

import (
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/calico32/kdl-go"
	"github.com/smith-agent/smith/core/catalog"
)

// maxTokens bounds max-output-tokens.
const maxTokens = 10_000_000

// topNodes are the nodes a smith.kdl may hold at its top level.
var topNodes = []string{KeyModel, KeyThinking, KeyMaxOutputTokens, KeyHeadTimeout, KeyIdleTimeout, KeyResponseTimeout, KeyCatalogRefresh, KeySystemPrompt, "ignore", "provider", "alias", "group", "model-info", "trusted-project", KeyTrustedBaseURL, "tui", "compaction", KeyMaxCost, KeySandbox, KeySandboxNetwork, KeyRoots, KeySecret, "permissions", "plugin"}

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
	case KeyHeadTimeout, KeyIdleTimeout, KeyResponseTimeout:
		r.timeout(n, name)
	case KeyCatalogRefresh:
		const ex = `catalog-refresh "https://example.com/smith/catalog.json"`
		if r.shape(n, name, 1, 1, nil, false, ex) && r.once(name, n, name) {
			if s, ok := r.str(n.Arg(0), name, ex); ok {
				v, why := catalogRefresh(s)
				if why != "" {
					r.fail(n.Arg(0).Location(), name, strconv.Quote(redactURL(s)), why, ex)
					return
				}
				r.out.cfg.CatalogRefresh = Setting[string]{Value: v, Source: r.at(n.Arg(0).Location())}
			}
		}
	case KeySystemPrompt:
		r.systemPrompt(n)
	case "ignore":
		r.ignore(n)
	case "trusted-project":
		r.trusted(n)
	case KeyTrustedBaseURL:
		r.trustedBaseURL(n)
	case "alias":
		r.alias(n)
	case "group":
		r.group(n)
	case "provider":
		r.provider(n)
	case "model-info":
		r.modelInfo(n)
	case "tui":
		r.tui(n)
	case "compaction":
		r.compaction(n)
	case KeyMaxCost:
		r.maxCostNode(n)
	case KeySandbox, KeySandboxNetwork, KeyRoots:
		r.sandboxNode(n, name)
	case KeySecret:
		r.secretNode(n)
	case "permissions":
		r.permissions(n)
	case "plugin":
		r.pluginBudget(n)
	default:
		r.fail(n.Location(), name, "", "is not a configuration node; known nodes: "+strings.Join(topNodes, ", ")+suggest(name, topNodes), `model "anthropic/claude-sonnet-4-5"`)
	}
}

// systemPrompt reads system-prompt "TEXT" or system-prompt file="PATH"
// (relative to the file's directory).
func (r *reader) systemPrompt(n *kdl.Node) {
	const name = KeySystemPrompt
	const ex = `system-prompt file="prompts/system.md"`
	if !r.shape(n, name, 0, 1, []string{"file"}, false, ex) || !r.once(name, n, name) {
		return
	}
	args := n.Arguments()
	file, hasFile := n.Properties()["file"]
	switch {
	case len(args) == 1 && hasFile:
		r.fail(n.Location(), name, "", "takes the prompt's text or file=, not both", ex)
	case len(args) == 1:
		if s, ok := r.str(args[0], name, `system-prompt "You are a careful reviewer."`); ok {
			if strings.TrimSpace(s) == "" {
				r.fail(args[0].Location(), name, `""`, "is empty; give the prompt's text, or remove the node to keep Smith's prompt", ex)
				return
			}
			r.out.cfg.SystemPrompt = Setting[Prompt]{Value: Prompt{Text: s}, Source: r.at(args[0].Location())}
		}
	case hasFile:
		s, ok := r.str(file, name+".file", ex)
		if !ok {
			return
		}
		if strings.TrimSpace(s) == "" {
			r.fail(file.Location(), name+".file", `""`, "is empty; name the file whose text replaces the system prompt", ex)
			return
		}
		if !filepath.IsAbs(s) && r.file != "" {
			s = filepath.Join(filepath.Dir(r.file), s)
		}
		r.out.cfg.SystemPrompt = Setting[Prompt]{Value: Prompt{File: s}, Source: r.at(file.Location())}
	default:
		r.fail(n.Location(), name, "", "needs the prompt's text or file=", ex)
	}
}

// ignore reads gitignore-style patterns that find, grep and ls skip, in
// addition to .gitignore files. Every ignore node of every layer adds its
// patterns (a project adds to the user's; nothing is replaced).
func (r *reader) ignore(n *kdl.Node) {
	const ex = `ignore "dist/" "*.min.js"`
	if !r.shape(n, "ignore", 1, -1, nil, false, ex) {
		return
	}
	for _, v := range n.Arguments() {
		s, ok := r.str(v, "ignore", ex)
		if !ok {
			continue
		}
		switch {
		case strings.TrimSpace(s) == "":
			r.fail(v.Location(), "ignore", strconv.Quote(s), "is empty", ex)
		case strings.ContainsAny(s, "\x00\n\r"):
			r.fail(v.Location(), "ignore", strconv.Quote(s), "holds a line break or NUL; give one pattern per value", ex)
		case strings.HasPrefix(s, "#"):
			r.fail(v.Location(), "ignore", strconv.Quote(s), "starts with '#', which .gitignore syntax reads as a comment; escape it as \\#", ex)
		default:
			r.out.cfg.Ignore = append(r.out.cfg.Ignore, Setting[string]{Value: s, Source: r.at(v.Location())})
		}
	}
}

func (r *reader) trusted(n *kdl.Node) {
	const ex = `trusted-project "/home/me/src/app"`
	if !r.shape(n, "trusted-project", 1, 1, nil, false, ex) {
		return
	}
	if !r.userOnly(n, "trusted-project", "", ex) {
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

// catalogRefresh checks a catalog-refresh value: "off" (returned as "")
// or the URL of a catalog document, over https, or plain http to this
// machine only (catalog data must not be open to tampering on the way).
// It returns the value and why it is invalid, or "".
func catalogRefresh(s string) (string, string) {
	if s == "off" {
		return "", ""
	}
	u, err := url.Parse(s)
	switch {
	case err != nil || u.Scheme == "" || u.Opaque != "":
		return "", "is neither off nor a URL"
	case u.Scheme != "http" && u.Scheme != "https":
		return "", "is not an https:// URL"
	case u.Host == "":
		return "", "has no host"
	case u.Fragment != "":
		return "", "has a #fragment; give the catalog document's URL"
	case remoteHTTP(u):
		return "", "is plain http to another machine; catalog data must come over https (http is only for localhost, 127.0.0.1 and ::1)"
	}
	return s, ""
}
