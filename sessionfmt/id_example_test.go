package sessionfmt_test

import (
	"fmt"
	"time"

	"github.com/smith-agent/smith/sessionfmt"
)

func ExampleParseID() {
	id, err := sessionfmt.ParseID("01arz3ndektsv4rrffq69g5fav") // either case
	if err != nil {
		panic(err)
	}
	fmt.Println(id, id.Time().UTC().Format(time.RFC3339Nano))

	_, err = sessionfmt.ParseID("01ARZ3NDEKTSV4RRFFQ69G5FAI")
	fmt.Println(err)
	// Output:
	// 01ARZ3NDEKTSV4RRFFQ69G5FAV 2016-07-30T23:54:10.259Z
	// sessionfmt: id "01ARZ3NDEKTSV4RRFFQ69G5FAI" is not a ULID (26 Crockford base32 characters, e.g. 01JH2Z3Q4R5S6T7V8W9X0Y1Z2A): ulid: byte "I" at offset 25 is not a Crockford base32 digit (0-9, A-Z without I, L, O, U; either case)
}

func ExampleNewIDAt() {
	clock := time.Now() // an injected clock that stands still
	a, b := sessionfmt.NewIDAt(clock), sessionfmt.NewIDAt(clock)
	fmt.Println(a.String() < b.String(), a.Time().Equal(b.Time()))
	// Output: true true
}
