// Package endpoints is the vendor knowledge of where and how to reach each
// provider, as data: default base URLs, the conventional environment
// variables that override them, the credential variable names, the wire
// API, and (for openai-compatible servers) the request quirks. The host
// reads the environment and configuration; this package only names them
// and resolves their precedence.
package endpoints
