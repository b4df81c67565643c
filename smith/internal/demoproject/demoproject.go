package demoproject

import (
	"embed"
	"fmt"
	"os"
	"path/filepath"
)

//go:embed files/*
var files embed.FS

// Prompt is the demo's request.
const Prompt = "fix the bug"

// Write writes the demo project's files into dir, which must exist.
func Write(dir string) error {
	ents, err := files.ReadDir("files")
	if err != nil {
		return err
	}
	for _, e := range ents {
		b, err := files.ReadFile("files/" + e.Name())
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o755); err != nil {
			return fmt.Errorf("demoproject: write %s: %w", e.Name(), err)
		}
	}
	return nil
}
