package norm_test

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/plugins-src/internal/rustdriver"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
	"github.com/smith-agent/smith/plugins-src/providers/internal/normtrace"
)

func TestMain(m *testing.M) {
	code := m.Run()
	rustdriver.Stop()
	os.Exit(code)
}

// TestRustUnit runs the Rust port's own tests (norm.rs, mod tests).
func TestRustUnit(t *testing.T) {
	rustdriver.RunTests(t, "norm.rs")
}

// driver is the Rust port's driver (testdata/driver.rs) built with
// overflow checks, so arithmetic that would wrap in the plugin build fails.
func driver(tb testing.TB) *rustdriver.Driver {
	return rustdriver.Start(tb, "testdata/driver.rs", "-C", "overflow-checks=on")
}

// TestRustTrace holds norm.rs's trace to normtrace.Trace on hand-made
// event lists and on random ones.
func TestRustTrace(t *testing.T) {
	tests := []struct {
		name   string
		events []norm.Event
	}{
		{"none", nil},
		{"every event", everyEvent()},
		{"quoting", []norm.Event{
			norm.TextDelta{Text: "\a\b\f\n\r\t\v\x00\x1f\x7f \"\\ é€😀\ufffd\u2028", Signature: []byte("\xff\xc3(\xed\xa0\x80\xf4\x90\x80\x80\xe2\x82")},
			norm.OtherBlock{Index: math.MaxInt64, Raw: []byte{0xc0, 0xaf, 0xef, 0xbf, 0xbd}},
		}},
		{"extreme numbers", []norm.Event{
			norm.Done{Reason: norm.StopLength, Usage: norm.Usage{Input: norm.Known(math.MinInt64), Output: norm.Known(math.MaxInt64), CacheRead: norm.Known(-1), CacheWrite: norm.Known(0)}},
			norm.StreamError{Err: &norm.Error{Kind: norm.ErrMalformed, RetryAfter: math.MaxInt64, HTTPStatus: math.MaxUint16}},
		}},
		{"truncated", []norm.Event{norm.Truncated("gemini", "a chunk with a finishReason arrived", norm.Usage{Reasoning: norm.Known(2)})}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			compareTrace(t, tt.events)
		})
	}
	t.Run("random", func(t *testing.T) {
		r := rand.New(rand.NewPCG(1, 2))
		for range 2000 {
			evs := make([]norm.Event, r.IntN(12))
			for i := range evs {
				evs[i] = randomEvent(r, false)
			}
			compareTrace(t, evs)
		}
	})
}

// FuzzRustTrace builds an event list from arbitrary bytes (see genEvents)
// and requires norm.rs's trace to equal normtrace.Trace.
func FuzzRustTrace(f *testing.F) {
	f.Add([]byte("\x00\x03abc\x01m\x00\x01\x00hi\x02\x07\x01\x02\x00\x01\x05tool_use"))
	f.Add([]byte("\x08\x03\x05oops!\x01\x02\xf5\x01\x07\x02\x00\x09\x10\x11"))
	driver(f) // built before the first input, so no worker counts as hung while rustc runs
	f.Fuzz(func(t *testing.T, data []byte) {
		compareTrace(t, genEvents(data, false))
	})
}

func compareTrace(t *testing.T, events []norm.Event) {
	t.Helper()
	want := normtrace.Trace(events)
	got := string(driver(t).Ask(t, 't', encodeEvents(events)))
	if got != want {
		t.Fatalf("the Rust trace differs from normtrace.Trace\nrust:\n%s\n  go:\n%s", got, want)
	}
}

