// Package handoff rewrites a conversation so the next provider accepts it
// when the model changes mid-session: opaque payloads another vendor made
// (thinking signatures, encrypted reasoning, Gemini thought signatures,
// server-side tool blocks) are removed or turned into plain text, tool-call
// ids are rewritten to the target's allowed characters and length with
// their results rewritten alike, and every tool call keeps exactly one
// result.
package handoff
