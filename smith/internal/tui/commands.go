package tui

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/runtime"
)

// builtin is a command the interactive mode runs itself.
type builtin struct {
	name, args, help string
	run              func(a *App, args string)
}

// builtins are the interactive mode's own commands; plugin commands
// (protocol.Command) follow them in completion and help.
var builtins []builtin

func init() {
	builtins = []builtin{
		{"help", "", "keys and commands", (*App).cmdHelp},
		{"new", "", "start a new session (the next prompt names it)", (*App).cmdNew},
		{"resume", "[NAME|ID]", "open another session (a picker without an argument)", (*App).cmdResume},
		{"model", "[MODEL]", "change the model (a picker without an argument)", (*App).cmdModel},
		{"thinking", "LEVEL", "change the thinking level: off, low, medium, high, default", (*App).cmdThinking},
		{"tree", "", "the session tree: jump to any entry, branch from it (with a summary of the branch left: ctrl+b), fork or label it", (*App).cmdTree},
		{"fork", "[NAME]", "copy this session up to here into a new one and continue there", (*App).cmdFork},
		{"label", "ENTRY TEXT", "label an entry of the session tree", (*App).cmdLabel},
		{"compact", "[instructions]", "summarize the older conversation to free context (esc aborts)", (*App).cmdCompact},
		{"snapshot", "[NOTE]", "record the files now, your edits included, so /undo and /redo cover them", (*App).cmdSnapshot},
		{"undo", "[--force]", "put the files back as they were before the last turn that changed them", (*App).cmdUndo},
		{"redo", "[--force]", "bring back what /undo took back", (*App).cmdRedo},
		{"rewind", "[N] [--force]", "put the files and the conversation back to before turn N (default: the last turn)", (*App).cmdRewind},
		{"diff", "[N|EFFECT]", "what turn N, or one write or edit (its effect id), changed in the files (default: the last turn, against the files now)", (*App).cmdDiff},
		{"copy", "", "copy the last answer to the clipboard", func(a *App, _ string) { a.copyLast() }},
		{"session", "", "this session's name, id, file and working directory", (*App).cmdSession},
		{"quit", "", "quit Smith (the session is kept)", func(a *App, _ string) { a.quit = true }},
	}
}

// command runs a /command line (without the slash).
func (a *App) command(line string) {
	name, args, _ := strings.Cut(strings.TrimSpace(line), " ")
	args = strings.TrimSpace(args)
	if name == "exit" {
		name = "quit"
	}
	for _, b := range builtins {
		if b.name == name {
			b.run(a, args)
			return
		}
	}
	for _, c := range a.commands {
		if c.Name == name {
			a.pluginCommand(c, args)
			return
		}
	}
	a.tr.add(&item{kind: kindError, text: fmt.Sprintf("unknown command /%s; /help lists the commands (start the line with // to send it as text)", name)})
	a.view.Follow()
}

// pluginCommand runs a command a plugin contributes; its text is shown,
// and a prompt it returns is submitted.
func (a *App) pluginCommand(c protocol.Command, args string) {
	modelName := a.pendingModel
	a.do(func() func() {
		s, sub, err := a.workerSession(c.Name, modelName)
		var res protocol.CommandResult
		if err == nil {
			res, err = s.RunCommand(a.ctx, protocol.RunCommandParams{Name: c.Name, Arguments: args})
		}
		return func() {
			if sub != nil {
				a.adopt(s, sub)
			}
			if err != nil {
				a.tr.add(&item{kind: kindError, text: "/" + c.Name + ": " + trimRuntime(err.Error())})
				return
			}
			if text := model.TextOf(res.Content); strings.TrimSpace(text) != "" {
				a.tr.add(&item{kind: kindInfo, text: text})
			}
			if res.Prompt != "" {
				a.submit(res.Prompt, protocol.DeliverPrompt)
			}
		}
	})
}

func (a *App) info(text string) {
	a.tr.add(&item{kind: kindInfo, text: text})
	a.view.Follow()
}

func (a *App) cmdHelp(string) {
	var sb strings.Builder
	sb.WriteString("Keys\n")
	for _, k := range keyHelp {
		fmt.Fprintf(&sb, "  %-22s %s\n", a.keys.names(k.act), k.text)
	}
	sb.WriteString("  shift+enter, ctrl+j       a new line in the input\n")
	sb.WriteString("  up, down                  previous and next input (on the first and last line)\n")
	sb.WriteString("  mouse: wheel scrolls; drag selects and copies\n\nCommands\n")
	for _, b := range builtins {
		fmt.Fprintf(&sb, "  /%-21s %s\n", strings.TrimSpace(b.name+" "+b.args), b.help)
	}
	for _, c := range a.commands {
		fmt.Fprintf(&sb, "  /%-21s %s (%s)\n", strings.TrimSpace(c.Name+" "+c.ArgumentHint), c.Description, c.Plugin)
	}
	sb.WriteString("\nKeys can be rebound in smith.kdl (tui { keys { ACTION \"KEY\" } }); see smith --help.")
	a.info(sb.String())
}

// switchTo shows s (nil: none until the next prompt) instead of the
// current session, which is closed.
func (a *App) switchTo(s *runtime.Session) {
	old := a.sess
	a.attach(s)
	a.do(func() func() {
		a.wsess = s
		if old != nil && old != s {
			_ = old.Close(a.ctx)
		}
		return nil
	})
}

func (a *App) idle(what string) bool {
	if a.busy {
		a.setFlash(what + " waits until Smith is done: esc aborts the current work")
		return false
	}
	return true
}

