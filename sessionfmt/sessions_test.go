package sessionfmt

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/sessionfmt/internal/frame"
)

// testID returns a deterministic ULID-shaped id: a fixed millisecond time
// and the counter n in the random part.
func testID(n int) ID {
	var id ID
	ms := uint64(1_764_500_000_000 + n)
	for i := 5; i >= 0; i-- {
		id[i] = byte(ms)
		ms >>= 8
	}
	binary.BigEndian.PutUint64(id[8:], uint64(n)*0x9e3779b97f4a7c15+1)
	return id
}

var testEpoch = time.UnixMilli(1_764_500_000_000)

func mustContent(t testing.TB, v any) []byte {
	t.Helper()
	b, err := EncodeContent(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

type message struct {
	Role   string   `cbor:"1,keyasint"`
	Blocks []string `cbor:"2,keyasint"`
}

// representative returns the entries of a realistic session of about n
// entries: user and assistant messages, tool calls with results (some
// large and compressible), effect intents and completions, a model change,
// a secret registration, a VCS operation, a compaction, a label, a plugin
// state commit and replay metadata, with a second branch forked off the
// middle. Everything is deterministic.
func representative(t testing.TB, n int) []Entry {
	var es []Entry
	next := 0
	add := func(parent ID, k Kind, pair, cause ID, key string, content []byte) ID {
		next++
		id := testID(next)
		es = append(es, Entry{ID: id, Parent: parent, Time: testEpoch.Add(time.Duration(next) * time.Second), Kind: k, Pair: pair, Cause: cause, Key: key, Content: content})
		return id
	}
	text := "Read the file internal/session.go and explain how forks keep the compaction boundary; then fix the failing test."
	prev := add(ID{}, KindReplayMetadata, ID{}, ID{}, "", mustContent(t, map[string]string{"smith": "0.0.0", "trace": "seed-1"}))
	prev = add(prev, KindModelChange, ID{}, ID{}, "", mustContent(t, map[string]string{"model": "anthropic/claude", "thinking": "medium"}))
	prev = add(prev, KindSecretRegistration, ID{}, ID{}, "GITHUB_TOKEN", mustContent(t, map[string]string{"ref": "secret:1"}))
	var fork, firstKept ID
	for i := 0; len(es) < n; i++ {
		prev = add(prev, KindMessage, ID{}, ID{}, "", mustContent(t, message{Role: "user", Blocks: []string{text}}))
		if i == 2 {
			firstKept = prev
		}
		prev = add(prev, KindMessage, ID{}, ID{}, "", mustContent(t, message{Role: "assistant", Blocks: []string{"thinking about it", text, "calling read"}}))
		call := fmt.Sprintf("toolu_%04d", i)
		prev = add(prev, KindToolActivity, ID{}, ID{}, call, mustContent(t, map[string]string{"name": "read", "args": `{"path":"internal/session.go"}`}))
		effect := testID(100000 + i)
		prev = add(prev, KindEffectIntent, effect, prev, "", mustContent(t, map[string]string{"op": "fs.read", "path": "internal/session.go"}))
		out := "ok"
		if i%5 == 0 {
			out = strings.Repeat(fmt.Sprintf("line %d: func (s *Session) Fork(i int) *Session { return s }\n", i), 60)
		}
		prev = add(prev, KindEffectCompletion, effect, ID{}, "", mustContent(t, map[string]string{"state": "applied", "output": out}))
		prev = add(prev, KindToolActivity, ID{}, ID{}, call, mustContent(t, map[string]string{"result": out}))
		if i == 3 {
			prev = add(prev, KindVCSOperation, testID(200000+i), ID{}, "4b825dc642cb6eb9a060e54bf8d69288fbee4904", mustContent(t, map[string]string{"op": "snapshot"}))
			prev = add(prev, KindLabel, prev, ID{}, "before-refactor", mustContent(t, map[string]string{"by": "user"}))
			fork = prev
		}
		if i == 5 {
			prev = add(prev, KindCompaction, firstKept, ID{}, "", mustContent(t, map[string]string{"summary": "the user asked about forks"}))
			prev = add(prev, KindPluginStateCommit, testID(300000+i), ID{}, "smith:todo", mustContent(t, map[string]any{"items": []string{"fix test"}}))
		}
	}
	if fork != (ID{}) {
		b := add(fork, KindMessage, ID{}, ID{}, "", mustContent(t, message{Role: "user", Blocks: []string{"try another way"}}))
		add(b, KindMessage, ID{}, ID{}, "", mustContent(t, message{Role: "assistant", Blocks: []string{"another way"}}))
	}
	return es
}

// writeSession writes a session file of entries at path, with a select
// frame re-selecting the main branch's tip and, if unknown is set, two frames
// of unknown types (one among the entries, one at the end).
func writeSession(t testing.TB, path string, es []Entry, unknown bool) {
	t.Helper()
	f, err := Create(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	mainTip := es[len(es)-1].ID
	if len(es) > 3 {
		mainTip = es[len(es)-3].ID
	}
	for i, e := range es {
		if err := f.Append(e, Buffered); err != nil {
			t.Fatal(err)
		}
		if unknown && i == len(es)/2 {
			appendRaw(t, f, frame.Append(nil, 0x7e, 0x05, []byte("future frame: kept byte for byte")))
		}
	}
	if err := f.Select(mainTip, Durable); err != nil {
		t.Fatal(err)
	}
	if unknown {
		appendRaw(t, f, frame.Append(nil, 0xf0, 0, nil))
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// appendRaw writes raw frame bytes through an open File.
func appendRaw(t testing.TB, f *File, b []byte) {
	t.Helper()
	f.buf = append(f.buf[:0], b...)
	if err := f.write(Buffered); err != nil {
		t.Fatal(err)
	}
}

// realSession writes the small representative session used by the recovery
// tests and returns its path and bytes.
func realSession(t testing.TB, n int, unknown bool) (string, []byte) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "real.session")
	writeSession(t, p, representative(t, n), unknown)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return p, b
}

func bufioWriter(w io.Writer) *bufio.Writer { return bufio.NewWriter(w) }
