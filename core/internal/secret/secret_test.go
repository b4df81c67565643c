package secret

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

const testValue = "sk-test-Zq8Xv2LmN4pR7tY1wB3cD5fG"

func TestSecretPrinting(t *testing.T) {
	sec := Secret{Name: "ANTHROPIC_API_KEY", Source: "env ANTHROPIC_API_KEY", Value: testValue}
	tests := []struct {
		name   string
		format string
		arg    any
		want   string // "" checks only that the name shows and the value does not
	}{
		{name: "v", format: "%v", arg: sec, want: "ANTHROPIC_API_KEY (from env ANTHROPIC_API_KEY)"},
		{name: "s", format: "%s", arg: sec, want: "ANTHROPIC_API_KEY (from env ANTHROPIC_API_KEY)"},
		{name: "plus v", format: "%+v", arg: sec, want: "{Name:ANTHROPIC_API_KEY Source:env ANTHROPIC_API_KEY Value:[REDACTED]}"},
		{name: "sharp v", format: "%#v", arg: sec, want: `secret.Secret{Name:"ANTHROPIC_API_KEY", Source:"env ANTHROPIC_API_KEY", Value:"[REDACTED]"}`},
		{name: "q", format: "%q", arg: sec, want: `"ANTHROPIC_API_KEY (from env ANTHROPIC_API_KEY)"`},
		{name: "x", format: "%x", arg: sec},
		{name: "d", format: "%d", arg: sec},
		{name: "pointer v", format: "%v", arg: &sec},
		{name: "pointer plus v", format: "%+v", arg: &sec},
		{name: "pointer sharp v", format: "%#v", arg: &sec},
		{name: "slice plus v", format: "%+v", arg: []Secret{sec, sec}},
		{name: "slice sharp v", format: "%#v", arg: []Secret{sec}},
		{name: "map v", format: "%v", arg: map[string]Secret{"k": sec}},
		{name: "exported field plus v", format: "%+v", arg: struct{ S Secret }{sec}},
		{name: "exported field sharp v", format: "%#v", arg: struct{ S *Secret }{&sec}},
		{name: "String", format: "%s", arg: sec.String()},
		{name: "GoString", format: "%s", arg: sec.GoString()},
		{name: "Println", format: "%s", arg: fmt.Sprintln(sec, &sec)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fmt.Sprintf(tt.format, tt.arg)
			if strings.Contains(got, testValue) {
				t.Fatalf("Sprintf(%q) = %q shows the value", tt.format, got)
			}
			if !strings.Contains(got, "ANTHROPIC_API_KEY") {
				t.Errorf("Sprintf(%q) = %q lacks the name", tt.format, got)
			}
			if tt.want != "" && got != tt.want {
				t.Errorf("Sprintf(%q) = %q, want %q", tt.format, got, tt.want)
			}
		})
	}
	if got := (Secret{Name: "N", Value: testValue}).String(); got != "N" {
		t.Errorf("String without a source = %q, want N", got)
	}
}

