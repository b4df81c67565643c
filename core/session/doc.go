// Package session connects the runtime to the session file format: a
// [Store] writes the conversation (as an [agent.Recorder]) and the durable
// effect journal (as an [effect.Store]) into one sessionfmt file, and
// [Messages] reads the conversation of a session back. A [Dir] keeps
// sessions by id and optional name: create, list, continue the latest,
// resume by name or id prefix, and fork at an entry. Branch navigation is
// sessionfmt's File.Select: selecting an earlier entry and recording more
// makes a new branch, and every entry stays in the file.
//
// Every record is one entry whose parent is the previously selected leaf,
// so a run appends one linear branch. Messages are KindMessage entries;
// intents are KindEffectIntent entries (Pair: the effect id, Cause: the
// entry of the assistant message whose tool call caused the effect, or,
// for an intent that names no parent such as a provider exchange, the
// selected leaf the request continues from) and
// completions KindEffectCompletion entries (Pair: the effect id). Entry
// content is canonical CBOR.
//
// Durability: effect intents are fsynced before [Store.Append] returns,
// which also syncs everything appended before them; messages and
// completions are written to the operating system at once (they survive a
// killed process) and synced by the next intent or by Close. A completion
// lost to a machine crash recovers as unknown, which is the safe reading.
package session
