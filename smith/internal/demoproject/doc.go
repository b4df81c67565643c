// Package demoproject writes the tiny project `smith demo` works on: a shell
// script with a bug and the test that catches it. The embedded mock script
// (internal/mockscript, "demo") reads greet.sh, fixes it and runs test.sh.
package demoproject
