package main

import (
	"github.com/smith-agent/smith/wit/fs"
	"github.com/smith-agent/smith/wit/process"
)

// advice explains an import fault and what to do about it.
func advice(err error) string {
	switch f := err.(type) {
	case fs.FileFault:
		switch f.Case {
		case fs.FileFaultNotFound:
			return "no such file or directory; check the path with ls or find"
		case fs.FileFaultPermissionDenied:
			return "access denied: the path is outside the allowed project directories (symbolic links included) or not permitted; use a path inside the project"
		case fs.FileFaultTooLarge:
			return "the content exceeds the " + itoa(int(f.TooLarge)) + "-byte limit; work on a smaller part"
		case fs.FileFaultNotText:
			return "binary content (not UTF-8 text) cannot be shown or edited; inspect it with bash (for example `file` or `xxd | head`)"
		case fs.FileFaultEditConflict:
			return f.EditConflict
		case fs.FileFaultUnknown:
			return f.Unknown
		}
	case process.ProcessFault:
		switch f.Case {
		case process.ProcessFaultSpawnFailure:
			return "the command could not be started: " + f.SpawnFailure
		case process.ProcessFaultTimeout:
			return "timed out after " + itoa(int(f.Timeout)/1000) + "s and was killed with its process group; raise \"timeout\" or run something faster"
		case process.ProcessFaultCancelled:
			return "cancelled; the process group was killed"
		case process.ProcessFaultUnknown:
			return f.Unknown
		}
	}
	return err.Error()
}
