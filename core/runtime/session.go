package runtime

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/smith-agent/smith/core/agent"
	"github.com/smith-agent/smith/core/catalog"
	"github.com/smith-agent/smith/core/config"
	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/sessionfmt"
)

// Session is one open session: its file (this process is its one writer
// until Close), its effect journal, its agent and its event stream. Its
// methods are safe for concurrent use. Events of every run are published
// to the subscriptions ([Session.Subscribe]) in sequence order.
type Session struct {
	rt      *Runtime
	hub     *hub
	ctx     context.Context // ends when the session closes
	cancel  context.CancelFunc
	created bool // by this process: removed at Close if nothing was recorded

	mu      sync.Mutex
	file    *sessionfmt.File
	info    session.Info
	store   *session.Store
	journal *effect.Journal
	binding *plugin.Binding
	// bindingGen is the generation binding was made from; stale is set
	// when the plugins are reloaded during a run (see Runtime.Reload).
	bindingGen *plugin.Generation
	stale      bool
	agent      *agent.Agent
	bound      *boundModel
	// modelName and thinking are the session's model as chosen: its last
	// model_change, else the configuration's.
	modelName string
	thinking  catalog.Level
	recorded  bool // modelName/thinking are the last model_change entry
	// secretsRecorded maps the secrets the session registered to the
	// fingerprint recorded (secret_registration entries).
	secretsRecorded map[string]string
	system          string     // the resolved system prompt; "" until the first run
	prompted        bool       // system is resolved
	between         idleEvents // the events between runs, on their way to the handlers
	run             *agent.Run
	pumped          chan struct{} // closed when the active run's events are published
	last            protocol.AgentEnd
	runs            int
	closed          bool
	// carrySteer and carryFollow are input queued on an agent that was
	// dropped (a branch was selected), for the next one.
	carrySteer, carryFollow []model.UserMessage
	// vcs takes the file snapshots around each turn.
	vcs snapshotting
	// compaction is the state of context compaction (compact.go).
	compaction compactState
	// ui serves the plugins' notifications and confirmations (confirm.go).
	ui sessionUI
}

// ErrBusy is returned for an operation that needs the session idle while a
// run is active.
var ErrBusy = errors.New("runtime: the session is running; wait until it settles, abort it, or queue the input with delivery steer or follow_up")

// NewSessionOptions names a new session.
type NewSessionOptions struct {
	// Name names the session; "" derives a name from NameHint.
	Name string
	// NameHint is text (such as the first prompt) the name is derived
	// from when Name is "": its first words ("fix the bug" →
	// "fix-the-bug"), numbered when taken.
	NameHint string
}

// NewSession creates a session and opens it. Its file holds nothing until
// the first input is submitted; a session closed with nothing recorded is
// removed.
func (rt *Runtime) NewSession(ctx context.Context, o NewSessionOptions) (*Session, error) {
	d, err := rt.sessionDir()
	if err != nil {
		return nil, err
	}
	name := o.Name
	if name == "" && !rt.cfg.Ephemeral {
		if name, err = autoName(d, o.NameHint); err != nil {
			return nil, err
		}
	}
	f, info, err := d.Create(name)
	if err != nil {
		return nil, usagef("%w", err)
	}
	return rt.attach(ctx, f, info, true)
}

// OpenSession opens the session ref names: a session name, a full id, or
// an unambiguous id prefix of at least 4 characters.
func (rt *Runtime) OpenSession(ctx context.Context, ref string) (*Session, error) {
	d, err := rt.sessionDir()
	if err != nil {
		return nil, err
	}
	info, err := d.Find(ref)
	if err != nil {
		return nil, usagef("%w", err)
	}
	return rt.openInfo(ctx, info)
}

// OpenSessionFile opens the session file at path, which may lie outside
// the sessions directory (a copy, a repaired file); its forks are created
// in the sessions directory.
func (rt *Runtime) OpenSessionFile(ctx context.Context, path string) (*Session, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, usagef("runtime: session file %q: %w", path, err)
	}
	st, err := os.Stat(abs)
	if err != nil || st.IsDir() {
		return nil, usagef("runtime: session file %q does not exist or is not a file; list sessions with 'smith session ls'", path)
	}
	stem := strings.TrimSuffix(filepath.Base(abs), ".session")
	id, name, _ := strings.Cut(stem, "--")
	return rt.openInfo(ctx, session.Info{ID: id, Name: name, Path: abs, ModTime: st.ModTime()})
}

