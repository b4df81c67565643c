// Package tui is Smith's interactive mode: a fullscreen conversation with
// the agent, drawn with termkit and driven by core/runtime like every
// other frontend.
//
// The screen holds the transcript (user and assistant messages as
// markdown, thinking collapsed, tool activity with a bounded preview and
// edits as coloured diffs, notices, retries and errors), the input queued
// for the active run, the input box and a status line (model, thinking
// level, activity with elapsed time, tokens, context use and cost).
//
// The input box stays live while the model works: Enter then queues the
// text to steer the active run and Tab queues it as a follow-up; Esc
// aborts the work; ctrl+c clears the input, and twice quits. The
// transcript scrolls on its own (PgUp/PgDn, shift+up/down, the wheel); a
// view scrolled away from the end stays put while output arrives, with an
// indicator, and ctrl+end returns to the latest. ctrl+f searches, a mouse
// drag selects and copies (OSC 52 and the native clipboard), a click on a
// tool call or a thinking block shows it whole, ctrl+o shows every one. Slash commands complete as they are
// typed: the built-in ones (/new, /resume, /model, /tree, /fork, /label,
// /compact, /undo, /redo, /help, /quit, …) and every command a plugin
// contributes.
//
// Key bindings and the theme come from the plugins' contributions (the
// product plugin's defaults), overridden by the user's configuration
// (tui { keys { … } theme { … } } in smith.kdl, checked by [Configure]);
// enter, ctrl+c and esc work even when no plugin binds them.
//
// # Concurrency
//
// [Run] owns all state on one goroutine: terminal events, runtime events
// and frame ticks are handled there in order. Runtime calls that may wait
// (creating or opening a session, submitting, commands, listings) run on
// one worker goroutine in the order they were asked for and post their
// results back, so typing never waits for them. A frame is drawn at once
// after a key and at most every 16 ms while output streams; each frame
// lays out only the visible transcript items (cached per width) and writes
// only the changed cells, in one write.
package tui
