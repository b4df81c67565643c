package config

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/calico32/kdl-go"
)

// OptionKind is what a provider option holds.
type OptionKind string

// The kinds of provider option.
const (
	// OptionFlag is #true or #false.
	OptionFlag OptionKind = "flag"
	// OptionText is a string, one of the option's Allowed values when it
	// lists any.
	OptionText OptionKind = "text"
	// OptionCount is a whole number from 0 to 65536.
	OptionCount OptionKind = "count"
)

// maxCount is the largest value a count option takes.
const maxCount = 1 << 16

// OptionSpec is one option a codec plugin declares for a provider: what a
// user may write in the provider's quirks block. Configuration knows no
// option of its own; every option comes from a codec's declaration.
type OptionSpec struct {
	// Name is the option's name in smith.kdl, such as "max-tokens-field";
	// the codec receives it with "-" written as "_".
	Name string
	// Kind is what the option holds.
	Kind OptionKind
	// Allowed are the values a text option may take; empty is any.
	Allowed []string
	// Example is a valid value as written in smith.kdl, shown in errors.
	Example string
	// Description says what the option changes.
	Description string
}

// ProviderSchema is a provider a codec plugin declares, with the options
// its configuration block may set (none when Options is empty).
type ProviderSchema struct {
	Name    string
	Options []OptionSpec
}

// OptionValue is one option a provider's quirks block sets, as written;
// [Config.CheckProviders] validates it against the codec's declaration.
type OptionValue struct {
	// Name is the option's name as written.
	Name string
	// Value is the value: a bool, an int64 or a string (nil for a value of
	// another kind, which no option accepts).
	Value any
	// Shown is the value as written, for messages.
	Shown string
	// Source is where the option is; ValueSource where its value is.
	Source, ValueSource Source
}

// quirks reads a provider's quirks block: one value per option, each
// option once. What the options are and what they take is the codec's to
// say, so the values are checked later, by CheckProviders.
func (r *reader) quirks(p *Provider, n *kdl.Node, path string) {
	const ex = `quirks { max-tokens-field "max_tokens"; no-stream-usage #true }`
	if !r.shape(n, path, 0, 0, nil, true, ex) || !r.once(path, n, path) {
		return
	}
	var out []OptionValue
	if c := n.Children(); c != nil {
		for _, k := range c.Nodes {
			qpath := path + "." + k.Name()
			if !r.shape(k, qpath, 1, 1, nil, false, k.Name()+" #true") {
				continue
			}
			if slices.ContainsFunc(out, func(o OptionValue) bool { return o.Name == k.Name() }) {
				r.fail(k.Location(), qpath, "", "is set twice in this block; keep one", k.Name()+" #true")
				continue
			}
			v := k.Arg(0)
			o := OptionValue{Name: k.Name(), Shown: show(v), Source: r.at(k.Location()), ValueSource: r.at(v.Location())}
			switch v.Kind() {
			case kdl.Bool:
				o.Value = v.Bool()
			case kdl.Int:
				o.Value = int64(v.Int())
			case kdl.String:
				o.Value = v.String()
			}
			out = append(out, o)
		}
	}
	p.Quirks = Setting[[]OptionValue]{Value: out, Source: r.at(n.Location())}
}

// QuirksJSON returns the options the quirks block sets as the JSON object
// the codec reads (names with "-" written as "_"), or nil when the
// provider has no quirks block. Only a configuration that passed
// [Config.CheckProviders] holds values the codec accepts.
func (p *Provider) QuirksJSON() json.RawMessage {
	if !p.Quirks.IsSet() {
		return nil
	}
	m := make(map[string]any, len(p.Quirks.Value))
	for _, o := range p.Quirks.Value {
		m[strings.ReplaceAll(o.Name, "-", "_")] = o.Value
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil // bools, int64s and strings: unreachable
	}
	return b
}

// checkOptions validates the quirks block of the provider called name
// against the options its codec declares.
func checkOptions(name string, p *Provider, codec ProviderSchema) Errors {
	if !p.Quirks.IsSet() {
		return nil
	}
	path := "provider." + name + ".quirks"
	if len(codec.Options) == 0 {
		return Errors{&Error{Source: p.Quirks.Source, Path: path,
			Problem: "is set, but the " + codec.Name + " codec takes no options; remove the block"}}
	}
	names := make([]string, len(codec.Options))
	for i, o := range codec.Options {
		names[i] = o.Name
	}
	var errs Errors
	for _, v := range p.Quirks.Value {
		i := slices.Index(names, v.Name)
		if i < 0 {
			ex := codec.Options[0]
			if near := nearest(v.Name, names); near >= 0 {
				ex = codec.Options[near]
			}
			errs = append(errs, &Error{Source: v.Source, Path: path + "." + v.Name,
				Problem: "is not an option of the " + codec.Name + " codec; known: " + strings.Join(names, ", ") + suggest(v.Name, names),
				Example: ex.Name + " " + ex.Example})
			continue
		}
		spec := codec.Options[i]
		if want := spec.accepts(v.Value); want != "" {
			errs = append(errs, &Error{Source: v.ValueSource, Path: path + "." + v.Name, Value: v.Shown,
				Problem: "is not " + want + " (" + spec.Description + ")", Example: spec.Name + " " + spec.Example})
		}
	}
	return errs
}

// accepts returns "" when v is a value of the option, else what the
// option takes.
func (o OptionSpec) accepts(v any) string {
	switch o.Kind {
	case OptionFlag:
		if _, ok := v.(bool); ok {
			return ""
		}
		return "#true or #false"
	case OptionCount:
		if n, ok := v.(int64); ok && n >= 0 && n <= maxCount {
			return ""
		}
		return "a whole number from 0 to " + strconv.Itoa(maxCount)
	case OptionText:
		s, ok := v.(string)
		if ok && (len(o.Allowed) == 0 || slices.Contains(o.Allowed, s)) {
			return ""
		}
		if len(o.Allowed) == 0 {
			return "a string"
		}
		return "one of " + strings.Join(o.Allowed, ", ")
	}
	return "a value this Smith understands (the codec declares the option kind " + strconv.Quote(string(o.Kind)) + "; update Smith or the plugin)"
}
