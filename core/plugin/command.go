package plugin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/smith-agent/smith/core/internal/hostops"
	"github.com/smith-agent/smith/core/internal/pluginabi"
)

// Command is a command a plugin contributes, which the user runs by name.
type Command struct {
	// Name is the command's name, unique within the generation.
	Name string
	// Description says what the command does, for help and completion.
	Description string
	// ArgumentHint is a short hint for its arguments, such as "<model>";
	// empty for none.
	ArgumentHint string
	// Plugin is the plugin contributing it.
	Plugin string
}

// CommandResult is what a command returned.
type CommandResult struct {
	// Text is the output to show the user.
	Text string
	// Prompt, when not empty, is the prompt the frontend submits next on
	// the user's behalf, exactly as if it had been typed (the WIT's
	// command-definition convention: details {"prompt": "..."}).
	Prompt string
	// Details is the output's details JSON, if any.
	Details json.RawMessage
}

// Commands returns the generation's commands, in load and declaration
// order.
func (g *Generation) Commands() []Command {
	var out []Command
	for _, l := range g.plugins {
		for _, c := range l.contrib.Commands {
			cmd := Command{Name: c.Name, Description: c.Description, Plugin: l.art.Name}
			if c.ArgumentHint != nil {
				cmd.ArgumentHint = *c.ArgumentHint
			}
			out = append(out, cmd)
		}
	}
	return out
}

// RunCommand runs the command name with args, the text the user typed
// after its name, through its plugin's invoke-tool export: the call's
// arguments are {"arguments": args}, its working directory is the
// binding's, and its effects are the binding's (the tools' roots and
// journal), attributed to the causal parent "command:<name>". A command's
// own failure is an error carrying its message for the user.
func (b *Binding) RunCommand(ctx context.Context, name, args string) (CommandResult, error) {
	l := b.gen.commandOwner(name)
	if l == nil {
		var names []string
		for _, c := range b.gen.Commands() {
			names = append(names, c.Name)
		}
		slices.Sort(names)
		return CommandResult{}, fmt.Errorf("plugin: no command %q (commands: %s); run one of those", name, strings.Join(names, ", "))
	}
	arguments, err := json.Marshal(struct {
		Arguments string `json:"arguments"`
	}{args})
	if err != nil {
		return CommandResult{}, fmt.Errorf("plugin: encode the arguments of command %q: %w", name, err)
	}
	in, err := b.gen.Acquire(ctx, l.art.Name)
	if err != nil {
		return CommandResult{}, err
	}
	defer in.Release()
	parent := "command:" + name
	st := &callState{ops: b.ops, ui: b.ui, vcs: b.vcs, state: b.state, binding: b, command: true, callID: parent}
	ictx := context.WithValue(hostops.WithInvocation(ctx, hostops.Invocation{Cwd: b.cwd, CallID: parent, Generation: b.gen.id}), callKey{}, st)
	out, err := pluginabi.Bind(in).InvokeTool(ictx, pluginabi.ToolCall{ID: parent, Name: name, Arguments: string(arguments)},
		pluginabi.InvokeOptions{OutputLimit: b.outputLimit(l), WorkingDirectory: b.cwd})
	var fault pluginabi.ToolFault
	switch {
	case errors.As(err, &fault):
		return CommandResult{}, fmt.Errorf("plugin: command %q failed: %s", name, faultText(fault))
	case err != nil:
		return CommandResult{}, fmt.Errorf("plugin: %q command %q: %w", l.art.Name, name, budgetFix(l.art.Name, err))
	}
	var res CommandResult
	for _, c := range boundOutput(out.Content, b.outputLimit(l), l.art.Name) {
		if c.Case == pluginabi.ContentBlockText {
			res.Text += c.Text
		}
	}
	if out.Details != nil {
		res.Details = json.RawMessage(*out.Details)
		if !json.Valid(res.Details) {
			return CommandResult{}, fmt.Errorf("plugin: %q command %q returned details that are not JSON; the plugin is at fault", l.art.Name, name)
		}
		res.Prompt = promptOf(res.Details)
	}
	return res, nil
}

// commandOwner returns the plugin declaring command name, or nil;
// validation made it unique.
func (g *Generation) commandOwner(name string) *loaded {
	for _, l := range g.plugins {
		for _, c := range l.contrib.Commands {
			if c.Name == name {
				return l
			}
		}
	}
	return nil
}

// promptOf returns the string member "prompt" of the details object d,
// or "" when d is no object or has no such member.
func promptOf(d json.RawMessage) string {
	var members map[string]json.RawMessage
	if json.Unmarshal(d, &members) != nil {
		return ""
	}
	var p string
	if raw, ok := members["prompt"]; !ok || json.Unmarshal(raw, &p) != nil {
		return ""
	}
	return p
}