func (a *App) cmdNew(string) {
	if !a.idle("/new") {
		return
	}
	a.switchTo(nil)
	a.info("new session: the next prompt starts it")
}

func (a *App) cmdResume(args string) {
	if !a.idle("/resume") {
		return
	}
	if args == "" {
		a.openResume()
		return
	}
	a.openSession(args)
}

// openSession opens the session ref names and shows it.
func (a *App) openSession(ref string) {
	a.do(func() func() {
		s, err := a.rt.OpenSession(a.ctx, ref)
		return func() {
			if err != nil {
				a.tr.add(&item{kind: kindError, text: "/resume " + ref + ": " + trimRuntime(err.Error())})
				return
			}
			a.switchTo(s)
		}
	})
}

func (a *App) cmdModel(args string) {
	if args == "" {
		a.openModels()
		return
	}
	a.setModel(protocol.SetModelParams{Model: args})
}

func (a *App) cmdThinking(args string) {
	if args == "" {
		a.tr.add(&item{kind: kindError, text: "/thinking needs a level: off, low, medium, high or default"})
		return
	}
	a.setModel(protocol.SetModelParams{Thinking: args})
}

// setModel changes the session's model; before the session exists the
// choice waits for it (and is checked then).
func (a *App) setModel(p protocol.SetModelParams) {
	if !a.idle("changing the model") {
		return
	}
	if a.sess == nil && p.Model != "" {
		a.pendingModel, a.model = p.Model, p.Model
		a.info("model: " + p.Model + " (from the first prompt)")
		return
	}
	a.do(func() func() {
		var err error
		s := a.wsess
		if s == nil {
			err = fmt.Errorf("start a session with a prompt first")
		} else {
			err = s.SetModel(a.ctx, p)
		}
		return func() {
			if err != nil {
				a.tr.add(&item{kind: kindError, text: "model: " + trimRuntime(err.Error())})
				return
			}
			m := s.Model()
			a.model, a.thinking = m.Name, m.Thinking
			a.info("model: " + strings.TrimSpace(m.Name+" "+m.Thinking))
		}
	})
}

func (a *App) cmdTree(string) {
	if a.sess == nil {
		a.setFlash("no session yet: the tree starts with the first prompt")
		return
	}
	if !a.idle("/tree") {
		return
	}
	a.openTree()
}

func (a *App) cmdFork(args string) {
	if a.sess == nil || !a.idle("/fork") {
		return
	}
	a.fork("", args)
}

// fork forks the session at entry (the selected one when "") and shows the
// fork.
func (a *App) fork(at, name string) {
	s := a.sess
	a.do(func() func() {
		f, err := s.Fork(a.ctx, protocol.ForkParams{At: at, Name: name})
		return func() {
			if err != nil {
				a.tr.add(&item{kind: kindError, text: "/fork: " + trimRuntime(err.Error())})
				return
			}
			a.switchTo(f)
			a.info("forked into session " + sessionLabel(f.Info()))
		}
	})
}

func (a *App) cmdLabel(args string) {
	ref, text, _ := strings.Cut(args, " ")
	if a.sess == nil || ref == "" {
		a.tr.add(&item{kind: kindError, text: "/label needs an entry and a label: /label ENTRY TEXT (pick the entry in /tree with ctrl+l)"})
		return
	}
	s := a.sess
	a.do(func() func() {
		err := s.Label(a.ctx, ref, strings.TrimSpace(text))
		return func() {
			if err != nil {
				a.tr.add(&item{kind: kindError, text: "/label: " + trimRuntime(err.Error())})
				return
			}
			a.info("labelled " + ref)
		}
	})
}

// cmdCompact compacts the session's context now, with the arguments as
// the summary's instructions; esc aborts it.
func (a *App) cmdCompact(args string) {
	if a.sess == nil {
		a.setFlash("/compact: no session yet, so nothing to compact")
		return
	}
	if !a.idle("/compact") {
		return
	}
	s := a.sess
	a.do(func() func() {
		_, err := s.Compact(a.ctx, protocol.CompactParams{Instructions: strings.TrimSpace(args)})
		return func() {
			// The compaction_end event reports what it did or why it
			// failed; an error it does not cover (nothing to compact,
			// the session busy) is shown here.
			if err != nil && (errors.Is(err, runtime.ErrUsage) || errors.Is(err, runtime.ErrBusy)) {
				a.tr.add(&item{kind: kindError, text: "/compact: " + trimRuntime(err.Error())})
				a.view.Follow()
			}
		}
	})
}

func (a *App) cmdSession(string) {
	if a.sess == nil {
		a.info("no session yet: the first prompt starts one")
		return
	}
	i := a.sess.Info()
	a.info(fmt.Sprintf("session %s\n  id   %s\n  file %s\n  cwd  %s\nresume it with: smith --resume %s", sessionLabel(i), i.ID, i.Path, i.Cwd, sessionLabel(i)))
}

// commandNames lists every command for completion: built-in first.
func (a *App) commandNames() []cmdEntry {
	var out []cmdEntry
	for _, b := range builtins {
		out = append(out, cmdEntry{name: b.name, args: b.args, help: b.help})
	}
	for _, c := range a.commands {
		if !slices.ContainsFunc(out, func(e cmdEntry) bool { return e.name == c.Name }) {
			out = append(out, cmdEntry{name: c.Name, args: c.ArgumentHint, help: c.Description})
		}
	}
	return out
}

type cmdEntry struct{ name, args, help string }
