package main

import (
	"encoding/binary"
	"os"
	"strings"
	"testing"
)

// frameOffsets returns the offset of every frame of a session file (a
// little-endian u32 payload length, type, flags, payload, CRC).
func frameOffsets(t *testing.T, b []byte) []int {
	t.Helper()
	var offs []int
	for off := 0; off+10 <= len(b); off += 10 + int(binary.LittleEndian.Uint32(b[off:])) {
		offs = append(offs, off)
	}
	return offs
}

// TestDamagedSessionShowAndRepair: a session with a corrupt frame shows
// its intact history, joined across the gap, with readable 'damaged:'
// lines and exit 1; one with a length field that cannot be trusted is an
// error naming the repair command; 'smith session repair' rewrites either
// with every recoverable entry, keeps the damaged file beside it, and the
// session is intact and continues.
func TestDamagedSessionShowAndRepair(t *testing.T) {
	tests := []struct {
		name   string
		damage func(b []byte, offs []int)
		show   []string
		code   int
	}{
		{name: "checksum", damage: func(b []byte, offs []int) { b[offs[len(offs)/2]+12] ^= 0x10 }, code: exitFailure,
			show: []string{"damaged: offset ", "skipped", "each continues from the entry before the gap", "'smith session repair hurt' rewrites the file", "user: first", "user: second"}},
		{name: "length", damage: func(b []byte, offs []int) { b[offs[len(offs)/2]+3] ^= 0x40 }, code: exitFailure,
			show: []string{"frame length exceeds the bound", "'smith session repair hurt' keeps every entry before and after the damage"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.mustRun("", "eval", "--model", "mock", "--session", "hurt", "first")
			e.mustRun("", "eval", "--model", "mock", "--session", "hurt", "second")
			path := e.sessionInfo("hurt").Path
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			tt.damage(b, frameOffsets(t, b))
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
			r := e.run("", "session", "show", "hurt")
			out := r.stdout + r.stderr
			if r.code != tt.code {
				t.Errorf("show exit %d, want %d\n%s", r.code, tt.code, out)
			}
			for _, want := range tt.show {
				if !strings.Contains(out, want) {
					t.Errorf("show says\n%s\nwant %q", out, want)
				}
			}
			if strings.Contains(out, "&{") {
				t.Errorf("show prints a Go struct:\n%s", out)
			}
			r = e.mustRun("", "session", "repair", "hurt")
			if !strings.Contains(r.stdout, "repaired session hurt") || !strings.Contains(r.stdout, "joined to the entry before the gap") {
				t.Errorf("repair says:\n%s", r.stdout)
			}
			if _, err := os.Stat(path + ".damaged"); err != nil {
				t.Errorf("the damaged file was not kept: %v", err)
			}
			r = e.mustRun("", "session", "show", "hurt")
			if !strings.Contains(r.stdout, "user: first") || strings.Contains(r.stdout, "damaged") {
				t.Errorf("after repair show says:\n%s", r.stdout)
			}
			e.mustRun("", "eval", "--model", "mock", "--session", "hurt", "third")
			if r := e.mustRun("", "session", "repair", "hurt"); !strings.Contains(r.stdout, "intact; nothing to repair") {
				t.Errorf("a second repair says:\n%s", r.stdout)
			}
		})
	}
}
