// Package bytesize reads the memory sizes smith.kdl and plugin manifests
// take: a whole number and a binary unit, "512KiB", "64MiB", "1GiB".
package bytesize
