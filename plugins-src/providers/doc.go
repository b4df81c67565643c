//go:build !wasip1

// Command providers is Smith's provider codec plugin (see main.go, built
// for wasip1). On other platforms the package is empty: its codecs are
// tested natively under internal/.
package main
