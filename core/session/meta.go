package session

import (
	"fmt"

	"github.com/smith-agent/smith/core/model"

	"github.com/smith-agent/smith/sessionfmt"
)

// Metadata is what a session records about where it was made, in a
// replay_metadata entry at its start: the working directory its tools act
// in and the Smith version that wrote it.
type Metadata struct {
	Cwd   string `cbor:"cwd"`
	Smith string `cbor:"smith,omitempty"`
}

// ModelChange is a model_change entry: the model as chosen (an alias, a
// group or PROVIDER/MODEL) and the thinking level ("" is the provider's
// default). A resumed session continues with its last one.
type ModelChange struct {
	Model    string `cbor:"model"`
	Thinking string `cbor:"thinking,omitempty"`
}

// RecordMetadata appends a replay_metadata entry.
func (s *Store) RecordMetadata(m Metadata) error {
	content, err := sessionfmt.EncodeContent(m)
	if err != nil {
		return fmt.Errorf("session: encode metadata: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.append(sessionfmt.Entry{Kind: sessionfmt.KindReplayMetadata, Content: content}, sessionfmt.Buffered)
}

// RecordModelChange appends a model_change entry.
func (s *Store) RecordModelChange(m ModelChange) error {
	content, err := sessionfmt.EncodeContent(m)
	if err != nil {
		return fmt.Errorf("session: encode model change: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.append(sessionfmt.Entry{Kind: sessionfmt.KindModelChange, Content: content}, sessionfmt.Buffered)
}

// SessionMetadata returns the session's metadata: that of its first
// replay_metadata entry carrying a working directory. ok is false for a
// session that recorded none (written before Smith recorded it).
func SessionMetadata(sess *sessionfmt.Session) (m Metadata, ok bool) {
	for i := range sess.Len() {
		if sess.Kind(i) != sessionfmt.KindReplayMetadata {
			continue
		}
		var v Metadata
		if sessionfmt.DecodeContent(sess.Entry(i).Content, &v) == nil && v.Cwd != "" {
			return v, true
		}
	}
	return Metadata{}, false
}

// LastModelChange returns the last model_change entry on the selected
// branch; ok is false when there is none.
func LastModelChange(sess *sessionfmt.Session) (m ModelChange, ok bool) {
	if sess.Selected() < 0 {
		return ModelChange{}, false
	}
	h := sess.History(sess.Selected(), nil)
	for k := len(h) - 1; k >= 0; k-- {
		i := h[k]
		if sess.Kind(i) != sessionfmt.KindModelChange {
			continue
		}
		var v ModelChange
		if err := sessionfmt.DecodeContent(sess.Entry(i).Content, &v); err == nil && v.Model != "" {
			return v, true
		}
	}
	return ModelChange{}, false
}

// EntryMessage decodes the message a message entry's content holds.
func EntryMessage(content []byte) (model.Message, error) { return decodeMessage(content) }

// RecordLabel appends a label entry naming the entry target; an empty
// label clears it.
func (s *Store) RecordLabel(target sessionfmt.ID, label string) error {
	content, err := sessionfmt.EncodeContent(map[string]string{})
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.append(sessionfmt.Entry{Kind: sessionfmt.KindLabel, Pair: target, Key: label, Content: content}, sessionfmt.Buffered)
}
