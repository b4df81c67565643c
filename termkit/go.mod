module github.com/smith-agent/smith/termkit

go 1.26.0

require (
	github.com/clipperhouse/displaywidth v0.11.0
	github.com/creack/pty v1.1.24
	github.com/yuin/goldmark v1.8.7
	golang.org/x/sys v0.50.0
	golang.org/x/term v0.48.0
)

require github.com/clipperhouse/uax29/v2 v2.7.0 // indirect
