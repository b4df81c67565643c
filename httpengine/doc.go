// Package httpengine is Smith's one synchronous, bounded, observable HTTP
// engine for provider traffic and granted plugin http effects.
package httpengine
