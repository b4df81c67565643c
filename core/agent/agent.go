package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/smith-agent/smith/core/protocol"

	"github.com/smith-agent/smith/core/internal/jsonschema"
	"github.com/smith-agent/smith/core/model"
)

// Recorder receives every completed conversation message, in order, before
// the agent emits its message_end. Record must have handed the message to
// durable storage (it survives a crash of the process) before returning
// nil; an error ends the run with [protocol.EndRecordFailed]. The
// context is never cancelled by an abort: the evidence of an aborted run is
// recorded too.
type Recorder interface {
	Record(ctx context.Context, m model.Message) error
}

// Config configures an [Agent]. Provider and Recorder are required.
type Config struct {
	// Provider answers the model requests.
	Provider model.Provider
	// Model is the model id passed in every request.
	Model string
	// System is the system prompt.
	System string
	// Cwd is the absolute working directory tool calls run in (the
	// invocation's, never the process's); "" leaves it to the tools.
	Cwd string
	// Tools are the tools the model may call; names must be unique.
	Tools []Tool
	// Recorder records the conversation.
	Recorder Recorder
	// History is the conversation to continue (for a resumed session).
	History []model.Message
	// MaxTurns ends a run after this many turns; 0 means no limit.
	MaxTurns int
	// MaxCost is a run's budget in billionths of a US dollar: the run ends
	// (protocol.EndMaxCost) before a provider request — a turn's or a
	// compaction's — once what it spent reaches it, or once a response's
	// cost is unknown. 0 means no budget. MaxCostSource names where it
	// was set ("flag --max-cost"), for the message.
	MaxCost       int64
	MaxCostSource string
	// EventBuffer is the capacity of a run's event channel; default 64.
	EventBuffer int
	// Sequence returns the next sequence number for an event; nil means a
	// counter of the agent's own. A caller that publishes events of its
	// own between runs passes its counter, so that both share one order.
	// It must be safe for concurrent use.
	Sequence func() uint64
	// AbortGrace is how long an aborted run waits for a tool or provider
	// stream that ignores cancellation before recording its outcome as
	// unknown and moving on; default 5s.
	AbortGrace time.Duration
	// Compactor, when set, compacts the history between rounds: before a
	// request it reports Due, and once after a request the provider
	// refused as too long for the context window (the request is then
	// sent again, once). Nil never compacts.
	Compactor Compactor
	// Handlers, when set, are the plugins' event handlers: each event a
	// handler wants is delivered to them as it is emitted, and the
	// actions they return apply at the next safe point (see
	// [Handlers]). Nil delivers nothing.
	Handlers Handlers
	// Publisher applies the reload and model-selection actions of the
	// handlers; nil rejects a batch holding one.
	Publisher Publisher
}

type toolEntry struct {
	tool   Tool
	def    model.ToolDefinition
	schema *jsonschema.Schema
}

// Agent runs conversations with one provider and one set of tools. It keeps
// the conversation history and the queued input between runs. At most one
// run is active at a time. Its methods are safe for concurrent use.
type Agent struct {
	cfg   Config
	tools map[string]*toolEntry
	names []string
	defs  []model.ToolDefinition

	mu       sync.Mutex
	history  []model.Message
	steer    []model.UserMessage
	followUp []model.UserMessage
	active   *Run
	runs     int
}

// New validates cfg and returns an idle agent. Every tool's schema is
// compiled here; an invalid schema is an error naming the tool.
func New(cfg Config) (*Agent, error) {
	if cfg.Provider == nil {
		return nil, errors.New("agent: Config.Provider is nil; pass the provider that answers model requests")
	}
	if cfg.Recorder == nil {
		return nil, errors.New("agent: Config.Recorder is nil; effects never run without a recording destination, so pass the session recorder")
	}
	if cfg.Cwd != "" && !filepath.IsAbs(cfg.Cwd) {
		return nil, fmt.Errorf("agent: Config.Cwd %q is not absolute; resolve it once, at the frontend", cfg.Cwd)
	}
	if cfg.EventBuffer <= 0 {
		cfg.EventBuffer = 64
	}
	if cfg.AbortGrace <= 0 {
		cfg.AbortGrace = 5 * time.Second
	}
	if cfg.Sequence == nil {
		var n atomic.Uint64
		cfg.Sequence = func() uint64 { return n.Add(1) }
	}
	a := &Agent{cfg: cfg, tools: make(map[string]*toolEntry), history: slices.Clone(cfg.History)}
	for i, t := range cfg.Tools {
		def := t.Definition()
		if def.Name == "" {
			return nil, fmt.Errorf("agent: tool %d (%T) has an empty name", i, t)
		}
		if _, dup := a.tools[def.Name]; dup {
			return nil, fmt.Errorf("agent: tool name %q is used twice (tool %d, %T); tool names must be unique", def.Name, i, t)
		}
		schema, err := jsonschema.Compile(def.Parameters)
		if err != nil {
			return nil, fmt.Errorf("agent: tool %q parameters schema: %w", def.Name, err)
		}
		var top struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(def.Parameters, &top) != nil || top.Type != "object" {
			return nil, fmt.Errorf("agent: tool %q parameters schema must be an object schema (type object); providers pass tool arguments as one JSON object", def.Name)
		}
		a.tools[def.Name] = &toolEntry{tool: t, def: def, schema: schema}
		a.names = append(a.names, def.Name)
		a.defs = append(a.defs, def)
	}
	slices.Sort(a.names)
	a.defs = slices.Clip(a.defs)
	return a, nil
}

