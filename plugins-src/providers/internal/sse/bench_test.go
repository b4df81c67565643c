package sse

import (
	"bytes"
	"testing"
)

// BenchmarkFramer measures framing alone on a synthetic Chat-like body
// (400 events of ~290 bytes), fed per event and in 4 KiB reads.
func BenchmarkFramer(b *testing.B) {
	event := []byte("data: {\"id\":\"f6117a0b\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"deepseek-chat\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" word\"},\"logprobs\":null,\"finish_reason\":null}],\"usage\":null,\"system_fingerprint\":\"fp_1\",\"padding\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}\n\n")
	body := bytes.Repeat(event, 400)
	for _, tc := range []struct {
		name string
		size int
	}{{"events", len(event)}, {"4KiB", 4096}} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			n := 0
			emit := func(Item) { n++ }
			for b.Loop() {
				var f Framer
				for i := 0; i < len(body); i += tc.size {
					f.Feed(body[i:min(i+tc.size, len(body))], emit)
				}
				f.Close(emit)
			}
		})
	}
}
