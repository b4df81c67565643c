package effect

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/sessionfmt"
)

// Options configures a [Journal]. The zero Options means the defaults.
type Options struct {
	// MaxInputBytes bounds an intent's canonical input; default 64 KiB.
	MaxInputBytes int
	// MaxOutputBytes bounds a completion's output; longer output is cut and
	// flagged OutputTruncated. Default 1 MiB.
	MaxOutputBytes int
	// Now returns the time used for effect ids; default time.Now. Ids are
	// strictly increasing in the process even when Now stands still or steps
	// back (see sessionfmt.NewIDAt).
	Now func() time.Time
}

// Outcome is what an effect function reports.
type Outcome struct {
	// Mutation is the effect's mutation state. Empty means applied when Err
	// is nil and unknown otherwise: an effect that failed without saying
	// what it did is never presented as not applied.
	Mutation model.Mutation
	// Output is the effect's output (bounded by the journal).
	Output []byte
	// Err is the effect's failure, if any.
	Err error
}

// Journal runs effects under the durable state machine of the package doc.
// It is safe for concurrent use.
type Journal struct {
	store   Store
	opts    Options
	mu      sync.Mutex
	running map[string]Intent
	failed  error
}

// Open recovers store and returns a journal over it. Every intent in store
// without a completion is completed as unknown with Recovered set (and
// returned, in intent order); none is retried.
func Open(ctx context.Context, store Store, opts Options) (*Journal, []Completion, error) {
	if opts.MaxInputBytes <= 0 {
		opts.MaxInputBytes = 64 << 10
	}
	if opts.MaxOutputBytes <= 0 {
		opts.MaxOutputBytes = 1 << 20
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	j := &Journal{store: store, opts: opts, running: make(map[string]Intent)}
	recs, err := store.Records(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("effect: read journal records for recovery: %w", err)
	}
	done := make(map[string]bool)
	for _, r := range recs {
		if c, ok := r.(Completion); ok {
			done[c.ID] = true
		}
	}
	var recovered []Completion
	for _, r := range recs {
		in, ok := r.(Intent)
		if !ok || done[in.ID] {
			continue
		}
		done[in.ID] = true
		c := Completion{ID: in.ID, Mutation: model.MutationUnknown, Recovered: true,
			Error: fmt.Sprintf("no completion was recorded for this %s effect (the process ended while it ran); it may or may not have happened and is not retried", in.Kind)}
		if err := store.Append(ctx, c); err != nil {
			return nil, recovered, fmt.Errorf("effect: record recovered completion of effect %s: %w", in.ID, err)
		}
		recovered = append(recovered, c)
	}
	return j, recovered, nil
}

// Effect is an effect whose intent is durable. Complete it exactly once.
type Effect struct {
	j      *Journal
	intent Intent
	once   sync.Once
}

// Intent returns the recorded intent (with its id and canonical input).
func (e *Effect) Intent() Intent { return e.intent }

// Begin makes the intent durable and returns the running effect. On any
// error the effect must not run: the intent is invalid or over the bound,
// the store failed to record it, the journal has failed, or ctx is already
// cancelled (then nothing is recorded).
func (j *Journal) Begin(ctx context.Context, in Intent) (*Effect, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("effect: %s effect not started: %w", in.Kind, err)
	}
	if in.Kind == "" {
		return nil, errors.New("effect: intent has no kind; set Intent.Kind, such as \"fs.read\"")
	}
	canon, err := canonical(in.Input)
	if err != nil {
		return nil, fmt.Errorf("effect: %s intent input is not valid JSON: %w", in.Kind, err)
	}
	if len(canon) > j.opts.MaxInputBytes {
		return nil, fmt.Errorf("effect: %s intent input is %d bytes, over the %d-byte bound; pass a smaller input (for example a path instead of content)", in.Kind, len(canon), j.opts.MaxInputBytes)
	}
	in.Input = canon
	j.mu.Lock()
	if j.failed != nil {
		j.mu.Unlock()
		return nil, fmt.Errorf("effect: %s effect not started: %w", in.Kind, j.failed)
	}
	if in.ID == "" {
		in.ID = sessionfmt.NewIDAt(j.opts.Now()).String()
	}
	if _, dup := j.running[in.ID]; dup {
		j.mu.Unlock()
		return nil, fmt.Errorf("effect: effect id %s is already running", in.ID)
	}
	j.running[in.ID] = in
	j.mu.Unlock()
	if err := j.store.Append(context.WithoutCancel(ctx), in); err != nil {
		j.mu.Lock()
		delete(j.running, in.ID)
		j.mu.Unlock()
		return nil, fmt.Errorf("effect: record intent of %s effect %s: %w; the effect was not run", in.Kind, in.ID, err)
	}
	return &Effect{j: j, intent: in}, nil
}

