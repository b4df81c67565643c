package main

import (
	"errors"
	"fmt"
)

// Exit codes: 0 success, 1 model or tool failure, 2 usage error, 130 abort.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
	exitAbort   = 130
)

// exitError carries the exit code of a failed command.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usageErrorf is a usage error (exit 2): a bad flag, argument or
// combination. The message names the flag and says what to do.
func usageErrorf(format string, args ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, args...)}
}

// abortError is an aborted run (exit 130).
func abortError(err error) error { return &exitError{code: exitAbort, err: err} }

// exitCode maps an error returned by a command to the process exit code.
func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	var e *exitError
	if errors.As(err, &e) {
		return e.code
	}
	return exitFailure
}
