package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/smith/internal/textout"
)

// commandLine splits a prompt "/NAME ARGS" into the command's name and
// arguments; ok is false for any other prompt. A name is what a plugin
// may declare (letters, digits, '-', '_', ':'), so a prompt starting with
// a path (/usr/lib is full) is text, as is one starting with //.
func commandLine(prompt string) (name, args string, ok bool) {
	p := strings.TrimSpace(prompt)
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") {
		return "", "", false
	}
	name, args, _ = strings.Cut(p[1:], " ")
	if name == "" {
		return "", "", false
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == ':') {
			return "", "", false
		}
	}
	return name, strings.TrimSpace(args), true
}

// commandResultLine is the JSON line of a command's result.
type commandResultLine struct {
	Type    string                 `json:"type"`
	Command string                 `json:"command"`
	Result  protocol.CommandResult `json:"result"`
}

// command runs the prompt as a command when it is one and returns the
// prompt to submit: the command's own, "" when it asks for none, or the
// prompt itself when it is not a command (a leading // becomes /).
func (r *evalRun) command(ctx context.Context) (string, error) {
	name, args, ok := commandLine(r.prompt)
	if !ok {
		if p := strings.TrimLeft(r.prompt, " \t\n"); strings.HasPrefix(p, "//") {
			return p[1:], nil
		}
		return r.prompt, nil
	}
	res, err := r.sess.RunCommand(ctx, protocol.RunCommandParams{Name: name, Arguments: args})
	if err != nil {
		return "", cmdError(r.cmd, fmt.Errorf("/%s: %w (start the prompt with // to send it to the model as text)", name, unprefixed{err}))
	}
	if r.json {
		b, err := json.Marshal(commandResultLine{Type: "command_result", Command: name, Result: res})
		if err != nil {
			return "", err
		}
		_, err = r.out.Write(append(b, '\n'))
		if err == nil {
			err = r.out.Flush()
		}
		if err != nil {
			return "", fmt.Errorf("eval: write the output: %w", err)
		}
	} else if text := strings.TrimSpace(model.TextOf(res.Content)); text != "" {
		fmt.Fprintf(r.out, "/%s: %s\n", name, textout.Safe(text))
		if err := r.out.Flush(); err != nil {
			return "", fmt.Errorf("eval: write the output: %w", err)
		}
	}
	r.commandOnly = res.Prompt == ""
	return res.Prompt, nil
}
