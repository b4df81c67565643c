package main

import (
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/config"
	"github.com/smith-agent/smith/termkit/screen"
	"github.com/smith-agent/smith/termkit/term"
)

// TestTerminalOverrides: --terminal beats smith.kdl's tui { terminal },
// and a bad capability or value names where it was set.
func TestTerminalOverrides(t *testing.T) {
	kdl := map[string]config.Setting[string]{
		"sync-output": {Value: "#true", Source: config.Source{File: "smith.kdl", Line: 3, Col: 20}},
	}
	tests := []struct {
		name, flag string
		kdl        map[string]config.Setting[string]
		check      func(c term.Caps) bool
		err        string
	}{
		{name: "smith.kdl alone", kdl: kdl, check: func(c term.Caps) bool { return c.SyncOutput }},
		{name: "the flag wins", flag: "sync-output=off,colors=256", kdl: kdl,
			check: func(c term.Caps) bool { return !c.SyncOutput && c.Profile == screen.ANSI256 }},
		{name: "hyperlinks on", flag: "hyperlinks=on", check: func(c term.Caps) bool { return c.Hyperlinks }},
		{name: "unknown capability", flag: "blink=on", err: `flag --terminal: "blink" is not a terminal capability`},
		{name: "bad value", flag: "focus=maybe", err: `terminal focus "maybe" is not on or off`},
		{name: "bad colors", flag: "colors=lots", err: `terminal colors "lots" is not one of none, 16, 256, truecolor`},
		{name: "no equals", flag: "focus", err: `--terminal "focus": write CAP=VALUE`},
		{name: "kdl source named", kdl: map[string]config.Setting[string]{"focus": {Value: "7", Source: config.Source{File: "smith.kdl", Line: 4, Col: 9}}},
			err: `smith.kdl:4:9: terminal focus "7"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, err := terminalFlag(tt.flag, tt.kdl)
			var override func(*term.Caps)
			if err == nil {
				override, err = terminalOverrides(set)
			}
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var c term.Caps
			override(&c)
			if !tt.check(c) {
				t.Errorf("caps %+v", c)
			}
		})
	}
}

func TestNearestCommand(t *testing.T) {
	root := rootCommand()
	tests := []struct{ name, word, want string }{
		{name: "typo", word: "evla", want: "eval"},
		{name: "a prompt word", word: "hello", want: ""},
		{name: "exact is no typo", word: "eval", want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := nearestCommand(root, tt.word); got != tt.want {
				t.Errorf("nearestCommand(%q) = %q, want %q", tt.word, got, tt.want)
			}
		})
	}
}
