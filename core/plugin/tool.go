package plugin

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/smith-agent/smith/core/agent"
	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/internal/hostfs"
	"github.com/smith-agent/smith/core/internal/hostops"
	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/core/internal/sandbox"
	"github.com/smith-agent/smith/core/internal/secret"
	"github.com/smith-agent/smith/core/model"
)

// DefaultOutputLimit bounds a tool call's output when Effects.OutputLimit
// is zero: 64 KiB. The tools cut their own output earlier, with a notice.
const DefaultOutputLimit = 64 << 10

// Effects is where a generation's tools act: the session's journal and the
// directories they may touch.
type Effects struct {
	// Journal records every effect; required.
	Journal *effect.Journal
	// Roots are the directories file and process effects are confined to
	// (symbolic links resolved); at least one is required.
	Roots []string
	// Ignore are gitignore-style patterns find, grep and ls skip in
	// addition to .gitignore files.
	Ignore []string
	// Env is the environment of processes; nil means the process's.
	Env []string
	// Cwd is the working directory of calls that carry none (agent.Call.Cwd
	// empty); absolute. Empty means the first root.
	Cwd string
	// OutputLimit bounds one call's output in bytes; zero means
	// DefaultOutputLimit.
	OutputLimit int
	// Sandbox confines the processes the tools start (bash); its empty
	// Roots mean Roots. The zero Policy is no sandbox.
	Sandbox sandbox.Policy
	// Secrets, when set, are the registered secrets: the tools' results
	// and streamed output carry references ${secret:NAME} in place of
	// their plaintext and encodings, and no process inherits a variable
	// holding one. Default none.
	Secrets *secret.Set
	// SecretAllowed says which of Secrets a process may receive by
	// reference in its command (restored to plaintext there only). nil
	// allows none.
	SecretAllowed func(name string) bool
	// UI reaches the person using the frontend for the plugins granted
	// "ui"; nil means nobody can answer: confirmations are refused with
	// no-user and notifications go to the plugin log.
	UI UI
	// VCS reaches the session's file snapshots for the plugins granted
	// "vcs"; nil means there are none (a replay): their calls fail with
	// the fault nothing.
	VCS VCS
	// State keeps the durable state of the plugins granted "state"; nil
	// means none is kept (a replay): their calls fail with unavailable.
	State State
	// Contents keeps what each applied write and edit replaced and left,
	// and the worktree around each command (their effects name the ids),
	// so that one effect can be shown as what it changed; nil keeps none.
	// Its methods must be safe for concurrent use.
	Contents interface {
		Keep(b []byte) (string, error)
		Tree(ctx context.Context) (string, error)
	}
}

// Binding is a generation's tools attached to one set of [Effects]. It
// remembers what its tools read and wrote — and, from the journal, what the
// tools of earlier processes over the same session did — so an edit of a
// file that changed since it was read is refused. It is safe for concurrent
// use.
type Binding struct {
	gen   *Generation
	ops   *hostops.Ops
	ui    UI
	vcs   VCS
	state State
	cwd   string
	// hs are the generation's handlers, made at the first child call's
	// decision (compose.go).
	hsOnce sync.Once
	hs     agent.Handlers
	limit  uint32
	tools  []agent.Tool
}

// Bind attaches the generation's tools to e. Close the Binding when the
// session ends.
//
// When e.Journal already holds file effects (a resumed session), Bind
// seeds the stale-edit memory from them, in the order they completed: an
// applied read, write or edit remembers the file's content hash; a write or
// edit of unknown outcome (interrupted) makes the file's content unknown,
// so it must be read again before it can be edited.
func (g *Generation) Bind(e Effects) (*Binding, error) {
	if e.Journal == nil {
		return nil, errors.New("plugin: Effects.Journal is nil; tools record every effect, so pass the session's journal")
	}
	fs, err := hostfs.New(e.Roots...)
	if err != nil {
		return nil, fmt.Errorf("plugin: Effects.Roots: %w", err)
	}
	fs.SetIgnore(e.Ignore...)
	cwd := e.Cwd
	if cwd == "" {
		cwd = fs.Roots()[0]
	}
	if !filepath.IsAbs(cwd) {
		fs.Close()
		return nil, fmt.Errorf("plugin: Effects.Cwd %q is not absolute; resolve it once, at the frontend", cwd)
	}
	limit := e.OutputLimit
	if limit <= 0 {
		limit = DefaultOutputLimit
	}
	ops := &hostops.Ops{FS: fs, Journal: e.Journal, Env: e.Env, Sandbox: e.Sandbox, Secrets: e.Secrets, SecretAllowed: e.SecretAllowed, Contents: e.Contents}
	if err := ops.Recall(context.Background()); err != nil {
		fs.Close()
		return nil, fmt.Errorf("plugin: %w; without them an edit of a file changed since it was read would not be refused, so the tools are not bound: reopen the session, or start a new one", err)
	}
	b := &Binding{gen: g, ops: ops, ui: e.UI, vcs: e.VCS, state: e.State, cwd: cwd, limit: uint32(limit)}
	for _, t := range g.tools {
		b.tools = append(b.tools, &pluginTool{b: b, t: t})
	}
	return b, nil
}

