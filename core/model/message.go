package model

import (
	"encoding/json"
	"fmt"
)

// Role names who produced a message.
type Role string

// The message roles.
const (
	RoleUser       Role = "user"
	RoleAssistant  Role = "assistant"
	RoleToolResult Role = "tool_result"
)

// Message is one conversation message: [UserMessage], [AssistantMessage] or
// [ToolResultMessage]. The set is closed. Messages are values; code that
// receives one must not modify its slices.
type Message interface {
	isMessage()
	// Role returns the message's role.
	Role() Role
}

// Mutation is what a tool invocation did to the world, as far as Smith knows.
type Mutation string

// The mutation states.
const (
	// MutationApplied: the effect ran to completion.
	MutationApplied Mutation = "applied"
	// MutationNotApplied: the effect did not run, or was rolled back.
	MutationNotApplied Mutation = "not_applied"
	// MutationUnknown: the effect may or may not have happened (it was cut
	// off mid-way, or its completion was never recorded).
	MutationUnknown Mutation = "unknown"
)

// UserMessage is input from the person (or a queued message delivered on
// their behalf).
type UserMessage struct {
	Content []Content `json:"content"`
}

// AssistantMessage is one complete provider response. Exactly one of Stop and
// Error is set: Stop when the stream ended with done, Error when it failed
// (then Content holds what arrived before the failure).
type AssistantMessage struct {
	Content    []Content  `json:"content"`
	Provider   string     `json:"provider,omitempty"`
	Model      string     `json:"model,omitempty"`
	ResponseID string     `json:"response_id,omitempty"`
	Stop       StopReason `json:"stop,omitempty"`
	Usage      Usage      `json:"usage"`
	Error      *Error     `json:"error,omitempty"`
}

// ToolCalls returns the message's tool calls in order.
func (m AssistantMessage) ToolCalls() []ToolCall {
	var calls []ToolCall
	for _, c := range m.Content {
		if tc, ok := c.(ToolCall); ok {
			calls = append(calls, tc)
		}
	}
	return calls
}

// ToolResultMessage answers one [ToolCall]; CallID pairs it with the call.
type ToolResultMessage struct {
	CallID   string    `json:"call_id"`
	Name     string    `json:"name"`
	Content  []Content `json:"content"`
	IsError  bool      `json:"is_error,omitempty"`
	Mutation Mutation  `json:"mutation"`
}

func (UserMessage) isMessage()       {}
func (AssistantMessage) isMessage()  {}
func (ToolResultMessage) isMessage() {}

// Role returns [RoleUser].
func (UserMessage) Role() Role { return RoleUser }

// Role returns [RoleAssistant].
func (AssistantMessage) Role() Role { return RoleAssistant }

// Role returns [RoleToolResult].
func (ToolResultMessage) Role() Role { return RoleToolResult }

// UserText returns a user message with one text block.
func UserText(s string) UserMessage {
	return UserMessage{Content: []Content{Text{Text: s}}}
}

// MarshalJSON encodes the message with "role":"user".
func (m UserMessage) MarshalJSON() ([]byte, error) {
	type plain UserMessage
	return json.Marshal(struct {
		Role Role `json:"role"`
		plain
	}{RoleUser, plain(m)})
}

// MarshalJSON encodes the message with "role":"assistant".
func (m AssistantMessage) MarshalJSON() ([]byte, error) {
	type plain AssistantMessage
	return json.Marshal(struct {
		Role Role `json:"role"`
		plain
	}{RoleAssistant, plain(m)})
}

// MarshalJSON encodes the message with "role":"tool_result".
func (m ToolResultMessage) MarshalJSON() ([]byte, error) {
	type plain ToolResultMessage
	return json.Marshal(struct {
		Role Role `json:"role"`
		plain
	}{RoleToolResult, plain(m)})
}

// UnmarshalMessage decodes one message by its "role" discriminator.
func UnmarshalMessage(b []byte) (Message, error) {
	role, err := discriminator(b, "role")
	if err != nil {
		return nil, fmt.Errorf("model: decode message: %w", err)
	}
	switch Role(role) {
	case RoleUser:
		var w struct {
			Content contentList `json:"content"`
		}
		if err := json.Unmarshal(b, &w); err != nil {
			return nil, fmt.Errorf("model: decode user message: %w", err)
		}
		return UserMessage{Content: w.Content}, nil
	case RoleAssistant:
		type plain AssistantMessage
		var w struct {
			plain
			Content contentList `json:"content"`
		}
		if err := json.Unmarshal(b, &w); err != nil {
			return nil, fmt.Errorf("model: decode assistant message: %w", err)
		}
		m := AssistantMessage(w.plain)
		m.Content = w.Content
		return m, nil
	case RoleToolResult:
		type plain ToolResultMessage
		var w struct {
			plain
			Content contentList `json:"content"`
		}
		if err := json.Unmarshal(b, &w); err != nil {
			return nil, fmt.Errorf("model: decode tool_result message: %w", err)
		}
		m := ToolResultMessage(w.plain)
		m.Content = w.Content
		return m, nil
	}
	return nil, fmt.Errorf("model: decode message: unknown role %q; want user, assistant or tool_result", role)
}

// UnmarshalJSON decodes a user message as [UnmarshalMessage] does; the
// role, when present, must be "user".
func (m *UserMessage) UnmarshalJSON(b []byte) error { return unmarshalInto(b, RoleUser, m) }

// UnmarshalJSON decodes an assistant message as [UnmarshalMessage] does;
// the role, when present, must be "assistant".
func (m *AssistantMessage) UnmarshalJSON(b []byte) error { return unmarshalInto(b, RoleAssistant, m) }

// UnmarshalJSON decodes a tool result as [UnmarshalMessage] does; the
// role, when present, must be "tool_result".
func (m *ToolResultMessage) UnmarshalJSON(b []byte) error {
	return unmarshalInto(b, RoleToolResult, m)
}

// unmarshalInto decodes b as a message of role want into dst, a pointer to
// that role's message type. A missing role is taken as want.
func unmarshalInto[T Message](b []byte, want Role, dst *T) error {
	if string(b) == "null" {
		return nil // as encoding/json leaves a value it reads null into
	}
	var head struct {
		Role *Role `json:"role"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return fmt.Errorf("model: decode %s message: %w", want, err)
	}
	if head.Role == nil {
		// The role is implied by the field's type; add it so that
		// UnmarshalMessage can dispatch.
		obj := make(map[string]json.RawMessage)
		if err := json.Unmarshal(b, &obj); err != nil {
			return fmt.Errorf("model: decode %s message: %w", want, err)
		}
		obj["role"] = json.RawMessage(`"` + string(want) + `"`)
		var err error
		if b, err = json.Marshal(obj); err != nil {
			return fmt.Errorf("model: decode %s message: %w", want, err)
		}
	} else if *head.Role != want {
		return fmt.Errorf("model: decode %s message: the role is %q", want, *head.Role)
	}
	m, err := UnmarshalMessage(b)
	if err != nil {
		return err
	}
	*dst = m.(T)
	return nil
}
