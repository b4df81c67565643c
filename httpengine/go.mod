module github.com/smith-agent/smith/httpengine

go 1.26.0

require golang.org/x/crypto/x509roots/fallback v0.0.0-20261030153154-30a33513ff6d
