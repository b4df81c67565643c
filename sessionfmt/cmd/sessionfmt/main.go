// Command sessionfmt inspects, checks, repairs and builds Smith session files.
//
//	sessionfmt dump FILE              every frame as one JSON line on stdout
//	sessionfmt verify FILE            check every frame and report damage
//	sessionfmt repair FILE -o OUT     write the recoverable frames to OUT
//	sessionfmt stat FILE              entries, branches, bytes, compression
//	sessionfmt import JSONL -o FILE   build a session file from JSONL
//
// Exit status: 0 success (verify: intact), 1 damaged but recoverable
// (verify, dump, stat, repair of a damaged input), 2 unreadable input or a
// usage error.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
