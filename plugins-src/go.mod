module github.com/smith-agent/smith/plugins-src

go 1.26.0
