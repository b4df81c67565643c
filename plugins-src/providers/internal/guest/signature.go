package guest

import "github.com/smith-agent/smith/plugins-src/providers/internal/norm"

// PackSignature returns the signature that carries a thinking signature's
// vendor format (OpenRouter's reasoning_details format, such as
// "anthropic-claude-v1") with sig; see [norm.PackMeta] for the framing.
func PackSignature(format string, sig []byte) []byte {
	return norm.PackMeta(norm.Meta{Format: format}, sig)
}

// UnpackSignature splits a signature made by [PackSignature] (or any
// [norm.PackMeta] frame) into the format and the vendor's signature; any
// other signature is returned as is with no format.
func UnpackSignature(b []byte) (format string, sig []byte) {
	m, sig := norm.UnpackMeta(b)
	return m.Format, sig
}
