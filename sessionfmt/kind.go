package sessionfmt

import (
	"fmt"
	"strconv"
)

// Kind is what an entry records. Each kind states which pairing fields of
// [Entry] it uses; those live in the in-memory record, so pairing (a tool
// call with its result, an effect intent with its completion) never needs the
// content decoded. Kinds this version does not know are kept when loading and
// round-tripping, but cannot be appended.
type Kind uint8

// Entry kinds, with the pairing fields each one requires (R) or allows (o).
const (
	// KindMessage is a user, assistant or tool-result message. No pairing.
	KindMessage Kind = iota + 1
	// KindToolActivity is a tool call's lifecycle. Key (R): the tool call id
	// the model gave, which pairs the call with its result.
	KindToolActivity
	// KindModelChange records a switch of model or its settings. No pairing.
	KindModelChange
	// KindCompaction summarises the history before it. Pair (R): the first
	// entry kept after the compaction boundary.
	KindCompaction
	// KindSecretRegistration registers a secret. Key (R): the secret's name;
	// Pair (o): the effect that created it. Never the plaintext.
	KindSecretRegistration
	// KindVCSOperation records a snapshot, undo, redo or restore. Pair (R):
	// the effect id; Key (o): the object id it produced or targeted.
	KindVCSOperation
	// KindEffectIntent is a host effect about to run. Pair (R): the effect
	// id; Cause (R): the entry or effect that caused it.
	KindEffectIntent
	// KindEffectCompletion closes an intent. Pair (R): the effect id of the
	// intent it completes.
	KindEffectCompletion
	// KindLabel names an entry. Pair (R): the labelled entry; Key (o): the
	// label (empty clears it).
	KindLabel
	// KindPluginStateCommit commits durable plugin state. Key (R): the
	// plugin id; Pair (R): the commit id.
	KindPluginStateCommit
	// KindReplayMetadata carries data replay needs (trace inputs, versions).
	// No pairing.
	KindReplayMetadata
	// KindBranchSummary summarises a branch the session moved away from,
	// placed under the entry it moved to. Pair (R): the leaf of the branch
	// left behind.
	KindBranchSummary

	kindEnd
)

var kindNames = [...]string{
	KindMessage:            "message",
	KindToolActivity:       "tool_activity",
	KindModelChange:        "model_change",
	KindCompaction:         "compaction",
	KindSecretRegistration: "secret_registration",
	KindVCSOperation:       "vcs_operation",
	KindEffectIntent:       "effect_intent",
	KindEffectCompletion:   "effect_completion",
	KindLabel:              "label",
	KindPluginStateCommit:  "plugin_state_commit",
	KindReplayMetadata:     "replay_metadata",
	KindBranchSummary:      "branch_summary",
}

// Known reports whether k is a kind of this format version.
func (k Kind) Known() bool { return k > 0 && k < kindEnd }

// String returns the snake_case name, or the number for an unknown kind.
func (k Kind) String() string {
	if k.Known() {
		return kindNames[k]
	}
	return strconv.Itoa(int(k))
}

// ParseKind parses a kind name as returned by [Kind.String].
func ParseKind(s string) (Kind, error) {
	for k := KindMessage; k < kindEnd; k++ {
		if kindNames[k] == s {
			return k, nil
		}
	}
	if n, err := strconv.ParseUint(s, 10, 8); err == nil && n > 0 {
		return Kind(n), nil
	}
	return 0, fmt.Errorf("sessionfmt: unknown entry kind %q; use one of message, tool_activity, model_change, compaction, secret_registration, vcs_operation, effect_intent, effect_completion, label, plugin_state_commit, replay_metadata, branch_summary", s)
}

// pairing says which pairing fields a kind requires.
type pairing struct{ pair, cause, key bool }

var kindPairing = [...]pairing{
	KindToolActivity:       {key: true},
	KindCompaction:         {pair: true},
	KindSecretRegistration: {key: true},
	KindVCSOperation:       {pair: true},
	KindEffectIntent:       {pair: true, cause: true},
	KindEffectCompletion:   {pair: true},
	KindLabel:              {pair: true},
	KindPluginStateCommit:  {pair: true, key: true},
	KindReplayMetadata:     {},
	KindBranchSummary:      {pair: true},
}
