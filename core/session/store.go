package session

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/sessionfmt"
)

// Store writes a conversation and its effects into one open session file.
// It implements [agent.Recorder] and [effect.Store]. It is safe for
// concurrent use; the file must not be appended to by anything else while
// the Store uses it.
type Store struct {
	mu    sync.Mutex
	f     *sessionfmt.File
	calls map[string]sessionfmt.ID // tool call id → entry of its assistant message
	now   func() time.Time
	// redactor, when set, redacts each entry's key and content (SetRedactor).
	redactor Redactor
}

// New returns a Store appending to f. It indexes the tool calls of the
// messages already in f, so effects can name them as causal parents.
func New(f *sessionfmt.File) (*Store, error) {
	s := &Store{f: f, calls: make(map[string]sessionfmt.ID), now: time.Now}
	sess := f.Session()
	for i := range sess.Len() {
		if sess.Kind(i) != sessionfmt.KindMessage {
			continue
		}
		e := sess.Entry(i)
		m, err := decodeMessage(e.Content)
		if err != nil {
			return nil, fmt.Errorf("session: entry %s of %s: %w", e.ID, f.Path(), err)
		}
		if am, ok := m.(model.AssistantMessage); ok {
			for _, c := range am.ToolCalls() {
				s.calls[c.ID] = e.ID
			}
		}
	}
	return s, nil
}

// append adds an entry under the selected leaf, with a new id unless e
// has one.
func (s *Store) append(e sessionfmt.Entry, d sessionfmt.Durability) error {
	sess := s.f.Session()
	if i := sess.Selected(); i >= 0 {
		e.Parent = sess.ID(i)
	}
	if e.ID.IsZero() {
		e.ID = sessionfmt.NewID()
	}
	e.Time = s.now()
	if err := redactEntry(s.redactor, &e); err != nil {
		return err
	}
	return s.f.Append(e, d)
}

// Record appends a message entry (agent.Recorder).
func (s *Store) Record(ctx context.Context, m model.Message) error {
	content, err := encodeMessage(m)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e := sessionfmt.Entry{Kind: sessionfmt.KindMessage, Content: content}
	if err := s.append(e, sessionfmt.Buffered); err != nil {
		return err
	}
	if am, ok := m.(model.AssistantMessage); ok {
		id := s.f.Session().ID(s.f.Session().Selected())
		for _, c := range am.ToolCalls() {
			s.calls[c.ID] = id
		}
	}
	return nil
}

type intentContent struct {
	Kind       string `cbor:"kind"`
	Parent     string `cbor:"parent"`
	Generation uint64 `cbor:"generation"`
	Input      string `cbor:"input"`
}

type completionContent struct {
	Mutation        string `cbor:"mutation"`
	Output          []byte `cbor:"output,omitempty"`
	OutputTruncated bool   `cbor:"output_truncated,omitempty"`
	Error           string `cbor:"error,omitempty"`
	Recovered       bool   `cbor:"recovered,omitempty"`
}

// ChildCallKind is the effect kind of a plugin's child tool call
// (capability compose): its effect id is the child's call id, which the
// child's own effects name as their causal parent.
const ChildCallKind = "tool.child"

// Append appends an effect record (effect.Store): an intent durably
// (fsynced), a completion written at once.
func (s *Store) Append(ctx context.Context, r effect.Record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, err := sessionfmt.ParseID(r.EffectID())
	if err != nil {
		return fmt.Errorf("session: effect id: %w", err)
	}
	switch r := r.(type) {
	case effect.Intent:
		cause, err := s.cause(r.Parent)
		if err != nil {
			return err
		}
		content, err := sessionfmt.EncodeContent(intentContent{Kind: r.Kind, Parent: r.Parent, Generation: r.Generation, Input: string(r.Input)})
		if err != nil {
			return err
		}
		e := sessionfmt.Entry{ID: sessionfmt.NewID(), Kind: sessionfmt.KindEffectIntent, Pair: id, Cause: cause, Content: content}
		if err := s.append(e, sessionfmt.Durable); err != nil {
			return err
		}
		if r.Kind == ChildCallKind {
			// A child call's id is its effect's: the child's own effects
			// name it as their parent, as a tool call's name its id.
			s.calls[r.EffectID()] = e.ID
		}
		return nil
	case effect.Completion:
		content, err := sessionfmt.EncodeContent(completionContent{Mutation: string(r.Mutation), Output: r.Output,
			OutputTruncated: r.OutputTruncated, Error: r.Error, Recovered: r.Recovered})
		if err != nil {
			return err
		}
		return s.append(sessionfmt.Entry{Kind: sessionfmt.KindEffectCompletion, Pair: id, Content: content}, sessionfmt.Buffered)
	}
	return fmt.Errorf("session: unknown effect record %T", r)
}

