package session

import (
	"bytes"
	"context"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/internal/secret"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/sessionfmt"
)

// tokValue is the registered secret of these tests; 21 bytes, so its
// base64 has no padding and every character depends on it alone.
const tokValue = "tok-5ecr3t-VALUE-xyz1"

var tokRef = secret.Reference("TOK")

// tokSet returns a Set holding the secret TOK.
func tokSet(t testing.TB) *secret.Set {
	t.Helper()
	var s secret.Set
	if err := s.Add(secret.Secret{Name: "TOK", Source: "test", Value: tokValue}); err != nil {
		t.Fatal(err)
	}
	return &s
}

// countingRedactor counts the calls of Redact.
type countingRedactor struct {
	set     *secret.Set
	redacts atomic.Int64
}

func (c *countingRedactor) Contains(b []byte) bool { return c.set.Contains(b) }

func (c *countingRedactor) Redact(b []byte) ([]byte, bool) {
	c.redacts.Add(1)
	return c.set.Redact(b)
}

// appendStep appends an entry through a public Store API; expand turns
// the markers {V} (the secret) and {B64} (its base64) of its strings into
// text.
type appendStep struct {
	name string
	do   func(st *Store, expand func(string) string) error
}

// secretSteps write the secret into a session in every kind of entry a
// tool turn makes, plainly, in base64 and as a JSON object key.
var secretSteps = []appendStep{
	{name: "user message", do: func(st *Store, x func(string) string) error {
		return st.Record(context.Background(), model.UserText(x("use {V} and {B64} now")))
	}},
	{name: "assistant tool call", do: func(st *Store, x func(string) string) error {
		return st.Record(context.Background(), model.AssistantMessage{Content: []model.Content{
			model.Text{Text: x("calling with {V}")},
			model.ToolCall{ID: "call_1", Name: "bash", Arguments: []byte(x(`{"{V}":"key","b":"{B64}"}`))},
		}, Stop: model.StopToolUse})
	}},
	{name: "effect intent", do: func(st *Store, x func(string) string) error {
		return st.Append(context.Background(), effect.Intent{ID: stepIDs[0], Parent: "call_1", Kind: "process.run",
			Input: []byte(x(`{"command":"echo {V}"}`))})
	}},
	{name: "effect completion", do: func(st *Store, x func(string) string) error {
		return st.Append(context.Background(), effect.Completion{ID: stepIDs[0], Mutation: model.MutationApplied,
			Output: []byte(x("{V}\n{B64}\n")), Error: x("exit {V}")})
	}},
	{name: "tool result", do: func(st *Store, x func(string) string) error {
		return st.Record(context.Background(), model.ToolResultMessage{CallID: "call_1", Name: "bash",
			Content: []model.Content{model.Text{Text: x("printed {V}")}}, Mutation: model.MutationApplied})
	}},
	{name: "metadata", do: func(st *Store, x func(string) string) error {
		return st.RecordMetadata(Metadata{Cwd: x("/home/{V}"), Smith: "test"})
	}},
}

// stepIDs are the effect ids of the steps.
var stepIDs = []string{sessionfmt.NewID().String()}

func plainText(s string) string {
	return strings.NewReplacer("{V}", tokValue, "{B64}", base64.StdEncoding.EncodeToString([]byte(tokValue))).Replace(s)
}

func referenced(s string) string {
	return strings.NewReplacer("{V}", tokRef, "{B64}", tokRef).Replace(s)
}

