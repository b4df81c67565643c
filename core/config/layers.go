package config

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/smith-agent/smith/core/catalog"
)

// fromEnv reads the options' environment variables.
func fromEnv(lookup func(string) (string, bool)) (layerData, Errors) {
	var d layerData
	var errs Errors
	for _, o := range options {
		if o.Env == "" {
			continue
		}
		v, ok := lookup(o.Env)
		if !ok || v == "" {
			continue
		}
		src := Source{Layer: LayerEnv, Name: o.Env}
		if e := setOption(&d.cfg, o, v, src); e != nil {
			e.Example = o.Env + "=" + o.Example
			errs = append(errs, e)
		}
	}
	return d, errs
}

// fromFlags reads the flags given.
func fromFlags(flags map[string]string) (layerData, Errors) {
	var d layerData
	var errs Errors
	for _, name := range slices.Sorted(maps.Keys(flags)) {
		o, ok := option(name)
		if !ok {
			errs = append(errs, &Error{Source: Source{Layer: LayerFlag, Name: name}, Problem: "is not a configuration flag"})
			continue
		}
		if e := setOption(&d.cfg, o, flags[name], Source{Layer: LayerFlag, Name: name}); e != nil {
			e.Example = "--" + o.Flag + " " + o.Example
			errs = append(errs, e)
		}
	}
	return d, errs
}

// setOption parses one option's value from the environment or a flag.
func setOption(cfg *Config, o Option, v string, src Source) *Error {
	bad := func(problem string) *Error {
		return &Error{Source: src, Path: o.Flag, Value: strconv.Quote(v), Problem: problem}
	}
	if why, ok := setPermissionOption(cfg, o, v, src); ok {
		if why != "" {
			return bad(why)
		}
		return nil
	}
	if why, ok := setSandboxOption(cfg, o, v, src); ok {
		if why != "" {
			return bad(why)
		}
		return nil
	}
	switch o.Flag {
	case KeyModel:
		if strings.TrimSpace(v) == "" {
			return bad("is empty")
		}
		cfg.Model = Setting[string]{Value: v, Source: src}
	case KeyThinking:
		l, err := catalog.ParseLevel(v)
		if err != nil {
			return bad("is not a thinking level: use off, minimal, low, medium, high or xhigh")
		}
		cfg.Thinking = Setting[catalog.Level]{Value: l, Source: src}
	case KeyMaxOutputTokens:
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxTokens {
			return bad(fmt.Sprintf("is not a whole number of tokens from 1 to %d", maxTokens))
		}
		cfg.MaxOutputTokens = Setting[int]{Value: n, Source: src}
	case KeyMaxCost:
		n, why := parseMaxCost(v)
		if why != "" {
			return bad(why)
		}
		cfg.MaxCost = Setting[int64]{Value: n, Source: src}
	case KeyHeadTimeout, KeyIdleTimeout, KeyResponseTimeout:
		d, why := parseTimeout(v)
		if why != "" {
			return bad(why)
		}
		*cfg.timeoutSetting(o.Flag) = Setting[time.Duration]{Value: d, Source: src}
	case KeyTrustProject:
		b, err := strconv.ParseBool(v)
		if err != nil {
			return bad("is not a boolean: use 1 or 0, true or false")
		}
		cfg.TrustProject = Setting[bool]{Value: b, Source: src}
	case KeyBaseURL:
		if why := checkURL(v); why != "" {
			return &Error{Source: src, Path: o.Flag, Value: strconv.Quote(redactURL(v)), Problem: why}
		}
		cfg.BaseURLFlag = Setting[string]{Value: v, Source: src}
	case KeyCatalogRefresh:
		u, why := catalogRefresh(v)
		if why != "" {
			return &Error{Source: src, Path: o.Flag, Value: strconv.Quote(redactURL(v)), Problem: why}
		}
		cfg.CatalogRefresh = Setting[string]{Value: u, Source: src}
	case FlagSystemPromptFile:
		if strings.TrimSpace(v) == "" {
			return bad("is empty; name the file whose text replaces the system prompt")
		}
		abs, err := filepath.Abs(v)
		if err != nil {
			return bad(err.Error())
		}
		cfg.SystemPrompt = Setting[Prompt]{Value: Prompt{File: abs}, Source: src}
	}
	return nil
}
