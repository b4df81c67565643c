module github.com/smith-agent/smith/termkit

go 1.26.0

require github.com/clipperhouse/displaywidth v0.11.0

require github.com/clipperhouse/uax29/v2 v2.7.0 // indirect
