package main

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/smith-agent/smith/wit/tool"
	"github.com/smith-agent/smith/wit/types"
)

func itoa(n int) string { return strconv.Itoa(n) }

func textOutput(s string) tool.ToolOutput {
	return tool.ToolOutput{Content: []types.ContentBlock{{Case: types.ContentBlockText, Text: s}}}
}

// bound cuts s to at most limit bytes (0 means no limit), at a line
// boundary when one is in the second half of the kept text and at a rune
// boundary otherwise, keeping room for an explicit truncation notice.
func bound(s string, limit int) string {
	if limit <= 0 || len(s) <= limit {
		return s
	}
	notice := "\n[output truncated: " + itoa(len(s)) + " bytes exceed the " + itoa(limit) + "-byte tool output limit; narrow the request]"
	keep := max(limit-len(notice), 0)
	for keep > 0 && !utf8.RuneStart(s[keep]) {
		keep--
	}
	if nl := strings.LastIndexByte(s[:keep], '\n'); nl >= keep/2 {
		return s[:nl] + notice
	}
	return s[:keep] + notice
}

func invalid(msg string) error {
	return tool.ToolFault{Case: tool.ToolFaultInvalidArguments, InvalidArguments: msg}
}

func failed(msg string) error {
	return tool.ToolFault{Case: tool.ToolFaultEffectFailure, EffectFailure: msg}
}

// describe turns an import's fault into a message for the model.
func describe(name, path string, err error) error {
	return failed(name + " " + strconv.Quote(path) + ": " + advice(err))
}

// plural returns "n word" or "n words".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return itoa(n) + " " + word + "s"
}

// lines counts the lines of text (a last line without "\n" counts).
func lines(text string) int {
	n := strings.Count(text, "\n")
	if text != "" && !strings.HasSuffix(text, "\n") {
		n++
	}
	return n
}
