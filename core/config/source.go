package config

import (
	"fmt"
	"strconv"
)

// Layer is one level of the precedence; a later layer beats an earlier one.
type Layer int

// The layers, lowest precedence first.
const (
	LayerDefault Layer = iota
	LayerPluginDefault
	LayerPlugin
	LayerUser
	LayerProject
	LayerEnv
	LayerFlag
)

var layerNames = [...]string{"default", "plugin-default", "plugin", "user", "project", "env", "flag"}

// String returns the layer's name, such as "user" or "flag".
func (l Layer) String() string {
	if l < 0 || int(l) >= len(layerNames) {
		return "layer(" + strconv.Itoa(int(l)) + ")"
	}
	return layerNames[l]
}

// Source says where a value came from.
type Source struct {
	Layer Layer
	// File, Line and Col locate a value read from a file (Line and Col are
	// 1-based).
	File      string
	Line, Col int
	// Name is the environment variable, the flag, or the plugin that set
	// the value.
	Name string
}

// String returns "default", "FILE:LINE:COL", "env NAME", "flag --NAME" or
// "plugin NAME".
func (s Source) String() string {
	switch {
	case s.Layer == LayerEnv:
		return "env " + s.Name
	case s.Layer == LayerFlag:
		return "flag --" + s.Name
	case s.File != "":
		return fmt.Sprintf("%s:%d:%d", s.File, s.Line, s.Col)
	case s.Layer == LayerPlugin || s.Layer == LayerPluginDefault:
		return s.Layer.String() + " " + s.Name
	}
	return s.Layer.String()
}

// Setting is a resolved value and where it came from. The zero Setting is
// the product default: the zero value, from [LayerDefault].
type Setting[T any] struct {
	Value  T
	Source Source
}

// IsSet reports whether any layer above the product defaults set the value.
func (s Setting[T]) IsSet() bool { return s.Source.Layer != LayerDefault }
