package main

// Exit codes: 0 success, 1 model or tool failure, 2 usage error, 130 abort.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
	exitAbort   = 130
)

// exitCode maps an error returned by a command to the process exit code.
func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	return exitFailure
}
