module github.com/smith-agent/smith/core

go 1.26.0

require github.com/oklog/ulid/v2 v2.1.2
