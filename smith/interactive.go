package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/smith-agent/smith/core/config"
	"github.com/smith-agent/smith/core/runtime"
	"github.com/smith-agent/smith/smith/internal/tui"
	"github.com/smith-agent/smith/termkit/screen"
	"github.com/smith-agent/smith/termkit/term"
	"github.com/urfave/cli/v3"
)

// interactiveFlags are the root command's own flags: the interactive
// mode's (`smith`, `smith "PROMPT"`, `smith --continue`, `smith --resume`).
func interactiveFlags() []cli.Flag {
	fs := append(configFlags(),
		&cli.StringFlag{Name: "cwd", Aliases: []string{"C"}, Usage: "working `DIR` the tools act in (default: the current directory)"},
		&cli.BoolFlag{Name: "continue", Aliases: []string{"c"}, Usage: "continue the most recently used session of this working directory"},
		&cli.BoolFlag{Name: "resume", Aliases: []string{"r"}, Usage: "resume a session: the one named by the argument (a name, an id or an id prefix of 4+ characters), or pick one"},
		&cli.StringFlag{Name: "session", Aliases: []string{"s"}, Usage: "use the session called `NAME`, or create it"},
		&cli.BoolFlag{Name: "no-mouse", Usage: "leave the mouse to the terminal (its own selection and scrolling) instead of Smith's wheel scrolling and drag-to-copy"},
		&cli.StringFlag{Name: "terminal", Usage: "override what the terminal was probed to support, as `LIST` of CAP=VALUE: sync-output, hyperlinks, kitty-keyboard, focus, bracketed-paste, grapheme-width, clipboard =on|off, colors=none|16|256|truecolor (smith.kdl: tui { terminal { … } })"},
		&cli.StringFlag{Name: "debug-frames", Usage: "append one line per drawn frame (size in bytes, time) to `FILE`"},
	)
	// The subcommands declare their own: these are the root's alone.
	for _, f := range fs {
		switch f := f.(type) {
		case *cli.BoolFlag:
			f.Local = true
		case *cli.StringFlag:
			f.Local = true
		}
	}
	return fs
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// interactive runs the TUI for a bare `smith` or `smith PROMPT…`.
func interactive(ctx context.Context, cmd *cli.Command) error {
	args := cmd.Args().Slice()
	resume := cmd.Bool("resume")
	var ref, prompt string
	switch {
	case resume && len(args) > 0:
		ref = args[0]
		prompt = strings.Join(args[1:], " ")
	default:
		prompt = strings.Join(args, " ")
	}
	if len(args) == 1 && !strings.ContainsAny(args[0], " \t\n") {
		if near := nearestCommand(cmd, args[0]); near != "" {
			return usageErrorf("unknown command %q; did you mean %q? To send it as a prompt, quote it with a space or use smith -- %q", args[0], near, args[0])
		}
	}
	choice := sessionChoice{name: cmd.String("session"), resume: ref, cont: cmd.Bool("continue")}
	if err := choice.validate(); err != nil {
		return usageErrorf("%s", trimCmd(err.Error(), "eval: "))
	}
	in, out := os.Stdin, os.Stdout
	if !isTerminal(in) || !isTerminal(out) {
		if len(args) == 0 && !resume && !choice.cont && choice.name == "" {
			return cli.ShowRootCommandHelp(cmd)
		}
		if len(args) == 1 && !strings.ContainsAny(args[0], " \t\n") {
			return usageErrorf("unknown command %q; run 'smith --help' for the list of commands (on a terminal, smith PROMPT opens the interactive mode with that prompt)", args[0])
		}
		return usageErrorf("the interactive mode needs a terminal on standard input and output; for scripts use smith eval %q (or smith -p); smith --help lists the commands", prompt)
	}
	cwd, err := workDir(cmd, cmd.String("cwd"))
	if err != nil {
		return err
	}
	// The runtime's notes (a plugin skipped, a project file ignored) would
	// tear the screen on stderr: the transcript shows them.
	var notesMu sync.Mutex
	var notes []string
	note := func(n string) {
		notesMu.Lock()
		defer notesMu.Unlock()
		notes = append(notes, n)
	}
	rt, err := openRuntime(ctx, cmd, runtimeOptions{cwd: cwd, plugins: true, note: note, answers: true})
	if err != nil {
		return err
	}
	defer func() { _ = rt.Close(context.WithoutCancel(ctx)) }()
	rt.StartCatalogRefresh(ctx)
	var sess *runtime.Session
	if choice.name != "" || choice.resume != "" || choice.cont {
		if sess, err = openEvalSession(ctx, rt, choice, ""); err != nil {
			return cmdError(cmd, err)
		}
	}
	var debug *os.File
	if p := cmd.String("debug-frames"); p != "" {
		if debug, err = os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600); err != nil {
			return usageErrorf("--debug-frames %q: %v; pass a file Smith can write", p, err)
		}
		defer debug.Close()
	}
	ui := rt.Configuration().UI
	theme, keys, err := tui.Configure(ui)
	if err != nil {
		return usageErrorf("%v", err)
	}
	caps, err := terminalFlag(cmd.String("terminal"), ui.Terminal)
	if err != nil {
		return err
	}
	override, err := terminalOverrides(caps)
	if err != nil {
		return usageErrorf("%v", err)
	}
	mouse := !cmd.Bool("no-mouse") && (!ui.Mouse.IsSet() || ui.Mouse.Value)
	t, err := term.Open(term.Options{Mouse: mouse, Override: override,
		// The terminal is restored at once; main's own handler then cancels
		// ctx, and the run ends in order (its results recorded).
		OnSignal: func(os.Signal) {}})
	if err != nil {
		return fmt.Errorf("cannot take over the terminal: %w; for scripts use smith eval", err)
	}
	defer term.Recover(t)
	o := tui.Options{Runtime: rt, Session: sess, Prompt: prompt, PickSession: resume && ref == "",
		Notes: func() []string {
			notesMu.Lock()
			defer notesMu.Unlock()
			out := notes
			notes = nil
			return out
		},
		Term: t, Render: t.Caps().RendererOptions(), Clipboard: nativeClipboard, Theme: theme, Keys: keys}
	if debug != nil {
		o.Debug = debug
	}
	s, runErr := tui.Run(ctx, o)
	closeErr := t.Close()
	if s != nil {
		info := s.Info()
		name := info.Name
		if name == "" {
			name = info.ID
		}
		if info.Entries > 0 || s.Stats().Responses > 0 {
			fmt.Fprintf(cmd.Root().Writer, "Session %s — continue it with: smith --resume %s\n", name, name)
		}
	}
	if errors.Is(context.Cause(ctx), errInterrupted) {
		runErr = nil
	}
	return errors.Join(runErr, closeErr)
}

