// Package effect is Smith's durable effect boundary: every host effect (file
// read or write, search, process, HTTP, VCS) runs through a [Journal], which
// follows one state machine:
//
//	intent ──durable──▶ running ──▶ completed (applied | not_applied | unknown)
//	                         └──────▶ unknown (completion missing or uncertain)
//
// The intent — canonical bounded input, effect id, causal parent, plugin
// generation — is appended to a [Store] and made durable before the effect
// runs; if that fails the effect does not run. The completion records the
// bounded output and the mutation state. An intent that never got a
// completion (the process was killed mid-effect) is completed as unknown by
// [Open] and is never retried automatically.
//
// [Journal.Completed] lists the completed effects in the store, earlier
// processes' included, for state that must survive a resumed session (the
// built-in tools' stale-edit memory is seeded from it).
//
// The Store is the session: the runtime adapts sessionfmt to it. [MemStore]
// is an in-memory Store for tests; it is not durable.
//
// # Getting Started
//
//	j, recovered, err := effect.Open(ctx, store, effect.Options{})
//	if err != nil { … }
//	for _, c := range recovered { log.Printf("effect %s ended %s", c.ID, c.Mutation) }
//	c, err := j.Run(ctx, effect.Intent{Kind: "fs.write", Parent: callID, Input: in},
//		func(ctx context.Context) effect.Outcome { … })
package effect