// contents returns the content of every entry of the file at path, read
// back from disk.
func contents(t *testing.T, path string) [][]byte {
	t.Helper()
	sess, _, err := sessionfmt.Load(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for i := range sess.Len() {
		out = append(out, sess.Entry(i).Content)
	}
	return out
}

// TestRedactorKeepsSecretsOutOfTheFile: with a redactor, a secret in a
// message, a tool call's arguments (as a JSON key too), an effect's input,
// output and error, a tool result and the metadata reaches the file as
// ${secret:TOK}, plain and in base64; each entry's content is exactly
// that of the same entry written with the reference in place of the
// secret, so nothing else changed; and the session still decodes.
func TestRedactorKeepsSecretsOutOfTheFile(t *testing.T) {
	f, st := newStore(t)
	st.SetRedactor(tokSet(t))
	want, plain := newStore(t)
	for _, s := range secretSteps {
		if err := s.do(st, plainText); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if err := s.do(plain, referenced); err != nil {
			t.Fatalf("%s (expected): %v", s.name, err)
		}
	}
	raw, err := os.ReadFile(f.Path())
	if err != nil {
		t.Fatal(err)
	}
	for _, leak := range []string{tokValue, base64.StdEncoding.EncodeToString([]byte(tokValue)), base64.RawURLEncoding.EncodeToString([]byte(tokValue))} {
		if bytes.Contains(raw, []byte(leak)) {
			t.Errorf("the session file holds %q", leak)
		}
	}
	if n := bytes.Count(raw, []byte(tokRef)); n < len(secretSteps) {
		t.Errorf("the session file holds %d references, want at least %d", n, len(secretSteps))
	}
	got, exp := contents(t, f.Path()), contents(t, want.Path())
	if len(got) != len(secretSteps) || len(exp) != len(secretSteps) {
		t.Fatalf("%d and %d entries, want %d", len(got), len(exp), len(secretSteps))
	}
	for i, s := range secretSteps {
		if !bytes.Equal(got[i], exp[i]) {
			t.Errorf("%s: content\n%x\nwant (written with the reference)\n%x", s.name, got[i], exp[i])
		}
	}
	sess, _, err := sessionfmt.Load(f.Path(), nil)
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := Messages(sess)
	if err != nil {
		t.Fatalf("the redacted session does not decode: %v", err)
	}
	if got := model.TextOf(msgs[0].(model.UserMessage).Content); got != "use "+tokRef+" and "+tokRef+" now" {
		t.Errorf("user message %q", got)
	}
	if args := string(msgs[1].(model.AssistantMessage).ToolCalls()[0].Arguments); args != `{"`+tokRef+`":"key","b":"`+tokRef+`"}` {
		t.Errorf("tool call arguments %s", args)
	}
	recs, err := st.Records(context.Background())
	if err != nil || len(recs) != 2 {
		t.Fatalf("records %v, %v", recs, err)
	}
	if out := string(recs[1].(effect.Completion).Output); out != tokRef+"\n"+tokRef+"\n" {
		t.Errorf("completion output %q", out)
	}
}

// TestRedactorLeavesOtherContentAlone: content holding no secret is
// written byte for byte as without a redactor, and Redact is never
// called for it (the content is not decoded); a reference already in the
// text stays as it is.
func TestRedactorLeavesOtherContentAlone(t *testing.T) {
	steps := []appendStep{
		{name: "user message", do: func(st *Store, _ func(string) string) error {
			return st.Record(context.Background(), model.UserText("hello, nothing secret: tok-5ecr3t-VALUE-xyz (one byte short)"))
		}},
		{name: "a reference as text", do: func(st *Store, _ func(string) string) error {
			return st.Record(context.Background(), model.UserText("run echo "+tokRef))
		}},
		{name: "assistant", do: func(st *Store, _ func(string) string) error {
			return st.Record(context.Background(), model.AssistantMessage{Content: []model.Content{model.Text{Text: "ok"},
				model.Thinking{Text: "hmm", Signature: []byte{0, 1, 2, 0xff}}}, Stop: model.StopEnd, Usage: model.Usage{Input: model.Known(12)}})
		}},
		{name: "model change", do: func(st *Store, _ func(string) string) error {
			return st.RecordModelChange(ModelChange{Model: "mock/m", Thinking: "high"})
		}},
		{name: "registration", do: func(st *Store, _ func(string) string) error {
			return st.RecordSecretRegistration(SecretRegistration{Name: "TOK", Source: "env TOK", Fingerprint: "00ff"})
		}},
	}
	r := &countingRedactor{set: tokSet(t)}
	f1, with := newStore(t)
	with.SetRedactor(r)
	f2, without := newStore(t)
	for _, s := range steps {
		if err := s.do(with, nil); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if err := s.do(without, nil); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
	}
	got, want := contents(t, f1.Path()), contents(t, f2.Path())
	for i, s := range steps {
		if !bytes.Equal(got[i], want[i]) {
			t.Errorf("%s: content\n%x\nwant (no redactor)\n%x", s.name, got[i], want[i])
		}
	}
	if n := r.redacts.Load(); n != 0 {
		t.Errorf("Redact was called %d times for content without a secret", n)
	}
}

// TestSetRedactorNil: a redactor applies to the entries appended while it
// is set; nil turns it off, so what follows is written as it is.
func TestSetRedactorNil(t *testing.T) {
	f, st := newStore(t)
	tests := []struct {
		name     string
		redactor Redactor
		leaks    bool
	}{
		{name: "set", redactor: tokSet(t)},
		{name: "off", redactor: nil, leaks: true},
		{name: "set again", redactor: tokSet(t)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st.SetRedactor(tt.redactor)
			record(t, st, "step "+tt.name+" "+tokValue)
			c := contents(t, f.Path())
			last := c[len(c)-1]
			if got := bytes.Contains(last, []byte(tokValue)); got != tt.leaks {
				t.Fatalf("the entry holds the secret: %v, want %v", got, tt.leaks)
			}
			if got := bytes.Contains(last, []byte(tokRef)); got == tt.leaks {
				t.Fatalf("the entry holds the reference: %v, want %v", got, !tt.leaks)
			}
		})
	}
}