// everyEvent is one of each event with every field set.
func everyEvent() []norm.Event {
	u := norm.Usage{Input: norm.Known(10), Output: norm.Known(20), CacheRead: norm.Known(0), Reasoning: norm.Known(5)}
	return []norm.Event{
		norm.Start{Provider: "anthropic", Model: "claude-x", ResponseID: "msg_1"},
		norm.TextDelta{Index: 0, Text: "hello\n", Signature: []byte("sig"), ItemID: "msg_2", Phase: "commentary"},
		norm.ThinkingDelta{Index: 1, Text: "hm", Signature: []byte("c2ln"), Encrypted: []byte("enc"), Redacted: true, Format: "anthropic-claude-v1", ItemID: "rs_1"},
		norm.ToolCallStart{Index: 2, ID: "call_1", Name: "read", ItemID: "fc_1"},
		norm.ToolCallDelta{Index: 2, Arguments: `{"path":"a"}`},
		norm.ToolCallEnd{Index: 2, Signature: []byte("ts")},
		norm.OtherBlock{Index: 3, Type: "server_tool_use", Raw: []byte(`{"type":"server_tool_use"}`)},
		norm.Done{Reason: norm.StopToolUse, Raw: "tool_use", Usage: u, UsageRaw: []byte(`{"input_tokens":10}`)},
		norm.StreamError{Err: &norm.Error{Kind: norm.ErrRateLimit, Message: "slow down", Retryable: true, RetryAfter: 1500 * time.Millisecond,
			HTTPStatus: 429, ProviderType: "rate_limit_error", Code: "rl", RequestID: "req_1"}, Raw: "error", Usage: u, UsageRaw: []byte("{}")},
	}
}

var (
	stopReasons = []norm.StopReason{norm.StopEnd, norm.StopToolUse, norm.StopLength, norm.StopRefusal}
	errorKinds  = []norm.ErrorKind{norm.ErrAuth, norm.ErrInvalidRequest, norm.ErrContextOverflow, norm.ErrRateLimit, norm.ErrQuota,
		norm.ErrOverloaded, norm.ErrServer, norm.ErrNotFound, norm.ErrTransport, norm.ErrTruncated, norm.ErrAborted, norm.ErrMalformed}
)

// source is where an event generator takes its values from: random
// numbers or fuzz bytes.
type source interface {
	n(bound int) int // in [0, bound)
	u64() uint64
	str() string // valid UTF-8, as every string of a Rust event is
	bytes() []byte
}

// genEvent makes an event of any kind from s. With small, indexes are
// below 3 and tool-call arguments are often JSON fragments, so that an
// assembler sees streams that keep the protocol as well as ones that
// break it.
func genEvent(s source, small bool) norm.Event {
	index := func() int { return int(s.u64() >> 1) }
	args := s.str
	if small {
		index = func() int { return s.n(3) }
		args = func() string {
			if k := s.n(len(argFragments) + 1); k < len(argFragments) {
				return argFragments[k]
			}
			return s.str()
		}
	}
	flag := func() bool { return s.n(2) == 1 }
	amount := func() norm.Amount {
		if s.n(2) == 0 {
			return norm.Amount{}
		}
		return norm.Known(int64(s.u64()))
	}
	usage := func() norm.Usage {
		return norm.Usage{Input: amount(), Output: amount(), CacheRead: amount(), CacheWrite: amount(), Reasoning: amount()}
	}
	switch s.n(9) {
	case 0:
		return norm.Start{Provider: s.str(), Model: s.str(), ResponseID: s.str()}
	case 1:
		return norm.TextDelta{Index: index(), Text: s.str(), Signature: s.bytes(), ItemID: s.str(), Phase: s.str()}
	case 2:
		return norm.ThinkingDelta{Index: index(), Text: s.str(), Signature: s.bytes(), Encrypted: s.bytes(), Redacted: flag(), Format: s.str(), ItemID: s.str()}
	case 3:
		return norm.ToolCallStart{Index: index(), ID: s.str(), Name: s.str(), ItemID: s.str()}
	case 4:
		return norm.ToolCallDelta{Index: index(), Arguments: args()}
	case 5:
		return norm.ToolCallEnd{Index: index(), Signature: s.bytes()}
	case 6:
		return norm.OtherBlock{Index: index(), Type: s.str(), Raw: s.bytes()}
	case 7:
		return norm.Done{Reason: stopReasons[s.n(len(stopReasons))], Raw: s.str(), Usage: usage(), UsageRaw: s.bytes()}
	default:
		e := &norm.Error{Kind: errorKinds[s.n(len(errorKinds))], Message: s.str(), Retryable: flag(),
			RetryAfter: time.Duration(s.u64() >> 1), HTTPStatus: int(uint16(s.u64())), ProviderType: s.str(), Code: s.str(), RequestID: s.str()}
		return norm.StreamError{Err: e, Raw: s.str(), Usage: usage(), UsageRaw: s.bytes()}
	}
}