// terminalFlag lays --terminal CAP=VALUE,… over the smith.kdl terminal
// settings (on/off are written #true/#false as in smith.kdl).
func terminalFlag(list string, kdl map[string]config.Setting[string]) (map[string]config.Setting[string], error) {
	out := maps.Clone(kdl)
	if out == nil {
		out = map[string]config.Setting[string]{}
	}
	src := config.Source{Layer: config.LayerFlag, Name: "terminal"}
	for _, kv := range strings.Split(list, ",") {
		if strings.TrimSpace(kv) == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, usageErrorf("--terminal %q: write CAP=VALUE, such as sync-output=off or colors=256", kv)
		}
		v = strings.TrimSpace(v)
		switch v {
		case "on", "true", "yes":
			v = "#true"
		case "off", "false", "no":
			v = "#false"
		}
		out[strings.TrimSpace(k)] = config.Setting[string]{Value: v, Source: src}
	}
	return out, nil
}

// terminalOverrides turns the tui { terminal { … } } settings into a
// capability override; an unknown capability or value names its source.
func terminalOverrides(set map[string]config.Setting[string]) (func(*term.Caps), error) {
	type flag struct {
		name string
		dst  func(*term.Caps) *bool
	}
	flags := []flag{
		{"sync-output", func(c *term.Caps) *bool { return &c.SyncOutput }},
		{"hyperlinks", func(c *term.Caps) *bool { return &c.Hyperlinks }},
		{"kitty-keyboard", func(c *term.Caps) *bool { return &c.KittyKeyboard }},
		{"focus", func(c *term.Caps) *bool { return &c.Focus }},
		{"bracketed-paste", func(c *term.Caps) *bool { return &c.BracketedPaste }},
		{"grapheme-width", func(c *term.Caps) *bool { return &c.GraphemeWidth }},
		{"clipboard", func(c *term.Caps) *bool { return &c.Clipboard }},
	}
	profiles := map[string]screen.Profile{"none": screen.NoColor, "16": screen.ANSI16, "256": screen.ANSI256, "truecolor": screen.TrueColor}
	var fs []func(*term.Caps)
	for _, name := range slices.Sorted(maps.Keys(set)) {
		s := set[name]
		if name == "colors" {
			p, ok := profiles[s.Value]
			if !ok {
				return nil, fmt.Errorf("%s: terminal colors %q is not one of none, 16, 256, truecolor", s.Source, s.Value)
			}
			fs = append(fs, func(c *term.Caps) { c.Profile = p })
			continue
		}
		i := slices.IndexFunc(flags, func(f flag) bool { return f.name == name })
		if i < 0 {
			var names []string
			for _, f := range flags {
				names = append(names, f.name)
			}
			return nil, fmt.Errorf("%s: %q is not a terminal capability; the capabilities are colors, %s", s.Source, name, strings.Join(names, ", "))
		}
		if s.Value != "#true" && s.Value != "#false" {
			return nil, fmt.Errorf("%s: terminal %s %q is not on or off (#true or #false in smith.kdl)", s.Source, name, s.Value)
		}
		on, dst := s.Value == "#true", flags[i].dst
		fs = append(fs, func(c *term.Caps) { *dst(c) = on })
	}
	return func(c *term.Caps) {
		for _, f := range fs {
			f(c)
		}
	}, nil
}

// nearestCommand is the command name within two edits of word (but not
// word itself), or "".
func nearestCommand(cmd *cli.Command, word string) string {
	var names []string
	for _, c := range cmd.Root().Commands {
		for _, n := range append([]string{c.Name}, c.Aliases...) {
			if n == word {
				return ""
			}
			if n != "help" && n != "h" { // "hello" is a prompt
				names = append(names, n)
			}
		}
	}
	return config.Nearest(word, names)
}
