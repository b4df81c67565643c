package effect

import (
	"encoding/json"

	"github.com/smith-agent/smith/core/model"
)

// Record is one durable journal record: an [Intent] or a [Completion]. The
// set is closed.
type Record interface {
	isRecord()
	// EffectID returns the id of the effect the record belongs to.
	EffectID() string
}

// Intent announces an effect before it runs.
type Intent struct {
	// ID is the effect's stable id (a ULID); [Journal.Begin] assigns one when
	// it is empty.
	ID string `json:"id"`
	// Parent is the causal parent: the tool call or entry that caused it.
	Parent string `json:"parent"`
	// Generation is the plugin generation that requested the effect.
	Generation uint64 `json:"generation"`
	// Kind names the effect, such as "fs.read" or "process.run".
	Kind string `json:"kind"`
	// Input is the effect's input as canonical JSON (object keys sorted, no
	// insignificant space); [Journal.Begin] canonicalizes and bounds it.
	Input json.RawMessage `json:"input"`
}

// Completion records how an effect ended.
type Completion struct {
	// ID is the effect's id.
	ID string `json:"id"`
	// Mutation is what the effect did to the world.
	Mutation model.Mutation `json:"mutation"`
	// Output is the effect's bounded output.
	Output []byte `json:"output,omitempty"`
	// OutputTruncated reports that Output was cut at the bound.
	OutputTruncated bool `json:"output_truncated,omitempty"`
	// Error describes a failure, empty on success.
	Error string `json:"error,omitempty"`
	// Recovered marks a completion written by recovery for an intent that
	// had none; its Mutation is always unknown.
	Recovered bool `json:"recovered,omitempty"`
}

func (Intent) isRecord()     {}
func (Completion) isRecord() {}

// EffectID returns i.ID.
func (i Intent) EffectID() string { return i.ID }

// EffectID returns c.ID.
func (c Completion) EffectID() string { return c.ID }