// ErrRunActive is returned by [Agent.Start] while a run is active.
var ErrRunActive = errors.New("agent: a run is already active; wait for its settled event, or queue the input with Steer or FollowUp")

// Start begins a run with the prompt messages (and any queued steering
// input). Called after the active run's agent_end, it waits until that run
// has settled; before, it returns [ErrRunActive]. With no prompt, the run
// starts from queued input, steering first, else follow-up; with neither it is an error. ctx bounds the whole run;
// cancelling it aborts the run like [Run.Abort].
func (a *Agent) Start(ctx context.Context, prompt ...model.UserMessage) (*Run, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	// A previous run that has ended and is settling is waited for, so the
	// new run starts after its settled event.
	if err := a.awaitSettledLocked(); err != nil {
		return nil, err
	}
	if len(prompt) == 0 && len(a.steer) == 0 && len(a.followUp) == 0 {
		return nil, errors.New("agent: nothing to run: no prompt and no queued input")
	}
	a.runs++
	rctx, cancel := context.WithCancelCause(ctx)
	r := &Run{
		a:      a,
		ctx:    rctx,
		cancel: cancel,
		events: make(chan protocol.Event, a.cfg.EventBuffer),
		queued: make(chan struct{}, 1),
		done:   make(chan struct{}),
		number: a.runs,
		prompt: slices.Clone(prompt),
	}
	a.active = r
	go r.loop()
	return r, nil
}

// Retarget replaces the provider, the model id and the system prompt of
// the agent's later requests (the history and the queued input stay). It
// returns [ErrRunActive] while a run is active, before its agent_end; a
// run that has ended but not yet settled makes it wait, as [Agent.Start]
// does.
func (a *Agent) Retarget(p model.Provider, modelID, system string) error {
	if p == nil {
		return errors.New("agent: Retarget needs a provider; pass the one that answers model requests")
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if err := a.awaitSettledLocked(); err != nil {
		return err
	}
	a.cfg.Provider, a.cfg.Model, a.cfg.System = p, modelID, system
	return nil
}

// awaitSettledLocked returns [ErrRunActive] while a run is active, before
// its agent_end, and otherwise waits until a run that has ended has
// settled. Called with a.mu held; it is released while waiting.
func (a *Agent) awaitSettledLocked() error {
	for a.active != nil {
		prev := a.active
		if !prev.ended.Load() {
			return ErrRunActive
		}
		a.mu.Unlock()
		<-prev.done
		a.mu.Lock()
	}
	return nil
}

// Active reports whether a run is active (started and not yet settled).
func (a *Agent) Active() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.active != nil
}

// Steer queues input to be delivered after the current tool batch (or at
// the start of the next turn). During a run it emits a queue_update.
func (a *Agent) Steer(m model.UserMessage) { a.enqueue(&a.steer, m) }

// FollowUp queues input to be delivered when the agent would otherwise
// stop. During a run it emits a queue_update.
func (a *Agent) FollowUp(m model.UserMessage) { a.enqueue(&a.followUp, m) }

// SetSteer replaces the steering queue with ms (nil or empty clears it).
// During a run it emits a queue_update.
func (a *Agent) SetSteer(ms []model.UserMessage) { a.replace(&a.steer, ms) }

// SetFollowUp replaces the follow-up queue with ms (nil or empty clears
// it). During a run it emits a queue_update.
func (a *Agent) SetFollowUp(ms []model.UserMessage) { a.replace(&a.followUp, ms) }

func (a *Agent) replace(q *[]model.UserMessage, ms []model.UserMessage) {
	a.mu.Lock()
	*q = slices.Clone(ms)
	r := a.active
	a.mu.Unlock()
	r.signalQueued()
}

func (a *Agent) enqueue(q *[]model.UserMessage, m model.UserMessage) {
	a.mu.Lock()
	*q = append(*q, m)
	r := a.active
	a.mu.Unlock()
	r.signalQueued()
}

// signalQueued tells the active run r (if any) that the queue changed.
func (r *Run) signalQueued() {
	if r != nil {
		select {
		case r.queued <- struct{}{}:
		default: // a signal is already pending; it covers this change too
		}
	}
}

// Queued returns copies of the steering and follow-up queues.
func (a *Agent) Queued() (steer, followUp []model.UserMessage) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.steer), slices.Clone(a.followUp)
}

// Messages returns a copy of the conversation history.
func (a *Agent) Messages() []model.Message {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.history)
}

// cost sums the cost of every assistant message in the history and of
// what a compaction took out of it; unknown when any of them is unknown.
func (a *Agent) cost() model.Amount {
	total := model.Known(0)
	if c := a.cfg.Compactor; c != nil {
		total = c.PriorCost()
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, m := range a.history {
		if am, ok := m.(model.AssistantMessage); ok {
			total = total.Add(am.Usage.CostNanoUSD)
		}
	}
	return total
}
