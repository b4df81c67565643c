package protocol

import (
	"fmt"
	"strings"

	"github.com/smith-agent/smith/core/model"
)

// DivergenceKind says what a replay compared when it found a
// [Divergence].
type DivergenceKind string

// The divergence kinds.
const (
	// DivergeTool: a recorded tool call, run again in a scratch copy of
	// the working tree, produced another output or mutation state.
	DivergeTool DivergenceKind = "tool"
	// DivergeDecode: a recorded provider response body, decoded again
	// through its codec, gave another assistant message than the one
	// recorded (the codec's decoding changed).
	DivergeDecode DivergenceKind = "decode"
)

// Divergence is one difference a replay found between what a session
// recorded and what it observed when it decoded or ran the same thing
// again.
type Divergence struct {
	Kind DivergenceKind `json:"kind"`
	// Turn is the user's turn (1-based) it happened in.
	Turn int `json:"turn"`
	// EffectID is the recorded effect compared: the tool call's first
	// effect, or the provider exchange.
	EffectID string `json:"effect_id"`
	// Tool is the tool's name, or "provider.exchange".
	Tool string `json:"tool"`
	// CallID is the model's id of the tool call; "" for a decode
	// divergence.
	CallID string `json:"call_id,omitempty"`
	// Recorded and Observed are the outputs compared: a tool result's
	// text, or an assistant message's JSON.
	Recorded string `json:"recorded"`
	Observed string `json:"observed"`
	// RecordedMutation and ObservedMutation are the tool result's mutation
	// states; empty for a decode divergence.
	RecordedMutation model.Mutation `json:"recorded_mutation,omitempty"`
	ObservedMutation model.Mutation `json:"observed_mutation,omitempty"`
}

// String describes d in one paragraph, outputs cut to 200 bytes each.
func (d Divergence) String() string {
	var b strings.Builder
	switch d.Kind {
	case DivergeDecode:
		fmt.Fprintf(&b, "divergence in turn %d: provider exchange %s decodes differently through its codec today", d.Turn, d.EffectID)
	default:
		fmt.Fprintf(&b, "divergence in turn %d: tool %s (call %s, effect %s) ran differently", d.Turn, d.Tool, d.CallID, d.EffectID)
		if d.RecordedMutation != d.ObservedMutation {
			fmt.Fprintf(&b, "; mutation recorded %s, observed %s", d.RecordedMutation, d.ObservedMutation)
		}
	}
	if d.Recorded != d.Observed {
		fmt.Fprintf(&b, "; recorded %q, observed %q", replayCut(d.Recorded, 200), replayCut(d.Observed, 200))
	}
	return b.String()
}

// replayCut shortens s to at most n bytes (on a rune boundary), marking the cut.
func replayCut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// ReplayReport is what a replay found, beyond its events.
type ReplayReport struct {
	// Session names the session replayed: its name and id, or its file.
	Session string `json:"session"`
	// Turns counts the user's turns the session holds (on its selected
	// branch); Shown is the range replayed, 1-based and inclusive.
	Turns     int `json:"turns"`
	ShownFrom int `json:"shown_from"`
	ShownTo   int `json:"shown_to"`
	// Divergences lists, in order, what decoded or ran differently.
	Divergences []Divergence `json:"divergences"`
	// Unknown lists the effects of shown turns that have no recorded
	// completion (or only one written by recovery): shown as unknown and
	// never run again.
	Unknown []string `json:"unknown"`
	// Skipped says, one sentence each, what of the file replay could not
	// use: frames of a type or entries of a kind this Smith does not know,
	// damaged regions.
	Skipped []string `json:"skipped"`
}

// Matched reports whether the replay found no divergence.
func (r ReplayReport) Matched() bool { return len(r.Divergences) == 0 }
