package config

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/calico32/kdl-go"
	"github.com/smith-agent/smith/core/catalog"
)

// modelInfoNodes are the nodes a model-info block may hold.
var modelInfoNodes = []string{"name", "alias", "context", "max-output", "input", "tools", "strict-tools", "thinking", "cache", "price"}

const modelInfoExample = `model-info "local/qwen3" { context 32768; max-output 8192; thinking "off"; }`

// modelInfo reads a model-info block: what the user states about a model
// (a self-hosted one the catalog lacks, or a correction of the bundled
// catalog), which beats the bundled catalog.
func (r *reader) modelInfo(n *kdl.Node) {
	if !r.shape(n, "model-info", 1, 1, nil, true, modelInfoExample) {
		return
	}
	ref, ok := r.str(n.Arg(0), "model-info", modelInfoExample)
	if !ok {
		return
	}
	prov, id, _ := strings.Cut(ref, "/")
	if !validName(prov) || id == "" || strings.ContainsAny(id, " \t\n@") {
		r.fail(n.Arg(0).Location(), "model-info", strconv.Quote(ref), "is not PROVIDER/MODEL", modelInfoExample)
		return
	}
	path := "model-info." + ref
	if !r.once(path, n, path) {
		return
	}
	src := r.at(n.Location())
	m := catalog.Model{Provider: prov, ID: id, Name: id, Input: []catalog.Modality{catalog.Text}, Tools: true,
		Thinking: []catalog.Level{catalog.LevelOff}, Cache: catalog.CacheNone, Evidence: catalog.EvidenceConfig,
		Provenance: catalog.Provenance{Source: src.String(), Date: r.date}}
	errs := len(r.errs)
	seen := map[string]bool{}
	if c := n.Children(); c != nil {
		for _, k := range c.Nodes {
			r.modelField(&m, k, path, seen)
		}
	}
	for _, req := range []string{"context", "max-output"} {
		if !seen[req] {
			r.fail(n.Location(), path, "", "needs "+req, modelInfoExample)
		}
	}
	if len(r.errs) > errs {
		return
	}
	if err := m.Check(); err != nil {
		r.fail(n.Location(), path, "", "is not a valid model: "+strings.TrimPrefix(err.Error(), "catalog: "), modelInfoExample)
		return
	}
	if r.out.cfg.Models == nil {
		r.out.cfg.Models = map[string]Setting[catalog.Model]{}
	}
	r.out.cfg.Models[ref] = Setting[catalog.Model]{Value: m, Source: src}
}

func (r *reader) modelField(m *catalog.Model, n *kdl.Node, parent string, seen map[string]bool) {
	name := n.Name()
	path := parent + "." + name
	if !slices.Contains(modelInfoNodes, name) {
		r.fail(n.Location(), path, "", "is not a model-info setting; known: "+strings.Join(modelInfoNodes, ", ")+suggest(name, modelInfoNodes), modelInfoExample)
		return
	}
	if name != "alias" && !r.once(path, n, path) {
		return
	}
	seen[name] = true
	switch name {
	case "name":
		if r.shape(n, path, 1, 1, nil, false, `name "Qwen3 32B"`) {
			if s, ok := r.str(n.Arg(0), path, `name "Qwen3 32B"`); ok {
				m.Name = s
			}
		}
	case "alias":
		if r.shape(n, path, 1, -1, nil, false, `alias "qwen"`) {
			for _, v := range n.Arguments() {
				if s, ok := r.str(v, path, `alias "qwen"`); ok {
					m.Aliases = append(m.Aliases, s)
				}
			}
		}
	case "context", "max-output":
		ex := name + " 32768"
		if r.shape(n, path, 1, 1, nil, false, ex) {
			v := n.Arg(0)
			if v.Kind() != kdl.Int || v.Int() < 1 || v.Int() > 100_000_000 {
				r.fail(v.Location(), path, show(v), "is not a whole number of tokens from 1 to 100000000", ex)
				return
			}
			if name == "context" {
				m.Context = v.Int()
			} else {
				m.MaxOutput = v.Int()
			}
		}
	case "tools", "strict-tools":
		ex := name + " #true"
		if r.shape(n, path, 1, 1, nil, false, ex) {
			v := n.Arg(0)
			if v.Kind() != kdl.Bool {
				r.fail(v.Location(), path, show(v), "is not #true or #false", ex)
				return
			}
			if name == "tools" {
				m.Tools = v.Bool()
			} else {
				m.StrictTools = v.Bool()
			}
		}
	case "input":
		r.enumList(n, path, []string{"text", "image"}, `input "text" "image"`, func(s []string) {
			m.Input = nil
			for _, x := range s {
				m.Input = append(m.Input, catalog.Modality(x))
			}
		})
	case "thinking":
		r.enumList(n, path, []string{"off", "minimal", "low", "medium", "high", "xhigh"}, `thinking "off" "low" "high"`, func(s []string) {
			m.Thinking = nil
			for _, x := range s {
				m.Thinking = append(m.Thinking, catalog.Level(x))
			}
		})
	case "cache":
		r.enumList(n, path, []string{"none", "automatic", "implicit", "explicit"}, `cache "automatic"`, func(s []string) {
			if len(s) != 1 {
				r.fail(n.Location(), path, "", "takes one mode", `cache "automatic"`)
				return
			}
			m.Cache = catalog.CacheMode(s[0])
		})
	case "price":
		r.price(m, n, path)
	}
}

