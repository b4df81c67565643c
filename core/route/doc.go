// Package route turns the model name a user asked for into an ordered list
// of targets, and runs a request across them with the failover policy.
//
// [Resolve] expands aliases, groups and account buckets from configuration
// and bare model names from the catalog, deterministically and without
// network access; a cycle or an ambiguous name fails with every candidate
// named.
//
// [Stream] (over provider streams) and [Run] (over any [Attempter]) try the
// targets in order under a [Policy]: a rate limit (or exhausted quota, a
// rejected credential, an unavailable model) fails over to the next target
// at once, while on the last target — a single model is its own last
// target — a rate limit is waited out; a transient failure (overloaded,
// server error, transport error, truncated stream) is retried on the same
// target with bounded exponential backoff that honours the provider's
// retry hint, then fails over; an invalid request stops at once, since no
// target would accept it either. The waits of one request are bounded in
// total. [Stream] reports every retry and failover in the stream as a
// routing notice ([model.Retrying], [model.FailingOver]), so nothing
// happens silently. The clock is injected, so the policy is tested without
// waiting.
package route
