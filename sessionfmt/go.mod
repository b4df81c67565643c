module github.com/smith-agent/smith/sessionfmt

go 1.26.0
