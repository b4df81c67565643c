module github.com/smith-agent/smith/smith

go 1.26.0
