// Package pluginabi holds the generated host bindings of the smith:plugin
// world (tools/witgen, from wit/*.wit; regenerate with
// scripts/gencheck.sh -write): Go types for every WIT type, Hosts and
// HostModules serving the imported interfaces to guests, Guest calling the
// exported ones through a [wasmhost.Instance], and WorldSpec, the core
// signatures wasmhost validates artifacts against.
//
// Capabilities: the world "plugin" imports, beyond the core world, one
// interface per capability (fs, process, log, http, secrets, ui), each
// granted under its own name. HostModules serves a capability interface only
// when it is granted, so an artifact importing an ungranted one is refused
// by wasmhost before any of its code runs.
//
// Errors: a host implementation returns the interface's fault type to hand
// the guest a typed error result; any other error aborts the guest and
// destroys its instance. A Guest method returns the guest's fault as its
// error, or a *wasmhost.Error when the call itself failed.
package pluginabi