// OpenOrCreateSession opens the session called name, or creates it.
func (rt *Runtime) OpenOrCreateSession(ctx context.Context, name string) (*Session, error) {
	d, err := rt.sessionDir()
	if err != nil {
		return nil, err
	}
	all, err := d.List()
	if err != nil {
		return nil, err
	}
	for _, in := range all {
		if in.Name == name {
			return rt.openInfo(ctx, in)
		}
	}
	return rt.NewSession(ctx, NewSessionOptions{Name: name})
}

// ContinueSession opens the most recently active session of this working
// directory; a session of another directory is never picked. With none, it
// is an error wrapping [ErrUsage] saying so.
func (rt *Runtime) ContinueSession(ctx context.Context) (*Session, error) {
	infos, err := rt.Sessions(ctx)
	if err != nil {
		return nil, err
	}
	var best *protocol.SessionInfo
	for i := range infos {
		in := &infos[i]
		if in.Cwd != rt.cfg.Cwd || in.Damaged != "" {
			continue
		}
		if best == nil || !in.LastActivity.Before(best.LastActivity) {
			best = in
		}
	}
	if best == nil {
		return nil, usagef("runtime: no session of %s to continue (sessions live in %s); start a new one, or resume another directory's with --resume ID", rt.cfg.Cwd, rt.paths.Sessions())
	}
	return rt.openInfo(ctx, session.Info{ID: best.ID, Name: best.Name, Path: best.Path})
}

func (rt *Runtime) openInfo(ctx context.Context, info session.Info) (*Session, error) {
	f, err := sessionfmt.Open(info.Path, nil)
	if err != nil {
		return nil, fmt.Errorf("runtime: open session %s: %w (when another smith is running in this session, wait for it to finish or choose another session)", display(info), err)
	}
	return rt.attach(ctx, f, info, false)
}

// attach makes an open session file a Session: its store, its journal
// (interrupted effects of an earlier process recover as unknown, each a
// notice) and its model as last recorded.
func (rt *Runtime) attach(ctx context.Context, f *sessionfmt.File, info session.Info, created bool) (*Session, error) {
	fail := func(err error) (*Session, error) {
		_ = f.Close()
		return nil, err
	}
	rt.mu.Lock()
	closed := rt.closed
	rt.mu.Unlock()
	if closed {
		return fail(errors.New("runtime: the runtime is closed"))
	}
	store, err := session.New(f)
	if err != nil {
		return fail(err)
	}
	store.SetRedactor(&rt.secrets.set)
	// Recording must not be cut short by the caller's cancellation.
	j, recovered, err := effect.Open(context.WithoutCancel(ctx), store, effect.Options{})
	if err != nil {
		return fail(fmt.Errorf("runtime: recover the effects of session %s: %w", display(info), err))
	}
	sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s := &Session{rt: rt, hub: &hub{}, ctx: sctx, cancel: cancel, created: created, file: f, info: info, store: store, journal: j}
	s.ui.s = s
	s.vcs.notes = make(chan string, 4)
	s.secretsRecorded = map[string]string{}
	for _, r := range session.SecretRegistrations(f.Session()) {
		s.secretsRecorded[r.Name] = r.Fingerprint
	}
	s.modelName, s.thinking = rt.conf.Model.Value, rt.conf.Thinking.Value
	if mc, ok := session.LastModelChange(f.Session()); ok {
		s.modelName, s.thinking, s.recorded = mc.Model, catalog.Level(mc.Thinking), true
		// A flag, this run's explicit choice, beats what the session
		// recorded; defaults (smith.kdl, SMITH_MODEL) do not.
		if rt.conf.Model.Source.Layer == config.LayerFlag {
			s.modelName = rt.conf.Model.Value
		}
		if rt.conf.Thinking.Source.Layer == config.LayerFlag {
			s.thinking = rt.conf.Thinking.Value
		}
		s.recorded = s.modelName == mc.Model && string(s.thinking) == mc.Thinking
	}
	if rep := f.Report(); rep != nil && (len(rep.Skipped) > 0 || rep.Orphans > 0) {
		// A gap in the middle of the history: the model is shown what is
		// left, joined across it, and must not be thought to see it all.
		s.notice(protocol.NoticeWarning, fmt.Sprintf("session %s is damaged: %d part(s) of its history could not be read and are left out of what the model sees; 'smith session repair %s' rewrites the file with the rest", display(info), len(rep.Skipped), ref(info)))
	}
	for _, c := range recovered {
		s.notice(protocol.NoticeWarning, fmt.Sprintf("effect %s of an earlier run was interrupted; it is recorded as unknown (it may or may not have happened) and was not retried", c.ID))
	}
	rt.mu.Lock()
	rt.sessions[s] = true
	rt.mu.Unlock()
	return s, nil
}

