package guest

import "strings"

// A thinking signature is opaque to the host and only ever returned to the
// codec that made it, so the codec may keep vendor metadata of the block in
// it. When a vendor names the signature's encoding (OpenRouter's
// reasoning_details format, such as "anthropic-claude-v1"), the signature
// that crosses the world is formatMark + format + formatEnd + the vendor's
// signature; [UnpackSignature] splits it again when the block is sent back.
const (
	formatMark = "\x00format="
	formatEnd  = "\x00"
)

// PackSignature returns the signature that carries format with sig.
func PackSignature(format string, sig []byte) []byte {
	if format == "" {
		return sig
	}
	return append([]byte(formatMark+format+formatEnd), sig...)
}

// UnpackSignature splits a signature made by [PackSignature]; any other
// signature is returned as is with no format.
func UnpackSignature(b []byte) (format string, sig []byte) {
	s := string(b)
	rest, ok := strings.CutPrefix(s, formatMark)
	if !ok {
		return "", b
	}
	f, tail, ok := strings.Cut(rest, formatEnd)
	if !ok {
		return "", b
	}
	return f, []byte(tail)
}
