// Package textout renders a session's events as human-readable text: the
// assistant's text as it streams, one line per tool call and a short
// excerpt of each tool result on standard output; retries, failovers and
// notices as one "smith: …" line each, and the run's tokens and cost in
// one line at its end, on the diagnostic stream. A [Tally] accumulates a
// run's accounting and its failure, which [Tally.Failure] turns into one
// paragraph: what failed, why, and what to do.
package textout