// CompletionError reports that a completion could not be recorded. Mutation
// is the best known mutation state, which the record failed to keep.
type CompletionError struct {
	ID       string
	Mutation model.Mutation
	Err      error
}

// Error names the effect, its best known state and the recording failure.
func (e *CompletionError) Error() string {
	return fmt.Sprintf("effect: record completion of effect %s (best known state: %s): %v; the journal accepts no more effects", e.ID, e.Mutation, e.Err)
}

// Unwrap returns the recording failure.
func (e *CompletionError) Unwrap() error { return e.Err }

// Complete records how the effect ended. A second call returns an error and
// records nothing. A failure to record is terminal for the journal and is
// returned as a *[CompletionError] carrying the best known mutation state.
func (e *Effect) Complete(o Outcome) (Completion, error) {
	c := Completion{ID: e.intent.ID, Mutation: o.Mutation, Output: o.Output}
	if o.Err != nil {
		c.Error = o.Err.Error()
	}
	switch c.Mutation {
	case model.MutationApplied, model.MutationNotApplied, model.MutationUnknown:
	case "":
		c.Mutation = model.MutationApplied
		if o.Err != nil {
			c.Mutation = model.MutationUnknown
		}
	default:
		c.Error = fmt.Sprintf("effect reported an invalid mutation state %q; recorded as unknown. %s", o.Mutation, c.Error)
		c.Mutation = model.MutationUnknown
	}
	if len(c.Output) > e.j.opts.MaxOutputBytes {
		c.Output, c.OutputTruncated = c.Output[:e.j.opts.MaxOutputBytes], true
	}
	first := false
	e.once.Do(func() { first = true })
	if !first {
		return c, fmt.Errorf("effect: effect %s was already completed", e.intent.ID)
	}
	err := e.j.store.Append(context.Background(), c)
	e.j.mu.Lock()
	defer e.j.mu.Unlock()
	delete(e.j.running, e.intent.ID)
	if err != nil {
		cerr := &CompletionError{ID: c.ID, Mutation: c.Mutation, Err: err}
		if e.j.failed == nil {
			e.j.failed = fmt.Errorf("%w (effect %s: %v)", ErrJournalFailed, c.ID, err)
		}
		return c, cerr
	}
	return c, nil
}

// Run begins the effect, runs fn unless the intent could not be recorded,
// and completes it with fn's outcome. A panic in fn is completed as unknown
// and re-raised.
func (j *Journal) Run(ctx context.Context, in Intent, fn func(ctx context.Context) Outcome) (Completion, error) {
	e, err := j.Begin(ctx, in)
	if err != nil {
		return Completion{Mutation: model.MutationNotApplied, Error: err.Error()}, err
	}
	if ctx.Err() != nil {
		return e.Complete(Outcome{Mutation: model.MutationNotApplied,
			Err: fmt.Errorf("cancelled after the intent was recorded, before the effect began: %w", context.Cause(ctx))})
	}
	defer func() {
		if p := recover(); p != nil {
			_, _ = e.Complete(Outcome{Mutation: model.MutationUnknown, Err: fmt.Errorf("panic: %v", p)})
			panic(p)
		}
	}()
	return e.Complete(fn(ctx))
}

// Running returns the intents begun but not yet completed, for diagnostics.
func (j *Journal) Running() []Intent {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := make([]Intent, 0, len(j.running))
	for _, in := range j.running {
		out = append(out, in)
	}
	return out
}

// canonical re-encodes a JSON value with sorted object keys and no
// insignificant space; empty input means null.
func canonical(b []byte) (json.RawMessage, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return json.RawMessage("null"), nil
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err == nil {
		return nil, errors.New("trailing data after the JSON value")
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(out.Bytes(), "\n"), nil
}

// Done is a completed effect: its intent and its completion.
type Done struct {
	Intent     Intent
	Completion Completion
}

// Completed returns the completed effects in the store whose kind is one of
// kinds (every kind when none is given), earlier processes' included, in
// completion order — the order their outcomes were recorded. Intents still
// running have no completion and are left out. It reads the store on every
// call; it is safe for concurrent use.
func (j *Journal) Completed(ctx context.Context, kinds ...string) ([]Done, error) {
	recs, err := j.store.Records(ctx)
	if err != nil {
		return nil, fmt.Errorf("effect: read the journal's records: %w", err)
	}
	intents := make(map[string]Intent)
	var out []Done
	for _, r := range recs {
		switch r := r.(type) {
		case Intent:
			if len(kinds) == 0 || slices.Contains(kinds, r.Kind) {
				intents[r.ID] = r
			}
		case Completion:
			if in, ok := intents[r.ID]; ok {
				delete(intents, r.ID)
				out = append(out, Done{Intent: in, Completion: r})
			}
		}
	}
	return out, nil
}
