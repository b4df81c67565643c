package gitignore_test

import (
	"fmt"

	"github.com/smith-agent/smith/core/internal/gitignore"
)

func Example() {
	var m gitignore.Matcher
	m.Add("", []byte("*.log\nbuild/\n!keep.log\n"))
	m.Add("src", []byte("/gen_*.go\n"))
	for _, p := range []string{"a/b/x.log", "keep.log", "build/keep.log", "src/gen_a.go", "src/x/gen_a.go"} {
		fmt.Println(p, m.Match(p, false))
	}
	// Output:
	// a/b/x.log true
	// keep.log false
	// build/keep.log true
	// src/gen_a.go true
	// src/x/gen_a.go false
}
