// Package pluginssrc holds the Go sources of Smith's system plugins: the
// built-in tools and the provider codecs, each built to a WebAssembly module
// that runs in the same sandbox as any user plugin.
package pluginssrc