// TestRedactContentMapsAndBytes: redaction reaches every string and byte
// string of any CBOR content, map keys and nested values included, and
// leaves the other values (numbers, booleans, null) as they were: the
// result is the canonical encoding of the same value with the references
// in place.
func TestRedactContentMapsAndBytes(t *testing.T) {
	b64 := base64.StdEncoding.EncodeToString([]byte(tokValue))
	tests := []struct {
		name      string
		in, want  any
		unchanged bool
	}{
		{name: "map key", in: map[string]any{tokValue: "v", "k": 1},
			want: map[string]any{tokRef: "v", "k": 1}},
		{name: "base64 map key", in: map[string]any{"x" + b64: true},
			want: map[string]any{"x" + tokRef: true}},
		{name: "nested", in: map[string]any{"a": map[string]any{"b": []any{uint64(3), int64(-4), 1.5, nil, []byte("raw " + tokValue), "s " + b64}}},
			want: map[string]any{"a": map[string]any{"b": []any{uint64(3), int64(-4), 1.5, nil, []byte("raw " + tokRef), "s " + tokRef}}}},
		{name: "integer keys", in: map[int]any{2: tokValue, 1: "a"},
			want: map[int]any{2: tokRef, 1: "a"}},
		{name: "no secret", in: map[string]any{"a": []any{"b", 1}}, unchanged: true},
	}
	r := tokSet(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, err := sessionfmt.EncodeContent(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := redactContent(r, in)
			if err != nil {
				t.Fatal(err)
			}
			if tt.unchanged {
				if &got[0] != &in[0] || !bytes.Equal(got, in) {
					t.Fatal("content without a secret was copied or changed")
				}
				return
			}
			want, err := sessionfmt.EncodeContent(tt.want)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("redacted\n%x\nwant\n%x", got, want)
			}
		})
	}
	if got, err := redactContent(nil, []byte{0xff}); err != nil || !bytes.Equal(got, []byte{0xff}) {
		t.Fatalf("a nil redactor touched the content: %x, %v", got, err)
	}
}

