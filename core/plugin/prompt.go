package plugin

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/smith-agent/smith/core/internal/pluginabi"
)

// SystemPromptName is the name of the prompt that is the system prompt of
// every provider request.
const SystemPromptName = "system"

// PromptLimit bounds a rendered prompt: 16 KiB. A longer one is refused.
const PromptLimit = 16 << 10

// ContextLimit bounds the text of all context additions of one
// [Binding.Context] call together: 64 KiB. The transforms cut their own
// text to fit, with a note, and set [ContextAddition.Cut].
const ContextLimit = 64 << 10

// Facts are what the host knows of the environment prompts are rendered
// for (the WIT's runtime-facts). The runtime computes them; the plugins
// own the words.
type Facts struct {
	// Cwd is the working directory the tools resolve relative paths
	// against; absolute. Required.
	Cwd string
	// OS and Arch are the operating system and processor architecture as
	// Go names them (runtime.GOOS, runtime.GOARCH).
	OS, Arch string
	// Shell is the shell that runs the bash tool's commands, such as
	// /bin/bash.
	Shell string
	// Date is today's date in the user's time zone, as YYYY-MM-DD.
	Date string
	// Repository is the git repository Cwd is in; nil outside one.
	Repository *Repository
	// Model is the model the requests go to.
	Model ModelIdentity
	// Tools are the names of the active tools, in advertised order.
	Tools []string
	// ConfigDir is the user's Smith configuration directory (where the
	// user's own AGENTS.md lives); absolute, or empty for none. A
	// directory that does not exist is passed to the plugins as none.
	ConfigDir string
}

// Repository is a git repository.
type Repository struct {
	// Root is the directory holding .git; absolute, and Facts.Cwd is in it.
	Root string
	// Branch is the checked-out branch; empty when HEAD is detached.
	Branch string
}

// ModelIdentity names a model.
type ModelIdentity struct {
	// Provider is the provider's name, such as "anthropic".
	Provider string
	// Name is the model's identifier at the provider.
	Name string
	// DisplayName is the model's name as shown to the user.
	DisplayName string
}

// ContextAddition is text a context transform adds to the conversation's
// context.
type ContextAddition struct {
	// Plugin and Transform name the transform that added it.
	Plugin, Transform string
	// Source is the absolute path of the file the text comes from.
	Source string
	// Text is what the model sees, with its heading; when it was cut, a
	// note in it says so.
	Text string
	// Cut reports that the text was cut to a bound: warn the user.
	Cut bool
}

// CompactionPromptName is the name of the prompt that instructs the model
// writing a compaction's summary.
const CompactionPromptName = "compaction"

// SystemPrompt renders the system prompt (the prompt named
// [SystemPromptName]) of the binding's generation for f, or returns ""
// when no plugin contributes one. The plugin may read files through its
// fs grant: the reads are confined, read-only, to the repository (or
// f.Cwd) and f.ConfigDir, and recorded in the binding's journal with the
// causal parent "prompt:system". It is safe for concurrent use.
func (b *Binding) SystemPrompt(ctx context.Context, f Facts) (string, error) {
	return b.Prompt(ctx, SystemPromptName, f)
}

// Prompt renders the prompt called name of the binding's generation for
// f, within [PromptLimit] bytes, or returns "" when no plugin contributes
// one. The plugin's file reads are confined and journaled as for
// [Binding.SystemPrompt], with the causal parent "prompt:<name>". It is
// safe for concurrent use.
func (b *Binding) Prompt(ctx context.Context, name string, f Facts) (string, error) {
	l := b.gen.promptOwner(name)
	if l == nil {
		return "", nil
	}
	s, err := b.openScope(f)
	if err != nil {
		return "", err
	}
	defer s.close()
	in, err := b.gen.Acquire(ctx, l.art.Name)
	if err != nil {
		return "", err
	}
	defer in.Release()
	out, err := pluginabi.Bind(in).RenderPrompt(s.context(ctx, b.gen.id, "prompt:"+name), name, s.facts,
		pluginabi.RenderOptions{ByteLimit: PromptLimit})
	var fault pluginabi.PromptFault
	switch {
	case errors.As(err, &fault):
		return "", fmt.Errorf("plugin: %q could not render the %s prompt: %s; fix the facts or disable the plugin", l.art.Name, name, promptFaultText(fault))
	case err != nil:
		return "", fmt.Errorf("plugin: %q render-prompt %q: %w", l.art.Name, name, err)
	case len(out) > PromptLimit:
		return "", fmt.Errorf("plugin: %q rendered a %s prompt of %d bytes, over the %d-byte limit it was given; the plugin is at fault", l.art.Name, name, len(out), PromptLimit)
	}
	return out, nil
}

