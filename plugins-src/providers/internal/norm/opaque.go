package norm

import "strings"

// Meta is vendor metadata of a content block that Smith's messages have no
// field for. The runtime keeps a block's signature opaque and returns it
// unchanged to the codec that made it, so the codec frames Meta into the
// signature ([PackMeta]) and takes it out again when the block is sent back
// ([UnpackMeta]).
type Meta struct {
	// Format names the vendor's encoding of a thinking signature (for
	// example OpenRouter's "anthropic-claude-v1").
	Format string
	// Item is the vendor's output item id (Responses API: rs_…, msg_…,
	// fc_…).
	Item string
	// Phase is a Responses message item's phase ("commentary",
	// "final_answer").
	Phase string
	// Other, when set, marks the block as a vendor block the client does
	// not act on ([Other]) and names its type; the payload is the block's
	// JSON, byte-exact.
	Other string
}

// A framed signature is a sequence of fields, each metaMark + key + "=" +
// value + metaEnd, followed by the vendor's payload. Vendor signatures are
// base64 or JSON, so none starts with metaMark; a signature without fields
// is the vendor's payload as is. Should a payload start with metaMark, an
// empty field (metaMark + metaEnd) ends the frame before it.
const (
	metaMark = "\x00"
	metaEnd  = "\x00"
)

// PackMeta returns payload with m framed in front of it; with a zero m it
// returns payload unchanged (unless the payload starts with a NUL byte). A
// field whose value contains a NUL byte is left out (no vendor id or name
// has one).
func PackMeta(m Meta, payload []byte) []byte {
	fenced := len(payload) > 0 && payload[0] == metaMark[0]
	if m == (Meta{}) && !fenced {
		return payload
	}
	b := []byte{}
	for _, f := range [...]struct{ key, value string }{
		{"format", m.Format}, {"item", m.Item}, {"phase", m.Phase}, {"other", m.Other},
	} {
		if f.value == "" || strings.Contains(f.value, metaEnd) {
			continue
		}
		b = append(b, metaMark+f.key+"="+f.value+metaEnd...)
	}
	if len(b) == 0 && !fenced {
		return payload
	}
	if fenced {
		b = append(b, metaMark+metaEnd...)
	}
	return append(b, payload...)
}

// UnpackMeta splits a signature made by [PackMeta] into its metadata and
// the vendor's payload. A signature without fields, or whose frame is
// malformed, is returned whole as the payload with a zero Meta; fields of
// unknown keys are skipped, so a newer codec's frame still yields its
// payload. The payload aliases sig.
func UnpackMeta(sig []byte) (Meta, []byte) {
	var m Meta
	rest := sig
	for len(rest) > 0 && rest[0] == metaMark[0] {
		if len(rest) > 1 && rest[1] == metaEnd[0] {
			return m, rest[2:]
		}
		field, tail, ok := strings.Cut(string(rest[1:]), metaEnd)
		key, value, hasValue := strings.Cut(field, "=")
		if !ok || !hasValue || key == "" {
			return Meta{}, sig
		}
		switch key {
		case "format":
			m.Format = value
		case "item":
			m.Item = value
		case "phase":
			m.Phase = value
		case "other":
			m.Other = value
		}
		rest = rest[len(rest)-len(tail):]
	}
	return m, rest
}
