module github.com/smith-agent/smith/smith

go 1.26.0

require github.com/urfave/cli/v3 v3.14.0 // indirect