// randSource draws from a PRNG, with strings from a pool of runes that
// exercise every quoting rule and bytes that are often invalid UTF-8.
type randSource struct{ r *rand.Rand }

var runePool = []rune("aZ09 ~\"\\\a\b\f\n\r\t\v\x00\x1f\x7f\u0080\u00e9\u2028\ufffd\uffff\U0001f600\U0010ffff")

func (s randSource) n(bound int) int { return s.r.IntN(bound) }

func (s randSource) u64() uint64 {
	switch s.r.IntN(4) {
	case 0:
		return uint64(s.r.IntN(1000))
	case 1:
		return math.MaxUint64 - uint64(s.r.IntN(3))
	}
	return s.r.Uint64()
}

func (s randSource) str() string {
	var b strings.Builder
	for range s.r.IntN(8) {
		b.WriteRune(runePool[s.r.IntN(len(runePool))])
	}
	return b.String()
}

func (s randSource) bytes() []byte {
	b := []byte(s.str())
	for range s.r.IntN(3) {
		b = append(b, byte(s.r.Uint32()))
	}
	return b
}

// argFragments are pieces of tool-call arguments: together they make
// objects, other JSON values and invalid text.
var argFragments = []string{`{"a":`, `1}`, `{}`, ` `, `[1]`, `"s"`, "\u00a0", `{"b":"<&>"`, `}`, `nul`, `l`}

func randomEvent(r *rand.Rand, small bool) norm.Event { return genEvent(randSource{r}, small) }

// byteSource reads fuzz bytes; once they run out every value is zero.
type byteSource struct{ data []byte }

func (s *byteSource) byte() byte {
	if len(s.data) == 0 {
		return 0
	}
	b := s.data[0]
	s.data = s.data[1:]
	return b
}

func (s *byteSource) n(bound int) int { return int(s.byte()) % bound }

func (s *byteSource) u64() uint64 {
	var b [8]byte
	for i := range s.byte() % 9 {
		b[i] = s.byte()
	}
	return binary.LittleEndian.Uint64(b[:])
}

func (s *byteSource) bytes() []byte {
	n := min(int(s.byte()%32), len(s.data))
	b := s.data[:n:n]
	s.data = s.data[n:]
	return b
}

func (s *byteSource) str() string { return strings.ToValidUTF8(string(s.bytes()), "\ufffd") }

// genEvents reads events from data until it runs out (small as for
// genEvent).
func genEvents(data []byte, small bool) []norm.Event {
	s := &byteSource{data}
	var evs []norm.Event
	for len(s.data) > 0 {
		evs = append(evs, genEvent(s, small))
	}
	return evs
}

// encodeEvents writes events in the driver's format (testdata/driver.rs).
func encodeEvents(events []norm.Event) []byte {
	var b []byte
	str := func(s string) {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(s)))
		b = append(b, s...)
	}
	u64 := func(n uint64) { b = binary.LittleEndian.AppendUint64(b, n) }
	flag := func(v bool) {
		if v {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	usage := func(u norm.Usage) {
		for _, a := range []norm.Amount{u.Input, u.Output, u.CacheRead, u.CacheWrite, u.Reasoning} {
			n, known := a.Value()
			flag(known)
			u64(uint64(n))
		}
	}
	for _, ev := range events {
		switch e := ev.(type) {
		case norm.Start:
			b = append(b, 0)
			str(e.Provider)
			str(e.Model)
			str(e.ResponseID)
		case norm.TextDelta:
			b = append(b, 1)
			u64(uint64(e.Index))
			str(e.Text)
			str(string(e.Signature))
			str(e.ItemID)
			str(e.Phase)
		case norm.ThinkingDelta:
			b = append(b, 2)
			u64(uint64(e.Index))
			str(e.Text)
			str(string(e.Signature))
			str(string(e.Encrypted))
			flag(e.Redacted)
			str(e.Format)
			str(e.ItemID)
		case norm.ToolCallStart:
			b = append(b, 3)
			u64(uint64(e.Index))
			str(e.ID)
			str(e.Name)
			str(e.ItemID)
		case norm.ToolCallDelta:
			b = append(b, 4)
			u64(uint64(e.Index))
			str(e.Arguments)
		case norm.ToolCallEnd:
			b = append(b, 5)
			u64(uint64(e.Index))
			str(string(e.Signature))
		case norm.OtherBlock:
			b = append(b, 6)
			u64(uint64(e.Index))
			str(e.Type)
			str(string(e.Raw))
		case norm.Done:
			b = append(b, 7, byte(indexOf(stopReasons, e.Reason)))
			str(e.Raw)
			usage(e.Usage)
			str(string(e.UsageRaw))
		case norm.StreamError:
			b = append(b, 8, byte(indexOf(errorKinds, e.Err.Kind)))
			str(e.Err.Message)
			flag(e.Err.Retryable)
			u64(uint64(e.Err.RetryAfter))
			b = binary.LittleEndian.AppendUint16(b, uint16(e.Err.HTTPStatus))
			str(e.Err.ProviderType)
			str(e.Err.Code)
			str(e.Err.RequestID)
			str(e.Raw)
			usage(e.Usage)
			str(string(e.UsageRaw))
		default:
			b = append(b, 0xff) // the driver answers "malformed"
		}
	}
	return b
}

func indexOf[T comparable](s []T, v T) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return 0xff
}

