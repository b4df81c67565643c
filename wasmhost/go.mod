module github.com/smith-agent/smith/wasmhost

go 1.26.0
