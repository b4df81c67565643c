package jsonscan

import (
	"strings"
	"testing"
)

// scanCases are valid and invalid texts; they also seed FuzzScan.
var scanCases = []struct {
	name  string
	in    string
	valid bool
}{
	{"empty input", "", false},
	{"whitespace only", " \t\r\n", false},
	{"null", "null", true},
	{"true with spaces", " true ", true},
	{"false", "false", true},
	{"truncated literal", "tru", false},
	{"misspelt literal", "nul1", false},
	{"zero", "0", true},
	{"negative fraction exponent", "-12.5e+3", true},
	{"leading zero", "01", false},
	{"bare minus", "-", false},
	{"fraction without digits", "1.", false},
	{"exponent without digits", "1e", false},
	{"int64 overflow", "9223372036854775808", true},
	{"int64 minimum", "-9223372036854775808", true},
	{"string", `"héllo"`, true},
	{"escapes", `"a\"b\\c\/d\b\f\n\r\t"`, true},
	{"surrogate pair", `"\ud83d\ude00"`, true},
	{"lone high surrogate", `"\ud83dx"`, true},
	{"high surrogate before a non-surrogate escape", `"\ud83d\u0041"`, true},
	{"lone low surrogate", `"\ude00"`, true},
	{"invalid utf-8", "\"a\xffb\"", true},
	{"bad escape", `"\x"`, false},
	{"short unicode escape", `"\u12"`, false},
	{"raw control character", "\"a\nb\"", false},
	{"unterminated string", `"abc`, false},
	{"empty object", "{}", true},
	{"empty array", "[ ]", true},
	{"nested", `{"a":[1,{"b":null}],"c":{"d":"e"}}`, true},
	{"duplicate keys", `{"a":1,"a":2}`, true},
	{"escaped key", `{"\u0061":1}`, true},
	{"trailing comma in object", `{"a":1,}`, false},
	{"trailing comma in array", `[1,]`, false},
	{"missing colon", `{"a" 1}`, false},
	{"unquoted key", `{a:1}`, false},
	{"unclosed array", `[1,2`, false},
	{"mismatched close", `[1}`, false},
	{"two values", `1 2`, false},
	{"trailing garbage", `{} x`, false},
	{"chat chunk", `{"id":"x","choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":null}],"usage":null}`, true},
}

func TestValidity(t *testing.T) {
	for _, tc := range scanCases {
		t.Run(tc.name, func(t *testing.T) {
			var d Decoder
			d.Reset([]byte(tc.in))
			d.Skip()
			if err := d.Finish(); (err == nil) != tc.valid {
				t.Fatalf("Skip+Finish(%q) = %v, want valid %v", tc.in, err, tc.valid)
			}
		})
	}
}

func TestDepthLimit(t *testing.T) {
	for _, tc := range []struct {
		name  string
		depth int
		valid bool
	}{
		{"at the limit", maxDepth, true},
		{"one past the limit", maxDepth + 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := strings.Repeat("[", tc.depth) + strings.Repeat("]", tc.depth)
			var d Decoder
			d.Reset([]byte(in))
			d.Skip()
			err := d.Finish()
			if (err == nil) != tc.valid {
				t.Fatalf("depth %d: %v, want valid %v", tc.depth, err, tc.valid)
			}
			if err != nil && !strings.Contains(err.Error(), "limit of 10000 levels") {
				t.Fatalf("error %q does not name the limit", err)
			}
		})
	}
}

func TestReadingMethods(t *testing.T) {
	type chunk struct {
		id, text  string
		index     int64
		hasIndex  bool
		done      bool
		raw       string
		empty     bool
		encrypted bool
	}
	for _, tc := range []struct {
		name    string
		in      string
		want    chunk
		wantErr string
	}{
		{name: "fields of every kind",
			in:   `{"id":"r1","delta":{"text":"a\u00e9\n"},"index":3,"done":true,"usage":{"n":[1,2]},"empty":"","type":"enc"}`,
			want: chunk{id: "r1", text: "a\u00e9\n", index: 3, hasIndex: true, done: true, raw: `{"n":[1,2]}`, empty: true, encrypted: true}},
		{name: "nulls read as absent",
			in:   `{"id":null,"delta":null,"index":null,"done":null,"usage":null,"empty":null}`,
			want: chunk{raw: "null", empty: true}},
		{name: "unknown keys are skipped",
			in:   `{"x":{"deep":[{"y":[]}]},"id":"a","z":[true,false,null]}`,
			want: chunk{id: "a"}},
		{name: "a string where an integer belongs is a type error",
			in: `{"index":"3","id":"still read"}`, want: chunk{id: "still read"},
			wantErr: "value at offset 9: found string, want number"},
		{name: "a fraction where an integer belongs is a type error",
			in: `{"index":1.5}`, wantErr: "the number 1.5 is not an integer"},
		{name: "a syntax error wins over an earlier type error",
			in: `{"index":"3","id":"a",}`, want: chunk{id: "a"},
			wantErr: `invalid character '}' at offset 22 looking for an object key`},
		{name: "truncated text",
			in: `{"id":"a"`, want: chunk{id: "a"}, wantErr: "the input ends at offset 9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d Decoder
			var got chunk
			d.Reset([]byte(tc.in))
			d.Object(func(key []byte) {
				switch string(key) {
				case "id":
					got.id = d.Str().String()
				case "delta":
					d.Object(func(key []byte) {
						if string(key) == "text" {
							got.text = d.Str().String()
						}
					})
				case "index":
					got.index, got.hasIndex = d.Int()
				case "done":
					got.done = d.Bool()
				case "usage":
					got.raw = string(d.Raw())
				case "empty":
					got.empty = d.Str().Empty()
				case "type":
					got.encrypted = d.Str().Equal("enc")
				}
			})
			err := d.Finish()
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("Finish() = %v, want an error containing %q", err, tc.wantErr)
			}
			if got != tc.want {
				t.Fatalf("read %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestStringBytes(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   String
		want []byte
	}{
		{"absent is nil", nil, nil},
		{"empty is not nil", String(`""`), []byte{}},
		{"plain is copied", String(`"sig=="`), []byte("sig==")},
		{"escapes are resolved", String(`"a\/b"`), []byte("a/b")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.in.Bytes()
			if (got == nil) != (tc.want == nil) || string(got) != string(tc.want) {
				t.Fatalf("Bytes() = %q (nil %v), want %q (nil %v)", got, got == nil, tc.want, tc.want == nil)
			}
		})
	}
}

func TestAllocations(t *testing.T) {
	data := []byte(`{"id":"x","choices":[{"index":0,"delta":{"content":"hi","tool_calls":[{"index":0,"function":{"arguments":"{}"}}]},"finish_reason":null}],"usage":null}`)
	var d Decoder
	var n int
	read := func() {
		d.Reset(data)
		d.Object(func(key []byte) {
			switch string(key) {
			case "id":
				n += len(d.Str())
			case "choices":
				d.Array(func() {
					d.Object(func(key []byte) {
						if string(key) == "delta" {
							n += len(d.Raw())
						}
					})
				})
			}
		})
		if err := d.Finish(); err != nil {
			t.Fatal(err)
		}
	}
	read()
	if a := testing.AllocsPerRun(100, read); a != 0 {
		t.Fatalf("reading a chunk without materializing strings allocated %v times, want 0", a)
	}
}
