module github.com/smith-agent/smith/docs/examples/handler-go

go 1.26.0

require github.com/smith-agent/smith/wit v0.0.0
