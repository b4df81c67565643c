// Package term owns the terminal for a fullscreen program: raw mode, the
// alternate screen, bracketed paste, focus events, SGR mouse, the kitty
// keyboard protocol (or modifyOtherKeys), grapheme-width mode 2027, the
// window size and SIGWINCH, a bounded capability probe, and restoring the
// exact prior state on every way out.
//
// [Open] sends one query burst (DECRQM 2026/2027/1004/2004, the kitty
// flags, XTVERSION, the background colour) ended by DA1 and reads the
// replies until DA1 or [Options].ProbeTimeout (100 ms by default), so a
// silent terminal delays start-up by at most that; what the user types
// meanwhile is kept for [Terminal.Events]. The environment fills in what
// probing cannot tell (NO_COLOR, COLORTERM, TERM, TERM_PROGRAM,
// VTE_VERSION, WT_SESSION), and [Options].Override has the last word.
//
// # Exit paths
//
// [Terminal.Close] restores in reverse order (keyboard flags, mouse,
// focus, paste, autowrap, the cursor, the main screen, then termios) and
// discards pending input; it is idempotent. It runs on a normal exit, on
// SIGINT, SIGTERM, SIGHUP and SIGQUIT (then the process exits with
// 128+signal unless [Options].OnSignal takes over), and from
// [Recover]/[Terminal.Go] on a panic in any goroutine started through
// them. ctrl+z sent as SIGTSTP suspends through [Terminal.Suspend]. A
// SIGKILL or a fatal runtime error cannot be caught: `reset` repairs the
// terminal then.
//
// # Concurrency
//
// Every method of [Terminal] is safe for concurrent use. One goroutine
// reads the input and one handles signals; both end at Close.
package term
