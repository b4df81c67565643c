package jsonscan_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/smith-agent/smith/plugins-src/internal/jsonscan"
	"github.com/smith-agent/smith/plugins-src/internal/rustdriver"
)

// driver is the native driver of jsonscan.rs the fuzz targets ask.
const driver = "testdata/driver.rs"

// checked are the rustc arguments of the driver the tests ask: integer
// overflow panics, as it would not in the optimized build otherwise.
var checked = []string{"-C", "overflow-checks=on"}

func TestMain(m *testing.M) {
	code := m.Run()
	rustdriver.Stop()
	os.Exit(code)
}

// TestRustUnitTests runs jsonscan.rs's own tests.
func TestRustUnitTests(t *testing.T) {
	rustdriver.RunTests(t, "jsonscan.rs")
}

// TestRustUnitTestsWasm runs them built for wasm as the plugins are (SIMD
// scanning included), under wazero; depth_limit, which needs a thread
// with a large stack, runs natively only.
func TestRustUnitTestsWasm(t *testing.T) {
	rustdriver.RunWasmTests(t, "jsonscan.rs", "--skip", "depth_limit")
}

// rustWalk runs script over text with the Rust Decoder.
func rustWalk(t *testing.T, text, script []byte) []byte {
	payload := binary.LittleEndian.AppendUint32(nil, uint32(len(text)))
	payload = append(append(payload, text...), script...)
	return rustdriver.Start(t, driver, checked...).Ask(t, 'w', payload)
}

// render shows a trace one quoted entry a line.
func render(trace []byte) string {
	var b strings.Builder
	for _, line := range bytes.SplitAfter(trace, []byte("\n")) {
		if len(line) > 0 {
			fmt.Fprintf(&b, "\t%q\n", line)
		}
	}
	return b.String()
}

// walkSeeds are texts and scripts that reach every operation and error.
var walkSeeds = []struct{ text, script string }{
	{`{"id":"r1","delta":{"text":"a\u00e9\n"},"index":3,"done":true,"usage":{"n":[1,2]},"empty":"","type":"enc"}`, "\x07\x04\x07\x04\x06\x05\x02\x04\x04"},
	{`{"a":[1,{"b":null}],"c":{"d":"e"}}`, "\x0c"},
	{`[1,"x",true,null,{},[],-0.5e3,"\ud83d\ude00\ud800"]`, "\x08\x06\x04\x05\x03\x07\x08\x02\x04"},
	{`{"index":"3","id":"a",}`, "\x07\x06\x04"},
	{`{"\u0061\n":{"\u00e9":2},"h\u00e9":1}`, "\x07\x07\x06\x06"},
	{"\"a\xe6\x80b\xff\\u00e9\"", "\x04"},
	{`"enc"`, "\x04"},
	{`1 2`, "\x06\x06"},
	{`  `, "\x00\x04\x05\x06"},
	{`[1 2]`, "\x08\x0a\x06\x06"},
	{`{"a":1,"b":2}`, "\x07\x09\x06"},
	{`{"a":"x"}`, "\x07\x03\x0b"},
	{`[9223372036854775808,-9223372036854775808,1.5,1e2,null,"7"]`, "\x08\x06\x06\x06\x06\x06\x06"},
	{`{"a"}`, "\x0c"},
	{`tru`, "\x05"},
	{`"\x"`, "\x04"},
	{"\xe9", "\x01"},
	{`[[[[]]]]`, "\x08\x08\x01"},
	{strings.Repeat("[", 10001) + strings.Repeat("]", 10001), "\x01"},
	{strings.Repeat(`{"a":`, 50) + "1" + strings.Repeat("}", 50), strings.Repeat("\x07", 50) + "\x06"},
	{strings.Repeat(`[{"k":`, 150) + "1" + strings.Repeat("}]", 149) + "]}", "\x01"},
	{strings.Repeat(`[{"k":`, 150) + "1" + strings.Repeat("}]", 150), strings.Repeat("\x08\x07", 150)},
	{strings.Repeat("[", 10001) + strings.Repeat("]", 10001), "\x0c"},                        // the limit reached by walking
	{strings.Repeat("[", 10001) + strings.Repeat("]", 10001), strings.Repeat("\x08", 10001)}, // and by a script
	{strings.Repeat("[", 10000) + strings.Repeat("]", 10000), strings.Repeat("\x08", 9999)},  // the limit itself
}

