#!/usr/bin/env bash
# scripts/test.sh runs every gate over every module of the workspace:
# gofmt (any unformatted file fails), generated-file freshness, go vet,
# staticcheck (pinned in tools/go.mod), and go test -race.
# It is what `make test` and .ci/run execute. Flags:
#   SMITH_TEST_SHORT=1   pass -short to go test (skips the slow conformance runs)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

# Anything the tests need beyond Go is installed here, so a fresh machine works.
"$root/scripts/deps.sh"

mods=$(go list -m -f '{{.Dir}}')
fail=0

echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files -co --exclude-standard '*.go') 2>&1 || true)
if [ -n "$unformatted" ]; then
	echo "gofmt: these files are not formatted; run 'gofmt -w' on them:"
	echo "$unformatted"
	fail=1
fi

echo "== rustfmt"
# Every Rust source but the generated ones (marked "Code generated"),
# formatted as plugins-src/rustfmt.toml says.
rust=$(git ls-files -co --exclude-standard 'plugins-src/*.rs' | xargs grep -L '^// Code generated' || true)
if [ -n "$rust" ] && ! /usr/bin/rustfmt --edition 2021 --check --config-path plugins-src/rustfmt.toml $rust >/tmp/rustfmt.$$ 2>&1; then
	echo "rustfmt: these Rust files are not formatted; run '/usr/bin/rustfmt --edition 2021 --config-path plugins-src/rustfmt.toml FILE':"
	grep '^Diff in' /tmp/rustfmt.$$ | sed 's/ at line.*//' | sort -u
	fail=1
fi
rm -f /tmp/rustfmt.$$

echo "== cross-build"
# The binary must build where users run it, not only here: a Linux-only
# field in a unix file once broke every macOS build unnoticed.
for target in darwin/arm64 windows/amd64; do
	if ! GOOS=${target%/*} GOARCH=${target#*/} CGO_ENABLED=0 go build -o /dev/null ./smith; then
		echo "cross-build: smith does not build for $target (see above)"
		fail=1
	fi
done

echo "== go.mod hygiene"
if grep -n '^[[:space:]]*replace\b\|^replace' $(git ls-files -co --exclude-standard '*go.mod'); then
	echo "go.mod: a committed go.mod must not contain 'replace'; go.work ties the modules together"
	fail=1
fi

if [ -x "$root/scripts/gencheck.sh" ]; then
	echo "== generated files"
	"$root/scripts/gencheck.sh" || fail=1
fi

# The providers conformance tests load the committed codec artifacts
# rather than building the crate again: scripts/gencheck.sh (above) has
# just held them to a rebuild of the sources, byte for byte.
export SMITH_PROVIDERS_DIR="$root/smith/internal/sysplugins"

short=()
if [ "${SMITH_TEST_SHORT:-}" = 1 ]; then short=(-short); fi

for m in $mods; do
	rel=${m#"$root"/}
	echo "== $rel: vet"
	(cd "$m" && go vet ./...) || fail=1
	echo "== $rel: staticcheck"
	(cd "$m" && go tool staticcheck ./...) || fail=1
	echo "== $rel: test -race"
	(cd "$m" && go test -race -count=1 -timeout 15m "${short[@]}" ./...) || fail=1
done

if [ "$fail" != 0 ]; then
	echo "FAIL: one or more gates failed (see above)"
	exit 1
fi
echo "PASS: all gates passed"
