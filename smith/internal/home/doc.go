// Package home locates Smith's data directory, where sessions live, and
// the user's configuration file.
package home