// enumList reads the arguments of n, each one of allowed.
func (r *reader) enumList(n *kdl.Node, path string, allowed []string, ex string, set func([]string)) {
	if !r.shape(n, path, 1, -1, nil, false, ex) {
		return
	}
	var out []string
	for _, v := range n.Arguments() {
		s, ok := r.str(v, path, ex)
		if !ok {
			return
		}
		if !slices.Contains(allowed, s) {
			r.fail(v.Location(), path, strconv.Quote(s), "is not one of "+strings.Join(allowed, ", "), ex)
			return
		}
		out = append(out, s)
	}
	set(out)
}

func (r *reader) price(m *catalog.Model, n *kdl.Node, path string) {
	const ex = `price input=0.5 output=1.5 cache-read=0.05 cache-write=0`
	keys := []string{"input", "output", "cache-read", "cache-write"}
	if !r.shape(n, path, 0, 0, keys, false, ex) {
		return
	}
	p := &catalog.Price{}
	props := n.Properties()
	for _, k := range keys {
		v, ok := props[k]
		if !ok {
			r.fail(n.Location(), path, "", "needs "+k+"= (US$ per million tokens)", ex)
			return
		}
		var f float64
		switch v.Kind() {
		case kdl.Int:
			f = float64(v.Int())
		case kdl.Float:
			f = v.Float()
		case kdl.BigFloat:
			f, _ = v.BigFloat().Float64()
		default:
			r.fail(v.Location(), path+"."+k, show(v), "is not a number of US$ per million tokens", ex)
			return
		}
		switch k {
		case "input":
			p.Input = f
		case "output":
			p.Output = f
		case "cache-read":
			p.CacheRead = f
		default:
			p.CacheWrite = f
		}
	}
	m.Price = p
}

// CatalogLayer returns the configured models as a catalog layer of
// [catalog.EvidenceConfig], which beats the bundled catalog.
func (c *Config) CatalogLayer() catalog.Layer {
	l := catalog.Layer{Evidence: catalog.EvidenceConfig, Origin: catalog.FileOrigin{Source: "configuration (model-info in smith.kdl)"}}
	for _, ref := range slices.Sorted(maps.Keys(c.Models)) {
		l.Models = append(l.Models, c.Models[ref].Value)
	}
	return l
}

// describe renders a configured model for [Config.Entries].
func describe(m catalog.Model) string {
	s := fmt.Sprintf("context %d, max-output %d, input %s, tools %v, thinking %s, cache %s", m.Context, m.MaxOutput,
		join(m.Input), m.Tools, join(m.Thinking), m.Cache)
	if m.Price != nil {
		s += fmt.Sprintf(", price %v/%v/%v/%v", m.Price.Input, m.Price.Output, m.Price.CacheRead, m.Price.CacheWrite)
	}
	return s
}

func join[T ~string](xs []T) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = string(x)
	}
	return strings.Join(s, "+")
}
