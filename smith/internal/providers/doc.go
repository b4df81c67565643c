// Package providers opens a real model provider for `--model
// PROVIDER/MODEL`: the embedded provider codec plugin (WebAssembly, verified
// against its pinned hash) behind the core/provider bridge, its exchanges
// run by httpengine, its credential resolved before dispatch by core/auth
// (configuration, environment, Smith's auth file). Vendor names and their
// variables are data declared by the plugin; this package knows none.
package providers
