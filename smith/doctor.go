package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/smith-agent/smith/core/plugin"
	"github.com/urfave/cli/v3"
)

// doctorCommand is `smith doctor`: helpers that put things right with the
// agent's help, always asked for.
func doctorCommand() *cli.Command {
	return &cli.Command{
		Name:  "doctor",
		Usage: "let the agent put things right: migrate a plugin off deprecated items",
		Commands: []*cli.Command{{
			Name:      "deprecator",
			ArgsUsage: "PATH",
			Usage:     "check a plugin package, then ask the agent to refactor it off the deprecated and removed items it uses, with Smith's migration guidance",
			Description: "The agent works in the current directory under its usual permissions (edits and commands\n" +
				"are asked for or refused as smith.kdl says); nothing changes without it. Not every migration\n" +
				"is automatic: check the result with 'smith plugin check PATH'.",
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "model", Usage: "the `MODEL` to ask (default: the configured one)"},
				&cli.BoolFlag{Name: "print", Usage: "print the prompt instead of running it"},
			},
			Action: deprecator,
		}},
	}
}

func deprecator(ctx context.Context, cmd *cli.Command) error {
	c, err := checkPlugin(ctx, cmd, "doctor deprecator")
	if err != nil {
		return err
	}
	prompt, ok := deprecatorPrompt(c)
	w := cmd.Root().Writer
	if !ok {
		c.print(w)
		fmt.Fprintf(w, "nothing to migrate: %s uses no deprecated or removed item of smith:plugin@%s\n", c.path, plugin.WorldVersion)
		if !c.ok() {
			return &exitError{code: exitFailure, err: fmt.Errorf("doctor deprecator: %s does not load for other reasons; fix what is listed above", c.path)}
		}
		return nil
	}
	if cmd.Bool("print") {
		_, err := fmt.Fprint(w, prompt)
		return err
	}
	args := []string{"smith"}
	if h := cmd.String("home"); h != "" {
		args = append(args, "--home", h)
	}
	args = append(args, "eval", "--session", "deprecator-"+c.name)
	if m := cmd.String("model"); m != "" {
		args = append(args, "--model", m)
	}
	if code := run(ctx, append(args, "--", prompt), cmd.Root().Reader, w, cmd.Root().ErrWriter); code != exitOK {
		return &exitError{code: code, err: fmt.Errorf("doctor deprecator: the agent's run ended with exit %d (its session: deprecator-%s)", code, c.name)}
	}
	return nil
}

// deprecatorPrompt is the request to the agent: each deprecated or
// removed item c found, with the official migration from the world's
// metadata. ok is false when there is nothing to migrate.
func deprecatorPrompt(c pluginCheck) (string, bool) {
	var b strings.Builder
	n := 0
	for _, f := range c.findings {
		d := f.Migration
		if d == nil {
			continue
		}
		if n == 0 {
			fmt.Fprintf(&b, "Refactor the Smith plugin %q (%s) off the items of Smith's plugin world (smith:plugin@%s) it uses that are deprecated or removed. "+
				"Here is Smith's official migration guidance for each, from the plugin reference (\"Deprecations and removals\"):\n", c.name, c.path, plugin.WorldVersion)
		}
		n++
		fmt.Fprintf(&b, "\n%d. `%s` (%s; used as %s): use `%s` instead.\n", n, d.Item, f.Text, f.Use, d.Replacement)
		if d.Reason != "" {
			fmt.Fprintf(&b, "   Why: %s\n", d.Reason)
		}
		fmt.Fprintf(&b, "   %s\n   Before:\n```\n%s\n```\n   After:\n```\n%s\n```\n", d.Steps, d.Before, d.After)
	}
	if n == 0 {
		return "", false
	}
	fmt.Fprintf(&b, "\nFind the plugin's source (beside %s, or where its plugin.kdl or build script says) and change only what these migrations need, keeping the plugin's behaviour. "+
		"Rebuild it, then run `smith plugin check %s` to confirm it no longer uses them. Where a migration cannot be done mechanically, stop and say what needs a person's decision instead of guessing.\n", c.path, c.path)
	return b.String(), true
}
