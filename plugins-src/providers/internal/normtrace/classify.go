package normtrace

import (
	"encoding/binary"
	"time"
)

// ClassifyPayload is the request of the build drivers' classify op 'c'
// (a failed response for the Rust classify_response): status (i64 LE),
// now (Unix seconds i64 LE, nanoseconds u32 LE), the headers (count u32
// LE, then each name and value as a u32 LE length and bytes, in the order
// given) and the body. The names are passed as given: the caller lower-
// cases them and keeps the first value of a repeated name, as the plugin
// glue does.
func ClassifyPayload(status int, headers [][2]string, body []byte, now time.Time) []byte {
	p := binary.LittleEndian.AppendUint64(nil, uint64(int64(status)))
	p = binary.LittleEndian.AppendUint64(p, uint64(now.Unix()))
	p = binary.LittleEndian.AppendUint32(p, uint32(now.Nanosecond()))
	p = binary.LittleEndian.AppendUint32(p, uint32(len(headers)))
	for _, kv := range headers {
		for _, s := range kv {
			p = binary.LittleEndian.AppendUint32(p, uint32(len(s)))
			p = append(p, s...)
		}
	}
	return append(p, body...)
}