// Info describes the session.
func (s *Session) Info() protocol.SessionInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	var si protocol.SessionInfo
	s.store.View(func(sess *sessionfmt.Session) { si = s.rt.describe(s.info, sess, s.file.Path()) })
	return si
}

// Subscribe returns a new subscription to the session's events. The first
// subscription also receives the events published before it (notices of
// opening the session).
func (s *Session) Subscribe() *Subscription { return s.hub.subscribe() }

// notice publishes a notice; only while no run is active (a run's own
// notices travel in its stream).
func (s *Session) notice(level protocol.NoticeLevel, text string) {
	s.publishIdle(protocol.Notice{Seq: protocol.Seq{N: s.hub.next()}, Level: level, Text: text})
}

// prepare makes the session ready for a run: the tools bound to its
// journal, the model resolved and the agent made. Called with s.mu held.
func (s *Session) prepare(ctx context.Context) error {
	if s.stale {
		// Reloaded as the last run settled: bind the new generation.
		_ = s.unbind()
	}
	if s.agent != nil {
		return nil
	}
	if err := s.bindTools(ctx); err != nil {
		return err
	}
	bm, err := s.rt.bindModel(ctx, s.modelName, s.thinking, s.journal, s.info.ID)
	if err != nil {
		return err
	}
	if len(bm.codecs) > 0 {
		s.rt.plugins.prepare(bm.codecs...)
	}
	history, err := session.BranchContext(s.file.Session(), s.file.Session().Selected())
	if err != nil {
		return fmt.Errorf("runtime: read session %s: %w", display(s.info), err)
	}
	a, err := agent.New(agent.Config{Provider: bm.provider, Model: bm.modelID, Cwd: s.rt.cfg.Cwd, Tools: s.gateTools(s.binding.Tools()),
		Recorder: s.store, History: history.Messages, Sequence: s.hub.next, Compactor: compactor{s},
		MaxCost: s.rt.conf.MaxCost.Value, MaxCostSource: s.rt.conf.MaxCost.Source.String(),
		Handlers: s.binding.Handlers(), Publisher: publisher{s}})
	if err != nil {
		return err
	}
	for _, m := range s.carrySteer {
		a.Steer(m)
	}
	for _, m := range s.carryFollow {
		a.FollowUp(m)
	}
	s.carrySteer, s.carryFollow = nil, nil
	s.agent, s.bound = a, bm
	for _, n := range bm.notices {
		s.notice(protocol.NoticeWarning, n)
	}
	return nil
}

// bindTools binds the generation's tools (and prompts and commands) to
// the session's journal, confined to the working directory and the
// configured roots, bash's commands in the configured sandbox. Called with
// s.mu held.
func (s *Session) bindTools(ctx context.Context) error {
	if s.stale {
		_ = s.unbind()
	}
	if s.binding != nil {
		return nil
	}
	gen, err := s.rt.Generation(ctx)
	if err != nil {
		return err
	}
	roots := s.rt.roots()
	s.rt.registerKnown(gen)
	b, err := gen.Bind(plugin.Effects{Journal: s.journal, Roots: roots, Cwd: s.rt.cfg.Cwd, Ignore: s.rt.conf.IgnorePatterns(),
		Sandbox: s.rt.sandboxPolicy(roots), Secrets: &s.rt.secrets.set, SecretAllowed: s.rt.allowedInCommand, UI: &s.ui, VCS: pluginVCS{s}, State: pluginState{s}, Contents: sessionContents{s}})
	if err != nil {
		return err
	}
	s.binding, s.bindingGen = b, gen
	s.rt.plugins.bound(gen)
	return nil
}

