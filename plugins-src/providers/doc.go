// Package providers is Smith's provider codec plugin: the Rust crate in
// src/ (src/lib.rs), which tools/pluginbuild builds into the
// providers.wasm smith embeds. It declares the anthropic, openai
// (Responses), openai-chat, google and openai-compatible providers of the
// smith:plugin world and owns all vendor knowledge: endpoints, headers,
// credential variable names, wire formats and quirks.
//
// This Go package holds only the plugin's conformance tests. They build
// the crate, load it through core's plugin manager and provider bridge as
// smith does, and hold it to golden files under testdata/golden (go test
// -update rewrites them after review): the events every recorded stream
// (testdata/fixtures) and hand-written stream (testdata/streams) decodes
// to in six chunkings, the requests every recorded request case and a
// rich conversation build, and the classification of every failed
// response. Fuzz targets check the invariants a consumer relies on.
package providers