// TestRustMeta holds norm.rs's pack_meta and unpack_meta to PackMeta and
// UnpackMeta.
func TestRustMeta(t *testing.T) {
	tests := []struct {
		name    string
		meta    norm.Meta
		payload string
	}{
		{"zero", norm.Meta{}, "c2ln"},
		{"empty", norm.Meta{}, ""},
		{"format", norm.Meta{Format: "anthropic-claude-v1"}, "c2ln"},
		{"every field", norm.Meta{Format: "f", Item: "rs_1", Phase: "final_answer", Other: "web_search"}, `{"a":1}`},
		{"nul payload", norm.Meta{}, "\x00x"},
		{"nul payload with item", norm.Meta{Item: "i"}, "\x00"},
		{"nul in a value", norm.Meta{Format: "a\x00b", Phase: "p"}, "x"},
		{"equals and invalid utf-8 in values", norm.Meta{Item: "a=b", Other: "\xff"}, "\xfe"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			comparePack(t, tt.meta, []byte(tt.payload))
		})
	}
}

// FuzzRustPackMeta packs arbitrary metadata and payloads in Go and Rust,
// then unpacks the result in both.
func FuzzRustPackMeta(f *testing.F) {
	f.Add("anthropic-claude-v1", "", "", "", []byte("c2ln"))
	f.Add("", "msg_1", "commentary", "", []byte{})
	f.Add("", "", "", "x\x00", []byte("\x00\x00"))
	driver(f)
	f.Fuzz(func(t *testing.T, format, item, phase, other string, payload []byte) {
		comparePack(t, norm.Meta{Format: format, Item: item, Phase: phase, Other: other}, payload)
	})
}

// FuzzRustUnpackMeta unpacks arbitrary signatures in Go and Rust.
func FuzzRustUnpackMeta(f *testing.F) {
	f.Add([]byte("\x00format=x\x00sig"))
	f.Add([]byte("\x00new=1\x00\x00\x00\x00p"))
	f.Add([]byte("\x00=x\x00"))
	driver(f)
	f.Fuzz(func(t *testing.T, sig []byte) {
		compareUnpack(t, sig)
	})
}

func appendStr(b []byte, s string) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(s)))
	return append(b, s...)
}

func comparePack(t *testing.T, m norm.Meta, payload []byte) {
	t.Helper()
	var req []byte
	for _, s := range []string{m.Format, m.Item, m.Phase, m.Other} {
		req = appendStr(req, s)
	}
	want := norm.PackMeta(m, bytes.Clone(payload))
	got := driver(t).Ask(t, 'p', append(req, payload...))
	if !bytes.Equal(got, want) {
		t.Fatalf("pack %+q with payload %q: rust %q, go %q", m, payload, got, want)
	}
	compareUnpack(t, want)
}

func compareUnpack(t *testing.T, sig []byte) {
	t.Helper()
	m, payload := norm.UnpackMeta(sig)
	var want []byte
	for _, s := range []string{m.Format, m.Item, m.Phase, m.Other} {
		want = appendStr(want, s)
	}
	want = append(want, payload...)
	got := driver(t).Ask(t, 'u', sig)
	if !bytes.Equal(got, want) {
		t.Fatalf("unpack %q: rust %q, go %q", sig, got, want)
	}
}
