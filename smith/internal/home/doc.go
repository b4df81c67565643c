// Package home locates Smith's data directory, where sessions live.
package home
