package main

import "github.com/smith-agent/smith/wit/fs"

type readArgs struct {
	Path   string
	Offset int
	Limit  int
}

// runRead returns a window of a text file, ending with a notice naming the
// next offset when more lines follow.
func runRead(h host, args, _ string) (string, error) {
	var a readArgs
	if err := decode("read", args, strField("path", &a.Path), intField("offset", &a.Offset), intField("limit", &a.Limit)); err != nil {
		return "", err
	}
	offset := max(a.Offset, 1)
	limit := a.Limit
	if limit <= 0 || limit > readLines {
		limit = readLines
	}
	ft, err := h.ReadFile(a.Path, fs.ReadOptions{Offset: uint32(offset), Limit: uint32(limit), ByteLimit: readBytes})
	if err != nil {
		return "", describe("read", a.Path, err)
	}
	total := int(ft.TotalLines)
	n := lines(ft.Text)
	out := ft.Text
	if ft.Truncated {
		end := offset + n - 1
		if out != "" && out[len(out)-1] != '\n' {
			out += "\n"
		}
		out += "[showing lines " + itoa(offset) + "-" + itoa(end) + " of " + itoa(total) + "; read again with offset=" + itoa(end+1) + " to continue]"
	}
	if total == 0 {
		out = "[empty file]"
	}
	return out, nil
}