// unbind releases the session's tool binding (and the agent and model
// made with it), so that the next run binds the published generation; a
// run's queued input carries over. Called with s.mu held, no run active.
func (s *Session) unbind() error {
	s.resetAgent()
	s.bound, s.stale = nil, false
	if s.binding == nil {
		return nil
	}
	err := s.binding.Close()
	s.rt.plugins.released(s.bindingGen)
	s.binding, s.bindingGen = nil, nil
	return err
}

// Prepare resolves the session's model and binds its tools now rather than
// at the first input, so a frontend can report a misconfigured model (an
// error wrapping [ErrUsage]) before it reads the prompt.
func (s *Session) Prepare(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	return s.prepare(ctx)
}

var errClosed = errors.New("runtime: the session is closed")

// Submit delivers input under its delivery policy (see
// [protocol.Delivery]): a prompt starts a run (refused with [ErrBusy]
// while one is active); steering and follow-up input is queued for the
// active run, or starts a run when none is active. The run goes on after
// Submit returns; its events reach the subscriptions and [Session.Wait]
// waits for it to settle.
func (s *Session) Submit(ctx context.Context, p protocol.PromptParams) error {
	msg, err := userMessage(p)
	if err != nil {
		return err
	}
	delivery, err := protocol.ParseDelivery(string(p.Delivery))
	if err != nil {
		return usagef("runtime: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	if s.running() {
		switch delivery {
		case protocol.DeliverSteer:
			s.agent.Steer(msg)
			return nil
		case protocol.DeliverFollowUp:
			s.agent.FollowUp(msg)
			return nil
		}
		return ErrBusy
	}
	if err := s.prepare(ctx); err != nil {
		return err
	}
	return s.start(ctx, msg)
}

// start starts a run of the prepared agent with the prompt messages (none:
// from the queued input) and publishes its events. Called with s.mu held,
// no run active.
func (s *Session) start(ctx context.Context, prompt ...model.UserMessage) error {
	if err := s.begin(ctx); err != nil {
		return err
	}
	s.startSnapshot()
	run, err := s.agent.Start(s.ctx, prompt...)
	if err != nil {
		return err
	}
	s.runs++
	s.run = run
	pumped := make(chan struct{})
	s.pumped = pumped
	go s.pump(run, pumped)
	return nil
}

// running reports whether a run's events are still being published.
// Called with s.mu held.
func (s *Session) running() bool {
	if s.pumped == nil {
		return false
	}
	select {
	case <-s.pumped:
		return false
	default:
		return true
	}
}

// pump publishes a run's events in order and records how it ended. The
// run is over (Wait has returned, the session is idle) before Settled is
// published: a subscriber that sees Settled may act on the session at once.
func (s *Session) pump(run *agent.Run, done chan struct{}) {
	settled := false
	for ev := range run.Events() {
		if _, ok := ev.(protocol.Settled); ok && !settled {
			settled = true
			s.settle(run, done)
		}
		s.hub.publish(ev)
	}
	if !settled {
		s.settle(run, done)
	}
	s.publishLater()
}

// settle records how the run ended and marks the session idle.
func (s *Session) settle(run *agent.Run, done chan struct{}) {
	end := run.Wait()
	s.endSnapshot()
	s.mu.Lock()
	s.last = end
	if s.stale {
		// The plugins were reloaded during the run, which finished on the
		// generation it started on; the next run binds the new one.
		_ = s.unbind()
	}
	s.mu.Unlock()
	if end.Reason == protocol.EndAborted || end.Reason == protocol.EndRecordFailed || end.Reason == "" {
		s.rt.mu.Lock()
		s.rt.unclean = true
		s.rt.mu.Unlock()
	}
	close(done)
}

// begin records what a session's first run in this process needs before
// its input: the metadata of a new session, the model when it is not the
// last one recorded, and the system prompt with the project's
// instructions. Called with s.mu held.
func (s *Session) begin(ctx context.Context) error {
	if err := s.beginFile(); err != nil {
		return err
	}
	if !s.recorded {
		if err := s.store.RecordModelChange(session.ModelChange{Model: s.modelName, Thinking: string(s.thinking)}); err != nil {
			return fmt.Errorf("runtime: record the session's model: %w", err)
		}
		s.recorded = true
		s.publishIdle(protocol.ModelChange{Seq: protocol.Seq{N: s.hub.next()}, Model: s.modelName, Thinking: string(s.thinking)})
	}
	if !s.prompted {
		system, err := s.resolvePrompt(ctx)
		if err != nil {
			return err
		}
		if err := s.agent.Retarget(s.bound.provider, s.bound.modelID, system); err != nil {
			return err
		}
		s.system, s.prompted = system, true
	}
	return nil
}

// beginFile records the metadata of a session that holds nothing yet: its
// first entry, which the effects of resolving the prompt are caused by.
// Called with s.mu held.
func (s *Session) beginFile() error {
	if s.file.Session().Len() > 0 {
		return s.recordSecrets()
	}
	if err := s.store.RecordMetadata(session.Metadata{Cwd: s.rt.cfg.Cwd, Smith: s.rt.cfg.Version}); err != nil {
		return fmt.Errorf("runtime: record the session's metadata: %w", err)
	}
	return s.recordSecrets()
}

// Abort aborts the active run, if any: the provider stream and any running
// tool see their context cancelled; every tool call still gets its result.
// A compaction in progress ([Session.Compact]) is aborted too.
func (s *Session) Abort() {
	s.mu.Lock()
	run := s.run
	active := s.running()
	stop := s.compaction.stop
	s.mu.Unlock()
	if stop != nil {
		stop()
	}
	if run != nil && active {
		run.Abort()
	}
}

// Wait blocks until the active run (if any) has settled and its events are
// published, or ctx ends, and returns how the last run ended (a zero
// AgentEnd when none ran).
func (s *Session) Wait(ctx context.Context) (protocol.AgentEnd, error) {
	s.mu.Lock()
	done := s.pumped
	s.mu.Unlock()
	if done != nil {
		select {
		case <-done:
		case <-ctx.Done():
			return protocol.AgentEnd{}, ctx.Err()
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last, nil
}

// Close aborts an active run and waits for it to settle (bounded by ctx),
// closes the session file, ends the subscriptions and, for a session this
// process created in which nothing was recorded, removes the file. It is
// idempotent.
func (s *Session) Close(ctx context.Context) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	run, done, stop := s.run, s.pumped, s.compaction.stop
	s.mu.Unlock()
	if stop != nil {
		stop()
	}
	if done != nil {
		select {
		case <-done:
		default:
			if run != nil {
				run.Abort()
			}
			select {
			case <-done:
			case <-ctx.Done():
			}
		}
	}
	s.cancel()
	s.hub.close()
	var errs []error
	errs = append(errs, s.unbind())
	empty := s.file.Session().Len() == 0
	errs = append(errs, s.file.Close())
	if s.created && empty {
		errs = append(errs, removeEmpty(s.info.Path))
	}
	s.rt.mu.Lock()
	delete(s.rt.sessions, s)
	s.rt.mu.Unlock()
	return errors.Join(errs...)
}

// userMessage builds the user message of p.
func userMessage(p protocol.PromptParams) (model.UserMessage, error) {
	if strings.TrimSpace(p.Text) == "" && len(p.Images) == 0 {
		return model.UserMessage{}, usagef("runtime: the input is empty; say what the agent should do")
	}
	var m model.UserMessage
	if p.Text != "" {
		m.Content = append(m.Content, model.Text{Text: p.Text})
	}
	for _, img := range p.Images {
		m.Content = append(m.Content, img)
	}
	return m, nil
}

// display names a session for messages: its name and id.
func display(info session.Info) string {
	if info.Name == "" {
		return info.ID
	}
	return info.Name + " (" + info.ID + ")"
}