// Context runs every context transform of the binding's generation for f,
// in load and declaration order, and returns their additions in order,
// their texts [ContextLimit] bytes at most together. The transforms'
// file reads are confined and journaled as for [Binding.SystemPrompt],
// with the causal parent "context:<transform>". A transform that fails
// does not stop the others: Context returns their additions together with
// an error naming each that failed. It is safe for concurrent use.
func (b *Binding) Context(ctx context.Context, f Facts) ([]ContextAddition, error) {
	s, err := b.openScope(f)
	if err != nil {
		return nil, err
	}
	defer s.close()
	var out []ContextAddition
	var errs []error
	left := ContextLimit
	for _, l := range b.gen.plugins {
		for _, t := range l.contrib.ContextTransforms {
			adds, err := b.transform(ctx, s, l, t.Name, left)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			for _, a := range adds {
				left -= len(a.Text)
			}
			out = append(out, adds...)
		}
	}
	return out, errors.Join(errs...)
}

// transform runs l's transform name within left bytes.
func (b *Binding) transform(ctx context.Context, s *readScope, l *loaded, name string, left int) ([]ContextAddition, error) {
	in, err := b.gen.Acquire(ctx, l.art.Name)
	if err != nil {
		return nil, err
	}
	defer in.Release()
	adds, err := pluginabi.Bind(in).TransformContext(s.context(ctx, b.gen.id, "context:"+name), name, s.facts,
		pluginabi.TransformOptions{ByteLimit: uint32(left)})
	var fault pluginabi.PromptFault
	switch {
	case errors.As(err, &fault):
		return nil, fmt.Errorf("plugin: %q context transform %q failed: %s; its additions are left out", l.art.Name, name, promptFaultText(fault))
	case err != nil:
		return nil, fmt.Errorf("plugin: %q transform-context %q: %w; its additions are left out", l.art.Name, name, err)
	}
	out := make([]ContextAddition, len(adds))
	n := 0
	for i, a := range adds {
		n += len(a.Text)
		if !filepath.IsAbs(a.Source) {
			return nil, fmt.Errorf("plugin: %q context transform %q gave an addition from %q, not an absolute path; the plugin is at fault, its additions are left out", l.art.Name, name, a.Source)
		}
		out[i] = ContextAddition{Plugin: l.art.Name, Transform: name, Source: a.Source, Text: a.Text, Cut: a.Cut}
	}
	if n > left {
		return nil, fmt.Errorf("plugin: %q context transform %q returned %d bytes of text, over the %d it was given; the plugin is at fault, its additions are left out", l.art.Name, name, n, left)
	}
	return out, nil
}

// promptOwner returns the plugin declaring prompt name, or nil; validation
// made it unique.
func (g *Generation) promptOwner(name string) *loaded {
	for _, l := range g.plugins {
		for _, p := range l.contrib.Prompts {
			if p.Name == name {
				return l
			}
		}
	}
	return nil
}

// promptFaultText is a prompt fault's message.
func promptFaultText(f pluginabi.PromptFault) string {
	switch f.Case {
	case pluginabi.PromptFaultUnknownPrompt:
		return "it declares no prompt " + f.UnknownPrompt
	case pluginabi.PromptFaultUnknownTransform:
		return "it declares no context transform " + f.UnknownTransform
	case pluginabi.PromptFaultInvalidFacts:
		return "invalid facts: " + f.InvalidFacts
	case pluginabi.PromptFaultUnknown:
		return f.Unknown
	}
	return f.Error()
}
