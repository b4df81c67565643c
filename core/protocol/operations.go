package protocol

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/smith-agent/smith/core/model"
)

// Delivery says when submitted input reaches the model.
type Delivery string

// The delivery policies.
const (
	// DeliverPrompt starts a run with the input; refused while a run is
	// active (steer or follow up instead).
	DeliverPrompt Delivery = "prompt"
	// DeliverSteer delivers the input after the current tool batch of the
	// active run, or starts a run when none is active.
	DeliverSteer Delivery = "steer"
	// DeliverFollowUp delivers the input when the active run would
	// otherwise stop, or starts a run when none is active.
	DeliverFollowUp Delivery = "follow_up"
)

// ParseDelivery returns the Delivery named s ("" is [DeliverPrompt]), or an
// error listing the valid names.
func ParseDelivery(s string) (Delivery, error) {
	switch Delivery(s) {
	case "", DeliverPrompt:
		return DeliverPrompt, nil
	case DeliverSteer, DeliverFollowUp:
		return Delivery(s), nil
	}
	return "", fmt.Errorf("protocol: delivery %q is not one of prompt, steer, follow_up", s)
}

// PromptParams submits user input.
type PromptParams struct {
	// Text is the input; required unless Images are given.
	Text string `json:"text"`
	// Images are attached after the text.
	Images []model.Image `json:"images,omitempty"`
	// Delivery is the policy; "" means prompt.
	Delivery Delivery `json:"delivery,omitempty"`
}

// SessionInfo describes one stored session: what `smith session ls`
// shows and what the session operations return.
type SessionInfo struct {
	// ID is the session's ULID.
	ID string `json:"id"`
	// Name is the session's name, "" when unnamed.
	Name string `json:"name,omitempty"`
	// Path is the session file.
	Path string `json:"path"`
	// Cwd is the working directory the session was created in; "" for a
	// session written before Smith recorded it.
	Cwd string `json:"cwd,omitempty"`
	// Model is the model the session last used (its last model_change).
	Model string `json:"model,omitempty"`
	// FirstPrompt is the text of the first user message, cut to one line
	// of at most 120 characters.
	FirstPrompt string `json:"first_prompt,omitempty"`
	// Entries counts the session's entries, every branch included.
	Entries int `json:"entries"`
	// Size is the file's size in bytes.
	Size int64 `json:"size"`
	// Created is when the session was created (from its id); LastActivity
	// when its file was last written.
	Created      time.Time `json:"created"`
	LastActivity time.Time `json:"last_activity"`
	// Damaged is set when the file could not be read completely; it says
	// what is wrong and how to repair it.
	Damaged string `json:"damaged,omitempty"`
}

// ModelState is the session's model as the runtime resolved it.
type ModelState struct {
	// Name is the model as chosen: an alias, a group or PROVIDER/MODEL.
	Name string `json:"name"`
	// Targets are the provider/model pairs it resolves to, in failover
	// order.
	Targets []string `json:"targets"`
	// Thinking is the requested reasoning level; "" is the provider's
	// default.
	Thinking string `json:"thinking,omitempty"`
	// Context and MaxOutput are the first target's limits in tokens from
	// the catalog; 0 when unknown.
	Context   int `json:"context,omitempty"`
	MaxOutput int `json:"max_output,omitempty"`
	// Known is false when the catalog does not describe the first target:
	// requests are sent unchecked and costs stay unknown.
	Known bool `json:"known"`
}

// SetModelParams changes the session's model.
type SetModelParams struct {
	// Model is an alias, a group, or PROVIDER/MODEL; "" keeps the model.
	Model string `json:"model,omitempty"`
	// Thinking is the reasoning level; "" keeps the level, "default" asks
	// for the provider's default.
	Thinking string `json:"thinking,omitempty"`
}

// Stats is the session's accounting.
type Stats struct {
	// Usage sums the usage of every assistant message of the selected
	// branch, compacted ones included, and of the branch's compaction
	// summaries and branch summaries; a field any response left unknown
	// is unknown.
	Usage model.Usage `json:"usage"`
	// Responses counts the responses summed in Usage.
	Responses int `json:"responses"`
	// ContextTokens is the size of the context the last response read
	// (its input, cache read and cache write tokens plus its output, the
	// next request's prefix); unknown when it reported no usage. After a
	// compaction and before the next response it is the compaction's
	// estimate of the context it left.
	ContextTokens model.Amount `json:"context_tokens"`
	// ContextWindow is the model's context window; 0 when unknown.
	ContextWindow int `json:"context_window,omitempty"`
	// ContextPercent is ContextTokens as a percentage of ContextWindow,
	// rounded down; -1 when either is unknown.
	ContextPercent int `json:"context_percent"`
}

