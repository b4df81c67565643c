# Smith's developer entry points. `make test` is the whole suite (CI runs it).
.PHONY: build test test-short bench

# build: bin/smith, pure Go and statically linked (DESIGN: no cgo). With cgo
# enabled the net package links libc dynamically, and every start pays for
# the dynamic loader: --version took 22 ms instead of 18 ms here.
build:
	CGO_ENABLED=0 go build -trimpath -o bin/smith ./smith

test:
	./scripts/test.sh

test-short:
	SMITH_TEST_SHORT=1 ./scripts/test.sh

bench:
	./scripts/bench.sh