// TestRedactKeepsTextValid: a secret whose value is not valid UTF-8 can
// match from inside a character of a text; the redacted text is still
// valid UTF-8 (the stray bytes become U+FFFD), so the session decodes and
// reopens, and a byte string holding the secret is redacted as bytes.
func TestRedactKeepsTextValid(t *testing.T) {
	const bin = "\xa9bin-secret" // a UTF-8 continuation byte first
	var set secret.Set
	if err := set.Add(secret.Secret{Name: "BIN", Value: bin}); err != nil {
		t.Fatal(err)
	}
	ref := secret.Reference("BIN")
	path := filepath.Join(t.TempDir(), "s.session")
	f, err := sessionfmt.Create(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, err := New(f)
	if err != nil {
		t.Fatal(err)
	}
	st.SetRedactor(&set)
	record(t, st, "caf\xc3"+bin+"!") // "café" where é's second byte starts the secret
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte(bin)) {
		t.Fatal("the session file holds the secret")
	}
	f2, err := sessionfmt.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f2.Close()
	st2, err := New(f2)
	if err != nil {
		t.Fatalf("the session does not reopen: %v", err)
	}
	msgs, err := Messages(f2.Session())
	if err != nil {
		t.Fatalf("the session does not decode: %v", err)
	}
	if got := model.TextOf(msgs[0].(model.UserMessage).Content); got != "caf\uFFFD"+ref+"!" {
		t.Fatalf("text %q", got)
	}

	// In a byte string the bytes are kept as they are, only the secret
	// replaced.
	st2.SetRedactor(&set)
	id := sessionfmt.NewID().String()
	if err := st2.Append(context.Background(), effect.Intent{ID: id, Parent: msgsID(f2), Kind: "k"}); err != nil {
		t.Fatal(err)
	}
	if err := st2.Append(context.Background(), effect.Completion{ID: id, Mutation: model.MutationApplied, Output: []byte("\xc3" + bin)}); err != nil {
		t.Fatal(err)
	}
	recs, err := st2.Records(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if out := string(recs[len(recs)-1].(effect.Completion).Output); out != "\xc3"+ref {
		t.Fatalf("completion output %q, want %q", out, "\xc3"+ref)
	}
}

// msgsID returns the id of f's first entry.
func msgsID(f *sessionfmt.File) string { return f.Session().ID(0).String() }

// TestSecretRegistrations: registrations are recorded keyed by the
// secret's name and read back from the file in order, a later one of a
// name after the earlier; other entries are passed over; a registration's
// fields are redacted like any entry's.
func TestSecretRegistrations(t *testing.T) {
	f, st := newStore(t)
	if got := SecretRegistrations(f.Session()); got != nil {
		t.Fatalf("an empty session has registrations %v", got)
	}
	st.SetRedactor(tokSet(t))
	tests := []struct {
		name string
		reg  SecretRegistration
		want SecretRegistration
	}{
		{name: "env", reg: SecretRegistration{Name: "TOK", Source: "env TOK", Fingerprint: "0123456789abcdef0123456789abcdef"}},
		{name: "auth file", reg: SecretRegistration{Name: "auth.acme", Source: "auth file /home/u/.config/smith/auth.json", Fingerprint: "ffeeddccbbaa99887766554433221100"}},
		{name: "same name again", reg: SecretRegistration{Name: "TOK", Source: "smith secret add", Fingerprint: "00000000000000000000000000000001"}},
		{name: "source holding the secret", reg: SecretRegistration{Name: "odd", Source: "file " + tokValue, Fingerprint: "ab"},
			want: SecretRegistration{Name: "odd", Source: "file " + tokRef, Fingerprint: "ab"}},
	}
	var want []SecretRegistration
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := st.RecordSecretRegistration(tt.reg); err != nil {
				t.Fatal(err)
			}
			sess := f.Session()
			if e := sess.Entry(sess.Selected()); e.Kind != sessionfmt.KindSecretRegistration || e.Key != tt.reg.Name {
				t.Fatalf("entry kind %s key %q", e.Kind, e.Key)
			}
			w := tt.want
			if w == (SecretRegistration{}) {
				w = tt.reg
			}
			want = append(want, w)
		})
		record(t, st, "between "+tt.name)
	}
	sess, _, err := sessionfmt.Load(f.Path(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := SecretRegistrations(sess)
	if len(got) != len(want) {
		t.Fatalf("registrations %+v\nwant %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("registration %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if err := st.RecordSecretRegistration(SecretRegistration{Source: "nameless"}); err == nil {
		t.Error("a registration without a name was recorded")
	}
}
