// Package catalog is Smith's model catalog: what each model at each provider
// can do (context and output limits, input modalities, tool use, strict tool
// input, thinking levels, cache behaviour) and what it costs, with the
// provenance of every figure.
//
// The reviewed catalog ships in the binary (data/catalog.json) and is parsed
// lazily on first use. Layers of evidence merge into an immutable
// [Snapshot]: the user's configuration beats the reviewed bundle, which
// beats a provider plugin's declaration, which beats a runtime refresh;
// inference from a family name is used only for models no layer describes.
// Disagreements are kept as [Conflict] records.
//
// [Admit] checks a request against a model before dispatch: an unsupported
// option either degrades as the [Policy] declares or fails with a
// [CapabilityError] naming the model and the capability. [Cost] prices a
// response from its usage; unknown usage gives an unknown cost, never zero.
//
// A [Store] publishes snapshots atomically; [Store.Refresh] is optional,
// cancellable, and can never publish stale data over newer data. A
// [Persist] (see [NewPersistentStore]) carries refreshes across runs: its
// tickets order refreshes of several processes, each refresh is committed
// to it before publication, and [Store.Restore] starts a run from the
// newest committed document without any network.
//
// The package knows no vendor endpoint or wire format; vendor names appear
// only in the data file.
package catalog
