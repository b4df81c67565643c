package gemini_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/smith-agent/smith/plugins-src/providers/internal/gemini"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

// goBuild writes what the Rust driver's builder ops reply for Go's
// BuildRequest: the error text, or the method, path, headers and body.
func goBuild(r *norm.Request, secretRef string) string {
	hr, err := gemini.BuildRequest(r, secretRef)
	if err != nil {
		return "error " + err.Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%q %q\n", hr.Method, hr.Path)
	for _, h := range hr.Headers {
		fmt.Fprintf(&b, "header %q %q %q\n", h.Name, h.Value, h.SecretRef)
	}
	b.WriteString("body ")
	b.Write(hr.Body)
	return b.String()
}

// schemaRequest is the request the driver's op 's' builds around a tool
// schema.
func schemaRequest(params []byte) *norm.Request {
	return &norm.Request{Model: "gemini-2.5-flash",
		Tools: []norm.Tool{{Name: "f", Description: "d", Parameters: json.RawMessage(params)}}}
}

func compareSchema(t *testing.T, params []byte) {
	t.Helper()
	want := goBuild(schemaRequest(params), "GEMINI_API_KEY")
	if got := string(buildDriver(t).Ask(t, 's', params)); got != want {
		t.Fatalf("gemini: the Rust request for tool parameters %q differs\n--- go\n%s\n--- rust\n%s", params, want, got)
	}
}

// schemas are tool parameters for the paths of toSchema and of
// json.Unmarshal into any: real schemas, every keyword, type lists,
// odd types where a schema is expected, numbers, escapes, invalid UTF-8,
// repeated keys, and every kind of syntax error.
var schemas = []struct {
	name   string
	params string
}{
	{"weather", `{"type":"object","properties":{"location":{"type":"string","description":"the city"}},"required":["location"]}`},
	{"calculator", `{"type":"object","properties":{"a":{"type":"integer","description":"first number"},"b":{"type":"integer","description":"second number"}},"required":["a","b"]}`},
	{"every keyword", `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","title":"T","description":"D","additionalProperties":false,"propertyOrdering":["b","a"],"properties":{"a":{"type":"array","items":{"type":"string","enum":["x","y"],"format":"enum"},"minItems":1,"maxItems":"3"},"b":{"type":"number","minimum":-1.5,"maximum":1e3,"default":0.1},"c":{"type":"string","minLength":1,"maxLength":10,"pattern":"^a+$","nullable":true,"examples":["a"]},"d":{"anyOf":[{"type":"string"},{"type":"null"},true,null]}},"required":["a"],"$defs":{"x":{}}}`},
	{"type lists", `{"properties":{"a":{"type":["string","null"]},"b":{"type":["null","integer","boolean"]},"c":{"type":[1,"",null,{}]},"d":{"type":[]},"e":{"type":{"x":1}},"f":{"type":7},"g":{"type":null}}}`},
	{"nullable and a null type", `{"properties":{"a":{"nullable":false,"type":["null","string"]},"b":{"type":["string"],"nullable":"yes"},"c":{"nullable":null,"type":["null"]}}}`},
	{"non-ASCII types", `{"type":"stra\u00dfe","properties":{"x":{"type":"\u01c6\u0131\u017f\u1f80\ud801\udc28\u0149"},"y":{"type":"\ufb00"}}}`},
	{"properties of other kinds", `{"properties":[{"type":"string"}],"items":[1,{"type":"x"}],"anyOf":{"type":"string"}}`},
	{"nested deep", `{"items":{"items":{"items":{"properties":{"p":{"anyOf":[{"items":{"type":"q"}}]}}}}}}`},
	{"not an object", `["type","string"]`},
	{"a string", `"object"`},
	{"a number", `-0.0e-0`},
	{"null", `null`},
	{"true", ` true `},
	{"numbers", `{"default":[0,-0,1e21,1e20,123456789012345678901234567890,1e-7,0.000001,1.5e300,4.9e-324,1e-400,-1e-400,9007199254740993,0.1,100E-2]}`},
	{"number out of range", `{"default":[1,1e309,-1e400]}`},
	{"number out of range in a dropped key", `{"examples":1e999,"type":"string"}`},
	{"escapes", `{"description":"\u003c\u003e\u0026 \u2028\u2029 \"\\\/ \b\f\n\r\t \u0000 \ud83d\ude00 \ud800 \udc00x","enum":["<>&","` + "\u2028" + `"]}`},
	{"invalid UTF-8", "{\"description\":\"a\xffb\xe2\x82c\xed\xa0\x80\",\"enum\":[\"\xc0\xaf\"],\"\xff\":1}"},
	{"repeated keys", `{"type":"string","type":"integer","properties":{"a":{"type":"x"},"a":{"type":"y"}},"default":{"k":1,"k":[2]}}`},
	{"escaped keys", `{"t\u0079pe":"string","propert\u0069es":{"\u0061":{}},"TYPE":"no"}`},
	{"whitespace", " \t\r\n{ \"type\" : \"string\" , \"enum\" : [ 1 , 2 ] } \n"},
	{"empty", ``},
	{"whitespace only", ` `},
	{"truncated object", `{"type":`},
	{"truncated string", `{"type":"str`},
	{"truncated escape", `{"type":"\`},
	{"truncated unicode escape", `{"type":"\u00`},
	{"truncated literal", `{"nullable":tru`},
	{"truncated number", `{"minimum":1.`},
	{"truncated exponent", `{"minimum":1e`},
	{"truncated minus", `{"minimum":-`},
	{"bad literal", `{"nullable":trUe}`},
	{"bad null", `nulL`},
	{"bad false", `fa`},
	{"bad escape", `"\x"`},
	{"bad unicode escape", `"\u12G4"`},
	{"control in a string", "\"a\tb\""},
	{"missing colon", `{"a" 1}`},
	{"missing comma", `{"a":1 "b":2}`},
	{"trailing comma", `[1,]`},
	{"key not a string", `{1:2}`},
	{"after the value", `{} {}`},
	{"single quote", `{'a':1}`},
	{"leading zero", `01`},
	{"plus sign", `+1`},
	{"non-ASCII byte", "\xff"},
	{"DEL byte", "\x7f"},
	{"too deep", strings.Repeat("[", 10001) + strings.Repeat("]", 10001)},
	{"deepest allowed", strings.Repeat(`{"items":`, 9999) + "{}" + strings.Repeat("}", 9999)},
}

// TestRustSchemas holds the Rust builder to Go's on hand-made tool
// parameters: the same body byte for byte, or the same error.
func TestRustSchemas(t *testing.T) {
	for _, tt := range schemas {
		t.Run(tt.name, func(t *testing.T) {
			compareSchema(t, []byte(tt.params))
		})
	}
}

// TestSchemaNullableOrder checks that a schema with both a nullable key
// and a type list naming "null" is converted the same way every time
// (the type list wins), not as Go's map order falls: with 40 such
// properties a map-order choice would differ somewhere almost surely.
func TestSchemaNullableOrder(t *testing.T) {
	var props []string
	for i := range 40 {
		props = append(props, fmt.Sprintf(`"p%d":{"nullable":false,"type":["null","string"]}`, i))
	}
	params := `{"type":"object","properties":{` + strings.Join(props, ",") + `}}`
	hr, err := gemini.BuildRequest(schemaRequest([]byte(params)), "K")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(hr.Body), `"nullable":true`); n != 40 {
		t.Fatalf("gemini: %d of 40 properties are nullable; a type list naming null must win over nullable:false:\n%s", n, hr.Body)
	}
	if strings.Contains(string(hr.Body), `"nullable":false`) {
		t.Fatalf("gemini: nullable:false survived a type list naming null:\n%s", hr.Body)
	}
}

// FuzzRustSchema builds a request around arbitrary tool parameters in Go
// and in Rust and requires the same request or error.
func FuzzRustSchema(f *testing.F) {
	for _, tt := range schemas {
		if len(tt.params) < 1000 {
			f.Add([]byte(tt.params))
		}
	}
	buildDriver(f)
	f.Fuzz(func(t *testing.T, params []byte) {
		compareSchema(t, params)
	})
}

// argumentsRequest is the request the driver's op 'a' builds around a
// tool call's arguments. Empty arguments are nil: the Rust request holds
// bytes and cannot tell nil from empty (Go refuses an empty non-nil
// RawMessage, which no decoder or document produces).
func argumentsRequest(argsError bool, args []byte) *norm.Request {
	if len(args) == 0 {
		args = nil
	}
	call := norm.ToolCall{ID: "c", Name: "f", Arguments: json.RawMessage(args), Signature: []byte("s")}
	if argsError {
		call.ArgumentsError = "not JSON"
	}
	return &norm.Request{Model: "gemini-2.5-flash", Messages: []norm.Message{norm.UserText("q"),
		norm.AssistantMessage{Content: []norm.Content{call}}}}
}

func compareArguments(t *testing.T, argsError bool, args []byte) {
	t.Helper()
	want := goBuild(argumentsRequest(argsError, args), "GEMINI_API_KEY")
	flag := byte(0)
	if argsError {
		flag = 1
	}
	if got := string(buildDriver(t).Ask(t, 'a', append([]byte{flag}, args...))); got != want {
		t.Fatalf("gemini: the Rust request for tool call arguments %q (arguments error %t) differs\n--- go\n%s\n--- rust\n%s", args, argsError, want, got)
	}
}

// TestRustArguments holds the Rust builder to Go's on a tool call's
// arguments the request document cannot carry as they are (invalid
// UTF-8, an arguments error) and on every syntax error Marshal reports
// for a RawMessage.
func TestRustArguments(t *testing.T) {
	for _, tt := range schemas {
		if len(tt.params) > 1000 {
			continue
		}
		t.Run(tt.name, func(t *testing.T) {
			compareArguments(t, false, []byte(tt.params))
			compareArguments(t, true, []byte(tt.params))
		})
	}
	compareArguments(t, false, []byte("{\"a\":\"\xff\xe2\x82\",\"<\":\"\u2028&\"}"))
}

// FuzzRustArguments builds a request around arbitrary tool call
// arguments in Go and in Rust and requires the same request or error.
func FuzzRustArguments(f *testing.F) {
	for _, tt := range schemas {
		if len(tt.params) < 1000 {
			f.Add(false, []byte(tt.params))
		}
	}
	f.Add(true, []byte(`{"a":`))
	buildDriver(f)
	f.Fuzz(func(t *testing.T, argsError bool, args []byte) {
		compareArguments(t, argsError, args)
	})
}
