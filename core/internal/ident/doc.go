// Package ident checks short ASCII identifiers (session names, tool names)
// without regular expressions: a bounded repetition such as `{0,63}`
// compiles into one regexp node per repetition, which cost smith about
// 1.8 ms and 1,000 allocations at every start for two package-level patterns.
package ident
