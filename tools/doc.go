// Package tools holds Smith's developer tools and pins the tools the test
// suite runs (staticcheck) as Go tool dependencies.
package tools