// cause resolves an intent's causal parent: a tool call id, the id of an
// entry already in the session, or, when the intent names none (such as a
// provider exchange, which no tool call causes), the selected leaf.
func (s *Store) cause(parent string) (sessionfmt.ID, error) {
	if id, ok := s.calls[parent]; ok {
		return id, nil
	}
	if id, err := sessionfmt.ParseID(parent); err == nil && s.f.Session().Index(id) >= 0 {
		return id, nil
	}
	if parent == "" || strings.Contains(parent, ":") {
		// An effect of the run itself (a provider exchange) or of the host
		// on its behalf ("prompt:system", "context:…", "command:…": the
		// name stays in the intent) is caused by the conversation as it
		// stands: the selected leaf.
		if i := s.f.Session().Selected(); i >= 0 {
			return s.f.Session().ID(i), nil
		}
		return sessionfmt.ID{}, errors.New("session: effect intent has no causal parent and the session has no entry yet; set Intent.Parent to the tool call id or the causing entry's id, or record the prompt first")
	}
	return sessionfmt.ID{}, fmt.Errorf("session: effect intent's causal parent %q is neither a recorded tool call nor an entry of %s; record the assistant message first", parent, s.f.Path())
}

// Records returns every effect record in the file, in file order
// (effect.Store).
func (s *Store) Records(ctx context.Context) ([]effect.Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess := s.f.Session()
	var out []effect.Record
	for i := range sess.Len() {
		e := sess.Entry(i)
		switch sess.Kind(i) {
		case sessionfmt.KindEffectIntent:
			var c intentContent
			if err := sessionfmt.DecodeContent(e.Content, &c); err != nil {
				return nil, fmt.Errorf("session: effect intent %s: %w", e.Pair, err)
			}
			out = append(out, effect.Intent{ID: e.Pair.String(), Parent: c.Parent, Generation: c.Generation, Kind: c.Kind, Input: []byte(c.Input)})
		case sessionfmt.KindEffectCompletion:
			var c completionContent
			if err := sessionfmt.DecodeContent(e.Content, &c); err != nil {
				return nil, fmt.Errorf("session: effect completion %s: %w", e.Pair, err)
			}
			out = append(out, effect.Completion{ID: e.Pair.String(), Mutation: model.Mutation(c.Mutation), Output: c.Output,
				OutputTruncated: c.OutputTruncated, Error: c.Error, Recovered: c.Recovered})
		}
	}
	return out, nil
}

// Messages decodes every message on the selected branch of sess, oldest
// first: the full transcript, compacted or not (what 'smith session show'
// prints). What the model is shown of the branch is [BranchContext].
func Messages(sess *sessionfmt.Session) ([]model.Message, error) {
	if sess.Selected() < 0 {
		return nil, nil
	}
	var out []model.Message
	for _, i := range sess.History(sess.Selected(), nil) {
		if sess.Kind(i) != sessionfmt.KindMessage {
			continue
		}
		e := sess.Entry(i)
		m, err := decodeMessage(e.Content)
		if err != nil {
			return nil, fmt.Errorf("session: entry %s: %w", e.ID, err)
		}
		out = append(out, m)
	}
	return out, nil
}

// View calls fn with the file's in-memory session while no record is
// being appended, so fn sees a consistent session. fn must not append
// through the Store (it would deadlock) and must not keep the session.
func (s *Store) View(fn func(*sessionfmt.Session)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fn(s.f.Session())
}

// Do calls fn with the open file while no record is being appended, for
// operations that read it as a whole (a fork). The same rules as View
// apply.
func (s *Store) Do(fn func(*sessionfmt.File) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fn(s.f)
}