// errorTexts are texts with each syntax error there is.
var errorTexts = []string{"", " \t\r\n", "tru", "nul1", "fals", "01", "-", "-x", "1.", "1.x", "1e+", `"\x"`, `"\u12"`,
	"\"a\nb\"", `"abc`, "\"a\xe9", `{"a":1,}`, `[1,]`, `{"a" 1}`, `{"a"}`, `{a:1}`, `[1,2`, `[1,2,`, `[1}`, `[1 2]`,
	`{"a":1 "b"}`, `1 2`, `{} x`, "\x7f", "\x00", "\xa0", "\xad", "\xe9", "\xff", `'x'`, `\`, `"`, `{"a":[1}`}

// FuzzRustDecoder holds the Rust Decoder to the Go one: the same calls
// (a walk script) on the same text give the same trace, every value,
// unquoted string and error message included.
func FuzzRustDecoder(f *testing.F) {
	for _, s := range walkSeeds {
		f.Add([]byte(s.text), []byte(s.script))
	}
	for _, text := range errorTexts {
		f.Add([]byte(text), []byte{1})  // skip
		f.Add([]byte(text), []byte{12}) // walk
	}
	rustdriver.Start(f, driver, checked...) // built here, not inside the first input
	f.Fuzz(func(t *testing.T, text, script []byte) {
		want := goWalk(text, script)
		if got := rustWalk(t, text, script); !bytes.Equal(got, want) {
			t.Fatalf("text %q, script %q:\nRust traced\n%sGo traced\n%s", text, script, render(got), render(want))
		}
	})
}

// FuzzRustQuote holds append_quote to AppendQuote, byte for byte.
func FuzzRustQuote(f *testing.F) {
	for _, s := range []string{"abc", "a\"b\\c<>&\x00\b\f\n\r\t\x1f\x7f", "\xff\xc3(\xe2\x80", "\u2028é\u2029世\U0001f600", "\xed\xa0\x80\xf4\x90\x80\x80"} {
		f.Add([]byte(s))
	}
	rustdriver.Start(f, driver, checked...) // built here, not inside the first input
	f.Fuzz(func(t *testing.T, s []byte) {
		want := jsonscan.AppendQuote(nil, string(s))
		if got := rustdriver.Start(t, driver, checked...).Ask(t, 'q', s); !bytes.Equal(got, want) {
			t.Fatalf("quote %q: Rust wrote %q, Go %q", s, got, want)
		}
	})
}

// FuzzRustCompact holds append_compact to AppendCompact on any bytes: the
// same output wherever the Go function (meant for valid JSON) does not
// panic, and no panic in Rust anywhere.
func FuzzRustCompact(f *testing.F) {
	for _, s := range []string{" { \"a\" :\t[1 ,\n2 ] }\r\n", `{"k":"<&>\u2028"}`, "\"\u2028\u2029\xe2\x80\"", `"a\"b\\"`, "\"a\\"} {
		f.Add([]byte(s))
	}
	rustdriver.Start(f, driver, checked...) // built here, not inside the first input
	f.Fuzz(func(t *testing.T, src []byte) {
		got := rustdriver.Start(t, driver, checked...).Ask(t, 'c', src)
		want, panicked := goCompact(src)
		if !panicked && !bytes.Equal(got, want) {
			t.Fatalf("compact %q: Rust wrote %q, Go %q", src, got, want)
		}
	})
}

// goCompact runs AppendCompact, reporting whether it panicked (on a
// string that ends in a backslash, which valid JSON never has).
func goCompact(src []byte) (out []byte, panicked bool) {
	defer func() {
		if recover() != nil {
			panicked = true
		}
	}()
	return jsonscan.AppendCompact(nil, src), false
}
