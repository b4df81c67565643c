module github.com/smith-agent/smith/wit

go 1.26.0
