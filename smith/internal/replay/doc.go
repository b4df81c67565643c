// Package replay is the frontend of `smith replay`: it parses the --speed
// and --turns values and plays the events core/runtime's Replay rebuilds
// from a session, paced like the recorded session (each gap capped at
// [MaxGap]) or at once, as text (the eval renderer, with each user input
// shown) or as JSON lines of the same event vocabulary eval and RPC use.
package replay
