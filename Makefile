# Smith's developer entry points. `make test` is the whole suite (CI runs it).
.PHONY: test test-short bench

test:
	./scripts/test.sh

test-short:
	SMITH_TEST_SHORT=1 ./scripts/test.sh

bench:
	./scripts/bench.sh
