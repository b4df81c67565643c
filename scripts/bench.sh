#!/usr/bin/env bash
# scripts/bench.sh runs every module's Go benchmarks once (figures go in the issue notes).
set -euo pipefail
cd "$(dirname "$0")/.."
for m in $(go list -m -f '{{.Dir}}'); do
	(cd "$m" && go test -run '^$' -bench . -benchmem ./...)
done
