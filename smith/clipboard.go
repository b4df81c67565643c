package main

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"time"
)

// clipboardCommands are the native clipboard programs tried, in order,
// when the terminal may not take OSC 52: macOS, Wayland, X11.
var clipboardCommands = [][]string{
	{"pbcopy"},
	{"wl-copy"},
	{"xclip", "-selection", "clipboard"},
	{"xsel", "--clipboard", "--input"},
}

// nativeClipboard copies text with the first clipboard program found on
// PATH, waiting at most two seconds; it returns the program's name.
func nativeClipboard(text string) (string, error) {
	for _, c := range clipboardCommands {
		path, err := exec.LookPath(c[0])
		if err != nil {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		cmd := exec.CommandContext(ctx, path, c[1:]...)
		cmd.Stdin = strings.NewReader(text)
		err = cmd.Run()
		cancel()
		if err != nil {
			return "", errors.New(c[0] + " failed: " + err.Error())
		}
		return c[0], nil
	}
	return "", errors.New("no clipboard program (pbcopy, wl-copy, xclip, xsel) on PATH")
}