// Tools returns the bound tools, in the generation's order.
func (b *Binding) Tools() []agent.Tool { return b.tools }

// Close releases the allowed roots. Calls still running fail.
func (b *Binding) Close() error {
	if err := b.ops.FS.Close(); err != nil {
		return fmt.Errorf("plugin: release the allowed roots: %w", err)
	}
	return nil
}

// pluginTool is one contributed tool as an agent.Tool.
type pluginTool struct {
	b *Binding
	t *toolDef
}

func (p *pluginTool) Definition() model.ToolDefinition { return p.t.def }

// Execute validates the arguments, then invokes the plugin's tool export on
// a pooled instance. A tool fault is an error result shown to the model;
// an error is returned only when the host itself failed.
func (p *pluginTool) Execute(ctx context.Context, call *agent.Call) (agent.Result, error) {
	if err := p.t.schema.Validate(call.Arguments); err != nil {
		return errorResult(fmt.Sprintf("invalid arguments for %s: %v; fix them to match the tool's schema and call it again", p.t.def.Name, err), model.MutationNotApplied), nil
	}
	l := p.t.plugin
	if err := l.awaitWarm(ctx); err != nil {
		return agent.Result{Mutation: model.MutationNotApplied}, err
	}
	pool, err := l.instances(ctx)
	if err != nil {
		return agent.Result{Mutation: model.MutationNotApplied}, err
	}
	actx := ctx
	if _, ok := ctx.Value(childKey{}).(child); ok {
		// A child waits a bounded time: its own callers may hold every
		// instance of the plugin.
		var cancel context.CancelFunc
		actx, cancel = context.WithTimeout(ctx, childAcquireWait)
		defer cancel()
	}
	in, err := pool.Acquire(actx, l.art.Name)
	if err != nil {
		if actx != ctx && ctx.Err() == nil {
			return errorResult(fmt.Sprintf("exhausted: every instance of plugin %s is busy (the calls up this chain of children may hold them); make fewer nested calls", l.art.Name), model.MutationNotApplied), nil
		}
		return agent.Result{Mutation: model.MutationNotApplied}, fmt.Errorf("plugin: %q: %w", l.art.Name, err)
	}
	defer in.Release()
	cwd := call.Cwd
	if cwd == "" {
		cwd = p.b.cwd
	}
	st := &callState{ops: p.b.ops, ui: p.b.ui, vcs: p.b.vcs, state: p.b.state, callID: call.ID, binding: p.b}
	st.inherit(ctx)
	ictx := context.WithValue(hostops.WithInvocation(ctx, hostops.Invocation{Cwd: cwd, CallID: call.ID, Generation: p.b.gen.id}), callKey{}, st)
	// A command's output reaches the caller as it runs: the run's
	// tool_execution_update events, MCP's progress.
	ictx = hostops.WithOutput(ictx, outputText(call.Update))
	out, err := pluginabi.Bind(in).InvokeTool(ictx, pluginabi.ToolCall{ID: call.ID, Name: p.t.def.Name, Arguments: string(call.Arguments)},
		pluginabi.InvokeOptions{OutputLimit: p.b.outputLimit(l), WorkingDirectory: cwd})
	var fault pluginabi.ToolFault
	switch {
	case errors.As(err, &fault):
		return errorResult(p.b.redact(faultText(fault)), st.mutation(false)), nil
	case err != nil:
		return agent.Result{IsError: true, Mutation: st.mutation(false)}, fmt.Errorf("plugin: %q tool %q: %w", l.art.Name, p.t.def.Name, budgetFix(l.art.Name, err))
	}
	res := agent.Result{Mutation: st.mutation(true)}
	for _, c := range boundOutput(out.Content, p.b.outputLimit(l), l.art.Name) {
		switch c.Case {
		case pluginabi.ContentBlockText:
			res.Content = append(res.Content, model.Text{Text: p.b.redact(c.Text)})
		case pluginabi.ContentBlockImage:
			res.Content = append(res.Content, model.Image{MediaType: c.Image.MediaType, Data: c.Image.Data})
		}
	}
	return res, nil
}

// redact returns text with the registered secrets replaced by references.
func (b *Binding) redact(text string) string {
	if b.ops.Secrets == nil {
		return text
	}
	return b.ops.Secrets.RedactString(text)
}

func errorResult(text string, m model.Mutation) agent.Result {
	return agent.Result{IsError: true, Mutation: m, Content: []model.Content{model.Text{Text: text}}}
}

// faultText is the message of a tool fault as the model sees it.
func faultText(f pluginabi.ToolFault) string {
	switch f.Case {
	case pluginabi.ToolFaultUnknownTool:
		return "unknown tool " + f.UnknownTool
	case pluginabi.ToolFaultInvalidArguments:
		return "invalid arguments: " + f.InvalidArguments
	case pluginabi.ToolFaultEffectFailure:
		return f.EffectFailure
	case pluginabi.ToolFaultUnknown:
		return f.Unknown
	}
	return f.Error()
}

// handlers returns the generation's handlers, made once.
func (b *Binding) handlers() agent.Handlers {
	b.hsOnce.Do(func() { b.hs = b.Handlers() })
	return b.hs
}
