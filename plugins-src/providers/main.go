//go:build wasip1

// Command providers is the Go provider codec plugin: the anthropic,
// openai (Responses), openai-chat, google and openai-compatible providers
// of the smith:plugin world. Smith embeds the Rust port in src/ (see
// doc.go); this one is its test oracle. Build it with
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -trimpath -ldflags='-s -w'
//
// All vendor knowledge (endpoints, headers, credential variable names, wire
// formats, quirks) lives in this module; the host only runs the exchanges.
package main

import (
	"github.com/smith-agent/smith/plugins-src/providers/internal/guest"
	"github.com/smith-agent/smith/wit/contrib"
	"github.com/smith-agent/smith/wit/provider"
)

func init() {
	contrib.Export(guest.Plugin{})
	provider.Export(guest.Plugin{})
}

func main() {}
