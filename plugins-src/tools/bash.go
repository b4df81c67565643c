package main

import (
	"path"

	"github.com/smith-agent/smith/wit/process"
)

type bashArgs struct {
	Command string
	Cwd     string
	Timeout int
}

// runBash runs a command line; a non-zero exit or a signal is a failure
// whose message carries the output.
func runBash(h host, args, cwd string) (string, error) {
	var a bashArgs
	if err := decode("bash", args, strField("command", &a.Command), strField("cwd", &a.Cwd), intField("timeout", &a.Timeout)); err != nil {
		return "", err
	}
	dir := a.Cwd
	if dir != "" && !path.IsAbs(dir) {
		if cwd == "" {
			return "", invalid("bash: cwd " + dir + " is relative and the call has no working directory; pass an absolute cwd")
		}
		dir = path.Join(cwd, dir)
	}
	timeout := a.Timeout
	if timeout <= 0 {
		timeout = bashTimeout
	}
	timeout = min(timeout, bashMaxTime)
	out, err := h.RunProcess(process.Command{Line: a.Command, Directory: dir},
		process.RunOptions{TimeoutMs: uint32(timeout * 1000), OutputLimit: bashOutput})
	if err != nil {
		return "", failed("bash: " + advice(err))
	}
	text := out.Output
	if text != "" && text[len(text)-1] != '\n' {
		text += "\n"
	}
	if out.ExitCode == nil {
		return "", failed(text + "[killed by a signal]")
	}
	if code := int(*out.ExitCode); code != 0 {
		return "", failed(text + "[exit code " + itoa(code) + "]")
	}
	return text + "[exit code 0]", nil
}
