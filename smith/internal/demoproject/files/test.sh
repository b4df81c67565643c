#!/bin/sh
# test.sh checks greet.sh; it exits 1 on failure.
got=$(sh greet.sh world)
want="Hello, world!"
if [ "$got" = "$want" ]; then
	echo "PASS: greet.sh world -> $got"
else
	echo "FAIL: greet.sh world -> $got (want $want)"
	exit 1
fi
