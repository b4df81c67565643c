module github.com/smith-agent/smith/httpengine

go 1.26.0
