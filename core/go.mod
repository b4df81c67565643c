module github.com/smith-agent/smith/core

go 1.26.0
