// Package providers is Smith's provider codecs: the Rust crate in src/
// (src/lib.rs), which tools/pluginbuild builds into the codec plugins
// smith embeds, one artifact per wire format (the variants file):
// providers-anthropic, providers-openai-responses (the openai provider),
// providers-openai-chat (openai-chat and openai-compatible) and
// providers-gemini (google). Together they declare the providers of the
// smith:plugin world and own all vendor knowledge: endpoints, headers,
// credential variable names, wire formats and quirks.
//
// This Go package holds only the codecs' conformance tests. They build
// the crate as shipped (or, with $SMITH_PROVIDERS_DIR, load built
// artifacts: scripts/test.sh points it at the committed ones, which
// gencheck has just held to a rebuild), load the artifacts through core's
// plugin manager and provider bridge as smith does, and hold them to
// golden files under testdata/golden (go test -update rewrites them after
// review): the events every recorded stream
// (testdata/fixtures) and hand-written stream (testdata/streams) decodes
// to in six chunkings, the requests every recorded request case and a
// rich conversation build, and the classification of every failed
// response. Fuzz targets check the invariants a consumer relies on.
package providers