func TestSecretJSON(t *testing.T) {
	sec := Secret{Name: "GH_TOKEN", Source: "smith secret add", Value: testValue}
	tests := []struct {
		name string
		v    any
		want string
	}{
		{name: "value", v: sec, want: `{"name":"GH_TOKEN","source":"smith secret add"}`},
		{name: "pointer", v: &sec, want: `{"name":"GH_TOKEN","source":"smith secret add"}`},
		{name: "slice", v: []Secret{sec}, want: `[{"name":"GH_TOKEN","source":"smith secret add"}]`},
		{name: "field", v: struct{ S Secret }{sec}, want: `{"S":{"name":"GH_TOKEN","source":"smith secret add"}}`},
		{name: "no source", v: Secret{Name: "X", Value: testValue}, want: `{"name":"X"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.v)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.want {
				t.Errorf("json.Marshal = %s, want %s", b, tt.want)
			}
		})
	}
}

func TestSecretSlog(t *testing.T) {
	sec := Secret{Name: "GH_TOKEN", Source: "auth file", Value: testValue}
	for _, tt := range []struct {
		name string
		h    func(*bytes.Buffer) slog.Handler
	}{
		{name: "json", h: func(b *bytes.Buffer) slog.Handler { return slog.NewJSONHandler(b, nil) }},
		{name: "text", h: func(b *bytes.Buffer) slog.Handler { return slog.NewTextHandler(b, nil) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			slog.New(tt.h(&b)).Info("registered", "secret", sec, "ptr", &sec)
			if strings.Contains(b.String(), testValue) || !strings.Contains(b.String(), "GH_TOKEN") {
				t.Errorf("log = %s", b.String())
			}
		})
	}
}

func TestFingerprint(t *testing.T) {
	a := Fingerprint([]byte("salt"), testValue)
	tests := []struct {
		name  string
		got   string
		equal bool
	}{
		{name: "same salt and value", got: Fingerprint([]byte("salt"), testValue), equal: true},
		{name: "other salt", got: Fingerprint([]byte("pepper"), testValue)},
		{name: "other value", got: Fingerprint([]byte("salt"), testValue+"x")},
	}
	if len(a) != 32 || strings.Contains(a, testValue) {
		t.Fatalf("Fingerprint = %q, want 32 hex digits", a)
	}
	if strings.Trim(a, "0123456789abcdef") != "" {
		t.Fatalf("Fingerprint = %q is not hex", a)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if (tt.got == a) != tt.equal {
				t.Errorf("Fingerprint = %s vs %s, want equal %v", tt.got, a, tt.equal)
			}
		})
	}
}

func TestReference(t *testing.T) {
	if got := Reference("GH_TOKEN"); got != "${secret:GH_TOKEN}" {
		t.Errorf("Reference = %q", got)
	}
}

func TestAddErrors(t *testing.T) {
	tests := []struct {
		name    string
		sec     Secret
		wantErr []string // substrings of the error
	}{
		{name: "short value", sec: Secret{Name: "PIN", Value: "1234567"}, wantErr: []string{"PIN", "7 bytes", "8", "false positives"}},
		{name: "empty value", sec: Secret{Name: "EMPTY", Value: ""}, wantErr: []string{"EMPTY", "0 bytes"}},
		{name: "empty name", sec: Secret{Name: "", Value: testValue}, wantErr: []string{`""`, "[A-Za-z_][A-Za-z0-9_.-]*"}},
		{name: "leading digit", sec: Secret{Name: "1KEY", Value: testValue}, wantErr: []string{`"1KEY"`, "[A-Za-z_][A-Za-z0-9_.-]*"}},
		{name: "space", sec: Secret{Name: "MY KEY", Value: testValue}, wantErr: []string{`"MY KEY"`, "invalid name"}},
		{name: "brace", sec: Secret{Name: "K}", Value: testValue}, wantErr: []string{`"K}"`}},
		{name: "too long", sec: Secret{Name: strings.Repeat("k", MaxNameLen+1), Value: testValue}, wantErr: []string{"128 bytes"}},
		{name: "value ends in dollar", sec: Secret{Name: "PW", Value: "hunter22$"}, wantErr: []string{"PW", "${secret:PW}", "overlap"}},
		{name: "value begins with brace", sec: Secret{Name: "PW", Value: "}hunter22"}, wantErr: []string{"PW", "overlap"}},
		{name: "value holds a reference", sec: Secret{Name: "PW", Value: "xx${secret:PW}xx"}, wantErr: []string{"PW", "overlap"}},
		{name: "value inside a reference", sec: Secret{Name: "ABCDEFGHIJ", Value: "BCDEFGHI"}, wantErr: []string{"ABCDEFGHIJ", "overlap"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Set
			err := s.Add(tt.sec)
			if err == nil {
				t.Fatal("Add succeeded")
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if len(tt.sec.Value) > 0 && strings.Contains(strings.ReplaceAll(err.Error(), tt.sec.Name, ""), tt.sec.Value) {
				t.Errorf("error %q shows the value", err)
			}
			if s.Len() != 0 {
				t.Errorf("Len = %d after a failed Add", s.Len())
			}
		})
	}
}

func TestAddConflictsWithOtherSecrets(t *testing.T) {
	var s Set
	mustAdd(t, &s, Secret{Name: "A", Value: "password-one"})
	// A value ending in "${secret:" text meets every reference, a new name
	// whose reference holds an existing value is refused too.
	if err := s.Add(Secret{Name: "B", Value: "abcdefgh${sec"}); err == nil || !strings.Contains(err.Error(), "${secret:") {
		t.Errorf("value overlapping references: %v", err)
	}
	mustAdd(t, &s, Secret{Name: "C", Value: "secret:XYZ-long"})
	if err := s.Add(Secret{Name: "XYZ-longer", Value: "another-value"}); err == nil || !strings.Contains(err.Error(), "secret C") {
		t.Errorf("name whose reference holds a value: %v", err)
	}
	if got := s.Names(); strings.Join(got, ",") != "A,C" {
		t.Errorf("Names = %v", got)
	}
}

func TestAddReplaceAndNames(t *testing.T) {
	var s Set
	if s.Len() != 0 || len(s.Names()) != 0 {
		t.Fatal("zero Set not empty")
	}
	mustAdd(t, &s, Secret{Name: "ZED", Source: "env ZED", Value: "zed-value-0001"})
	mustAdd(t, &s, Secret{Name: "ALPHA", Source: "auth file", Value: "alpha-value-0001"})
	mustAdd(t, &s, Secret{Name: "ALPHA", Source: "auth file", Value: "alpha-value-0001"}) // no-op
	if s.Len() != 2 || strings.Join(s.Names(), ",") != "ALPHA,ZED" {
		t.Fatalf("Len = %d, Names = %v", s.Len(), s.Names())
	}
	mustAdd(t, &s, Secret{Name: "ALPHA", Source: "auth file", Value: "alpha-value-0002"})
	if s.Len() != 2 {
		t.Fatalf("Len = %d after a replacement", s.Len())
	}
	if got := s.RedactString("old alpha-value-0001 new alpha-value-0002"); got != "old alpha-value-0001 new ${secret:ALPHA}" {
		t.Errorf("after replacement: %q", got)
	}
	if got, names := s.Restore("${secret:ALPHA}", AllowAll); got != "alpha-value-0002" || len(names) != 1 {
		t.Errorf("Restore after replacement = %q %v", got, names)
	}
	// Two names may share a value; the first name in order stands for it.
	mustAdd(t, &s, Secret{Name: "AARDVARK", Value: "zed-value-0001"})
	if got := s.RedactString("zed-value-0001"); got != "${secret:AARDVARK}" {
		t.Errorf("shared value = %q", got)
	}
}

func mustAdd(t testing.TB, s *Set, sec Secret) {
	t.Helper()
	if err := s.Add(sec); err != nil {
		t.Fatal(err)
	}
}
