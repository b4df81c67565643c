package guest

import (
	"bytes"
	"encoding/base64"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// docGen writes request documents from bytes, aimed at encoding/json's
// rules rather than at JSON syntax: keys in folded and escaped spellings,
// repeated keys, values of the wrong kind, null, byte fields as base64
// (good, bad, broken by line breaks) and as arrays, signatures framing
// metadata. An exhausted input draws zeros.
type docGen struct {
	in []byte
	b  []byte
}

func (g *docGen) byte() byte {
	if len(g.in) == 0 {
		return 0
	}
	c := g.in[0]
	g.in = g.in[1:]
	return c
}

func (g *docGen) n(max int) int { return int(g.byte()) % max }

func (g *docGen) pick(words ...string) string { return words[g.n(len(words))] }

// mostly picks one of good, or one of bad once in 16 draws.
func (g *docGen) mostly(good, bad []string) string {
	if g.n(16) == 0 {
		return g.pick(bad...)
	}
	return g.pick(good...)
}

// key writes name in one of its spellings: as is, upper case, with ſ
// for s or the Kelvin sign for k, with an escaped letter, or a near miss.
func (g *docGen) key(name string) {
	switch g.n(32) {
	case 1:
		name = strings.ToUpper(name)
	case 2:
		name = strings.Replace(name, "s", "\u017f", 1)
	case 3:
		name = strings.Replace(name, "k", "\u212a", 1)
	case 4:
		if name != "" {
			name = `\u00` + strconv.FormatInt(int64(name[0]), 16) + name[1:]
		}
	case 5:
		name += "x"
	case 6:
		name = strings.Replace(name, "i", "\u0131", 1)
	}
	g.b = append(g.b, '"')
	g.b = append(g.b, name...)
	g.b = append(g.b, `":`...)
}

// scalar writes a value of any kind, mostly small.
func (g *docGen) scalar() {
	g.b = append(g.b, g.pick(`null`, `true`, `false`, `0`, `-1`, `1.5`, `1e2`, `255`, `256`, `9223372036854775808`, `""`, `"x"`,
		`"YWJj"`, `[]`, `{}`, `[1,"a",null]`, `{"a":[{}]}`, `"\ud800"`, `"é\u2028"`)...)
}

func (g *docGen) str(words ...string) {
	if g.n(40) == 0 {
		g.scalar()
		return
	}
	g.b = strconv.AppendQuote(g.b, g.pick(words...))
}

func (g *docGen) bytesValue() {
	switch k := g.n(20); {
	case k == 0:
		g.scalar()
	case k <= 2:
		g.b = append(g.b, '[')
		for i := range g.n(5) {
			if i > 0 {
				g.b = append(g.b, ',')
			}
			if g.n(10) == 0 {
				g.b = append(g.b, g.pick("256", "-1", "1.0", `"a"`, "[]")...)
				continue
			}
			g.b = append(g.b, g.pick("0", "7", "255", "null")...)
		}
		g.b = append(g.b, ']')
	case k <= 10:
		// A signature framing metadata.
		meta := []string{"\x00item=msg_1\x00", "\x00phase=commentary\x00", "\x00format=f\x00", "\x00other=web_search\x00",
			"\x00\x00", "\x00item=\xff\x00", "\x00bad", "\x00k=v\x00", ""}
		raw := meta[g.n(len(meta))] + meta[g.n(len(meta))] + g.pick("", "sig", `{"x":1}`)
		g.b = append(append(append(g.b, '"'), base64.StdEncoding.EncodeToString([]byte(raw))...), '"')
	case k <= 14:
		// Base64 with a line break, or (rarely) broken.
		s := base64.StdEncoding.EncodeToString([]byte(g.pick("a", "ab", "abc", "abcd\x00\xff")))
		at := g.n(len(s) + 1)
		ins := g.pick(`\n`, `\r\n`, `\r`, ``)
		if g.n(6) == 0 {
			ins = g.pick(`=`, `*`, `==`, `A`)
		}
		g.b = append(append(append(append(g.b, '"'), s[:at]...), ins...), s[at:]...)
		g.b = append(g.b, '"')
	default:
		g.b = append(append(append(g.b, '"'), base64.StdEncoding.EncodeToString([]byte(g.pick("", "sig", "\x00\x00x", "enc")))...), '"')
	}
}

// object writes an object of up to max members, each a field of names
// whose value value writes; the first two are usually names[0] and
// names[1].
func (g *docGen) object(max int, names []string, value func(name string)) {
	if g.n(40) == 0 {
		g.scalar()
		return
	}
	g.b = append(g.b, '{')
	count := g.n(max + 1)
	if count < 2 && g.n(4) > 0 {
		count = 2
	}
	for i := range count {
		if i > 0 {
			g.b = append(g.b, ',')
		}
		name := g.pick(names...)
		if i < 2 && g.n(8) > 0 {
			name = names[i]
		}
		g.key(name)
		value(name)
	}
	g.b = append(g.b, '}')
}

func (g *docGen) array(max int, elem func()) {
	if g.n(40) == 0 {
		g.scalar()
		return
	}
	g.b = append(g.b, '[')
	for i := range g.n(max + 1) {
		if i > 0 {
			g.b = append(g.b, ',')
		}
		elem()
	}
	g.b = append(g.b, ']')
}

var (
	docFields   = []string{"messages", "system", "tools", "max_output_tokens", "thinking", "thinking_budget", "cache_key", "base_url", "base_url_flag", "environment", "quirks", "other"}
	msgFields   = []string{"role", "content", "provider", "model", "response_id", "call_id", "name", "is_error", "other"}
	blockFields = []string{"type", "signature", "text", "encrypted", "redacted", "producer", "format", "item_id", "phase", "media_type", "data", "id", "name", "arguments", "arguments_text"}
	quirkFields = []string{"developer_role", "max_tokens_field", "no_stream_usage", "thinking_format", "echo_reasoning", "reasoning_details",
		"usage_include", "tool_result_name", "no_strict", "no_prompt_cache_key", "max_tool_call_id_len"}
)

func (g *docGen) block() {
	g.object(6, blockFields, func(name string) {
		switch name {
		case "type":
			g.b = strconv.AppendQuote(g.b, g.mostly([]string{"text", "thinking", "image", "tool_call"}, []string{"Text", "video", ""}))
		case "signature", "encrypted", "data":
			g.bytesValue()
		case "redacted":
			g.b = append(g.b, g.mostly([]string{"true", "false", "null"}, []string{`"true"`})...)
		case "arguments":
			g.b = append(g.b, g.pick(`{ "a" : [1, 2] }`, `null`, `"s"`, `[]`, `{}`, `-0.5e3`)...)
		default:
			g.str("", "x", "msg_1", "anthropic", "{\"b\":2}", "é")
		}
	})
}

func (g *docGen) message() {
	g.object(5, msgFields, func(name string) {
		switch name {
		case "role":
			g.b = strconv.AppendQuote(g.b, g.mostly([]string{"user", "assistant", "tool_result"}, []string{"User", "robot", ""}))
		case "content":
			g.array(4, g.block)
		case "is_error":
			g.b = append(g.b, g.mostly([]string{"true", "false", "null"}, []string{"1"})...)
		default:
			g.str("", "p", "call_1", "anthropic")
		}
	})
}

func (g *docGen) document() []byte {
	g.object(7, docFields, func(name string) {
		switch name {
		case "messages":
			g.array(4, g.message)
		case "tools":
			g.array(3, func() {
				g.object(4, []string{"name", "description", "parameters"}, func(name string) {
					if name == "parameters" {
						g.b = append(g.b, g.pick(`{"type":"object"}`, `null`, `[ 1 ]`, `"s"`)...)
						return
					}
					g.str("read", "", "d")
				})
			})
		case "max_output_tokens", "thinking_budget":
			g.b = append(g.b, g.mostly([]string{"0", "4096", "-5", "9223372036854775807", "-0", "null"}, []string{"1.5", "1e2", "9223372036854775808", `"1"`})...)
		case "environment":
			g.object(3, []string{"ANTHROPIC_BASE_URL", "OPENAI_BASE_URL", "A", ""}, func(string) { g.str("http://x", "", "y") })
		case "quirks":
			g.object(4, quirkFields, func(name string) {
				switch name {
				case "max_tool_call_id_len":
					g.b = append(g.b, g.mostly([]string{"0", "40", "-1", "null"}, []string{"1.5"})...)
				case "max_tokens_field", "thinking_format", "echo_reasoning":
					g.str("", "max_tokens", "openrouter", "reasoning_content")
				default:
					g.b = append(g.b, g.mostly([]string{"true", "false", "null"}, []string{`"yes"`})...)
				}
			})
		default:
			g.str("", "s", "high", "http://x.test/v1", "é\n")
		}
	})
	return g.b
}

// TestRustDocumentShapes compares the parsers on 3000 drawn documents
// aimed at encoding/json's rules (see docGen).
func TestRustDocumentShapes(t *testing.T) {
	d := documentDriver(t)
	r := rand.New(rand.NewPCG(21, 22))
	for range 3000 {
		in := make([]byte, 32+r.IntN(256))
		for i := range in {
			in[i] = byte(r.Uint32())
		}
		compareDocument(t, d, "m", (&docGen{in: in}).document())
	}
}

// FuzzRustDocumentShapes compares the parsers on documents docGen draws
// from the input.
func FuzzRustDocumentShapes(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x01\x05\x01\x01\x03\x01\x02\x04\x01\x00\x03\x02\x03\x02\x02\x01\x01\x07\x00\x05\x02"))
	f.Add(bytes.Repeat([]byte{1, 4, 1, 5, 9, 2, 6, 5, 3, 5}, 20))
	d := documentDriver(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		compareDocument(t, d, "m", (&docGen{in: in}).document())
	})
}