// State is what the session is doing.
type State struct {
	Session SessionInfo `json:"session"`
	Model   ModelState  `json:"model"`
	// Running is true from a run's start until it has settled.
	Running bool `json:"running"`
	// Steer and FollowUp are the queued input.
	Steer    []model.UserMessage `json:"steer"`
	FollowUp []model.UserMessage `json:"follow_up"`
	Stats    Stats               `json:"stats"`
	// Confirmations are the plugins' questions waiting for an answer,
	// oldest first (a client attaching mid-run answers them with confirm).
	Confirmations []ConfirmationRequest `json:"confirmations"`
}

// Command is a command a plugin contributes, run by name (a frontend may
// show it as /NAME).
type Command struct {
	Name         string `json:"name"`
	Description  string `json:"description"`
	ArgumentHint string `json:"argument_hint,omitempty"`
	// Plugin is the contributing plugin.
	Plugin string `json:"plugin"`
}

// RunCommandParams runs a command.
type RunCommandParams struct {
	Name string `json:"name"`
	// Arguments is the text after the command's name.
	Arguments string `json:"arguments,omitempty"`
}

// CommandResult is what a command returned.
type CommandResult struct {
	// Content is shown to the user.
	Content []model.Content `json:"content"`
	// Prompt, when set, is input the command asks to submit as the user's
	// next prompt (the runtime does not submit it by itself).
	Prompt string `json:"prompt,omitempty"`
}

// UnmarshalJSON decodes the content blocks by their discriminators.
func (r *CommandResult) UnmarshalJSON(b []byte) error {
	var w struct {
		Content json.RawMessage `json:"content"`
		Prompt  string          `json:"prompt"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return fmt.Errorf("protocol: decode command result: %w", err)
	}
	r.Prompt = w.Prompt
	r.Content = nil
	if len(w.Content) == 0 || string(w.Content) == "null" {
		return nil
	}
	var um model.UserMessage
	if err := json.Unmarshal([]byte(`{"content":`+string(w.Content)+`}`), &um); err != nil {
		return fmt.Errorf("protocol: decode command result: %w", err)
	}
	r.Content = um.Content
	return nil
}

// TreeNode is one entry of a session's tree: every branch, in file order,
// each entry naming its parent.
type TreeNode struct {
	ID     string `json:"id"`
	Parent string `json:"parent,omitempty"`
	// Kind is the entry kind ("message", "model_change", …).
	Kind string `json:"kind"`
	// Role is the message's role for a message entry.
	Role string `json:"role,omitempty"`
	// Summary is a one-line excerpt of a message's text or a branch
	// summary's (at most 80 characters), or the new model of a
	// model_change.
	Summary string    `json:"summary,omitempty"`
	Label   string    `json:"label,omitempty"`
	Time    time.Time `json:"time"`
	// Leaf marks an entry no other entry continues; Selected the entry the
	// session continues from.
	Leaf     bool `json:"leaf,omitempty"`
	Selected bool `json:"selected,omitempty"`
}

// ForkParams forks a session.
type ForkParams struct {
	// At is the id (or a unique id prefix of 4+ characters) of the entry
	// the fork ends with; "" is the selected leaf.
	At string `json:"at,omitempty"`
	// Name names the new session; "" derives one.
	Name string `json:"name,omitempty"`
}

// Presentation is what the plugins contribute to the interactive mode's
// look, merged in load order (a later plugin's entry replaces an
// earlier one's): key bindings, theme styles and the layout. The frontend checks the
// action names, keys and styles it knows; the user's configuration
// overrides both.
type Presentation struct {
	// Keys maps an action ("submit") to its keys ("enter").
	Keys map[string][]string `json:"keys"`
	// Theme maps a role ("accent") to its style ("cyan bold").
	Theme map[string]string `json:"theme"`
	// Layout is the layout, nil when no plugin contributes one.
	Layout *Layout `json:"layout,omitempty"`
	// From names the plugin each entry came from, by "keys.ACTION",
	// "theme.ROLE" and "layout", for error messages.
	From map[string]string `json:"from,omitempty"`
}

// Layout is the interactive mode's layout: the status line's segments
// (names the frontend knows, such as "activity", "model", "thinking",
// "context", "cost") and the input box's prompt and placeholder.
type Layout struct {
	StatusLeft  []string `json:"status_left"`
	StatusRight []string `json:"status_right"`
	Prompt      string   `json:"prompt"`
	Placeholder string   `json:"placeholder"`
}
