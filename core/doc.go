// Package core is Smith's provider-independent runtime.
package core
