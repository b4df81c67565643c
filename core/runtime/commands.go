package runtime

import (
	"context"
	"fmt"
	"strings"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
)

// Commands returns the host's /reload, then the commands the plugin
// generation contributes, in load and declaration order; a frontend may
// offer them as /NAME.
func (rt *Runtime) Commands(ctx context.Context) ([]protocol.Command, error) {
	gen, err := rt.Generation(ctx)
	if err != nil {
		return nil, err
	}
	out := []protocol.Command{reloadCommand}
	for _, c := range gen.Commands() {
		if c.Name != reloadCommand.Name {
			out = append(out, protocol.Command{Name: c.Name, Description: c.Description, ArgumentHint: c.ArgumentHint, Plugin: c.Plugin})
		}
	}
	return out, nil
}

// reloadCommand is the host's own command: it must work when the plugins
// do not, so no plugin provides it, and a plugin's command of the same
// name is not offered.
var reloadCommand = protocol.Command{Name: "reload", Description: "load the plugins again: a plugin installed, changed, enabled or removed takes effect without a restart"}

// runReload runs /reload: Runtime.Reload, reported as a command's text.
func (rt *Runtime) runReload(ctx context.Context) (protocol.CommandResult, error) {
	r, err := rt.Reload(ctx)
	if err != nil {
		return protocol.CommandResult{}, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "reloaded the plugins as generation %d (was %d): %s", r.Generation, r.Previous, strings.Join(r.Plugins, ", "))
	if r.Deferred > 0 {
		fmt.Fprintf(&b, "; %d session(s) finish their current run on generation %d first", r.Deferred, r.Previous)
	}
	for _, n := range r.Notes {
		b.WriteString("\n" + n)
	}
	return protocol.CommandResult{Content: []model.Content{model.Text{Text: b.String()}}}, nil
}

// RunCommand runs a contributed command in the session: its effects are the
// session's (journaled, confined to the working directory). A result with a
// Prompt asks the frontend to submit it as the user's next input; the
// runtime does not submit it by itself. An unknown command is an error
// wrapping [ErrUsage] naming the known ones. Refused with [ErrBusy] while a
// run is active.
func (s *Session) RunCommand(ctx context.Context, p protocol.RunCommandParams) (protocol.CommandResult, error) {
	if p.Name == reloadCommand.Name {
		return s.rt.runReload(ctx)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return protocol.CommandResult{}, errClosed
	}
	if s.running() {
		return protocol.CommandResult{}, ErrBusy
	}
	gen, err := s.rt.Generation(ctx)
	if err != nil {
		return protocol.CommandResult{}, err
	}
	known := false
	names := []string{reloadCommand.Name}
	for _, c := range gen.Commands() {
		names = append(names, c.Name)
		known = known || c.Name == p.Name
	}
	if !known {
		return protocol.CommandResult{}, usagef("runtime: there is no command %q; the commands are: %s", p.Name, strings.Join(names, ", "))
	}
	if err := s.bindTools(ctx); err != nil {
		return protocol.CommandResult{}, err
	}
	if err := s.beginFile(); err != nil {
		return protocol.CommandResult{}, err
	}
	// The command runs with s.mu held; its plugin's vcs calls run under
	// that hold (vcs_plugin.go).
	res, err := s.binding.RunCommand(context.WithValue(ctx, heldKey{}, s), p.Name, p.Arguments)
	if err != nil {
		return protocol.CommandResult{}, fmt.Errorf("runtime: command %s: %w", p.Name, err)
	}
	out := protocol.CommandResult{Content: []model.Content{}, Prompt: res.Prompt}
	if res.Text != "" {
		out.Content = append(out.Content, model.Text{Text: res.Text})
	}
	return out, nil
}

// Presentation returns the key bindings, theme styles and layout the
// plugin generation contributes to the interactive mode.
func (rt *Runtime) Presentation(ctx context.Context) (protocol.Presentation, error) {
	gen, err := rt.Generation(ctx)
	if err != nil {
		return protocol.Presentation{}, err
	}
	p := protocol.Presentation{Keys: map[string][]string{}, Theme: map[string]string{}, From: map[string]string{}}
	for _, b := range gen.KeyBindings() {
		p.Keys[b.Action] = b.Keys
		p.From["keys."+b.Action] = b.Plugin
	}
	for _, s := range gen.Theme() {
		p.Theme[s.Role] = s.Style
		p.From["theme."+s.Role] = s.Plugin
	}
	if lo, ok := gen.Layout(); ok {
		p.Layout = &protocol.Layout{StatusLeft: lo.StatusLeft, StatusRight: lo.StatusRight, Prompt: lo.Prompt, Placeholder: lo.Placeholder}
		p.From["layout"] = lo.Plugin
	}
	return p, nil
}
