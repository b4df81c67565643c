package main

// entry is one tool: its declaration and its implementation. run returns
// the text shown to the model, or a tool fault.
type entry struct {
	name        string
	description string
	schema      string
	run         func(h host, args, cwd string) (string, error)
}

// catalog lists the tools in declaration order.
var catalog = []entry{
	{name: "read", run: runRead, schema: readSchema, description: `Read a text file. Returns up to ` + itoa(readLines) + ` lines or ` + itoa(readBytes/1024) + ` KiB, whichever comes first, starting at "offset" (1-based line number, default 1); "limit" caps the number of lines. When more lines exist the output ends with a notice naming the offset to continue from. Binary files are refused. Paths are relative to the working directory.`},
	{name: "write", run: runWrite, schema: writeSchema, description: `Write a file, replacing all of its content, creating it and any missing parent directories. The file is replaced atomically; through a symbolic link, the file it points to is replaced and the link kept. Use edit to change part of an existing file.`},
	{name: "edit", run: runEdit, schema: editSchema, description: `Edit a text file by replacing exact text: "old_text" with "new_text", or several replacements at once with "edits" (a list of {"old_text", "new_text"}, applied together to the current file; they must not overlap). Each old_text must occur exactly once in the file, including whitespace and indentation; add surrounding lines to make it unique. Fails without changing anything if any text is missing or ambiguous, or if the file changed since you last read it (read it again first). Returns a unified diff.`},
	{name: "bash", run: runBash, schema: bashSchema, description: `Run a shell command and return its combined stdout and stderr (the last ` + itoa(bashOutput/1024) + ` KiB when longer) and exit code. Runs in the working directory, or in "cwd" when given. "timeout" is in seconds (default ` + itoa(bashTimeout) + `); on timeout or cancellation the whole process group is killed.`},
	{name: "find", run: runFind, schema: findSchema, description: `Find files whose path matches a glob pattern ("**/*.go", "cmd/*/main.go"), searching under "path" (default: the working directory). Results are sorted, bounded by "limit" (default ` + itoa(findLimit) + `), and skip files ignored by .gitignore unless "include_ignored" is true. Directories end in "/".`},
	{name: "grep", run: runGrep, schema: grepSchema, description: `Search file contents for lines matching a regular expression (RE2 syntax) or, with "literal", plain text. Searches under "path" (default: the working directory), optionally only files matching "glob"; skips files ignored by .gitignore and binary files. Returns "path:line: text" lines, sorted, bounded by "limit" (default ` + itoa(grepLimit) + `).`},
	{name: "ls", run: runLs, schema: lsSchema, description: `List a directory's entries sorted by name; directories end in "/" and symbolic links in "@". "path" defaults to the working directory; "limit" bounds the entries (default ` + itoa(lsLimit) + `).`},
}

// Bounds and defaults.
const (
	readLines   = 2000
	readBytes   = 50 << 10
	bashOutput  = 50 << 10
	bashTimeout = 120
	bashMaxTime = 3600
	findLimit   = 1000
	grepLimit   = 100
	lsLimit     = 500
	maxLimit    = 10000
)

const (
	readSchema = `{"type":"object","properties":{` +
		`"path":{"type":"string","minLength":1,"description":"The file to read, absolute or relative to the working directory."},` +
		`"offset":{"type":"integer","minimum":1,"description":"The first line to return, counting from 1."},` +
		`"limit":{"type":"integer","minimum":1,"maximum":` + "2000" + `,"description":"The number of lines to return."}},` +
		`"required":["path"],"additionalProperties":false}`
	writeSchema = `{"type":"object","properties":{` +
		`"path":{"type":"string","minLength":1,"description":"The file to write, absolute or relative to the working directory."},` +
		`"content":{"type":"string","description":"The complete new content of the file."}},` +
		`"required":["path","content"],"additionalProperties":false}`
	editSchema = `{"type":"object","properties":{` +
		`"path":{"type":"string","minLength":1,"description":"The file to edit, absolute or relative to the working directory."},` +
		`"old_text":{"type":"string","minLength":1,"description":"The exact text to replace; it must occur exactly once."},` +
		`"new_text":{"type":"string","description":"The replacement text."},` +
		`"edits":{"type":"array","minItems":1,"maxItems":100,"description":"Several replacements, applied together, instead of old_text and new_text.","items":{"type":"object","properties":{` +
		`"old_text":{"type":"string","minLength":1,"description":"The exact text to replace; it must occur exactly once."},` +
		`"new_text":{"type":"string","description":"The replacement text."}},` +
		`"required":["old_text","new_text"],"additionalProperties":false}}},` +
		`"required":["path"],"additionalProperties":false}`
	bashSchema = `{"type":"object","properties":{` +
		`"command":{"type":"string","minLength":1,"description":"The shell command line."},` +
		`"cwd":{"type":"string","minLength":1,"description":"The directory to run in, absolute or relative to the working directory."},` +
		`"timeout":{"type":"integer","minimum":1,"maximum":3600,"description":"The time limit in seconds."}},` +
		`"required":["command"],"additionalProperties":false}`
	findSchema = `{"type":"object","properties":{` +
		`"pattern":{"type":"string","minLength":1,"description":"The glob the file's path (relative to path) must match."},` +
		`"path":{"type":"string","minLength":1,"description":"The directory to search under."},` +
		`"include_ignored":{"type":"boolean","description":"Also return files ignored by .gitignore."},` +
		`"limit":{"type":"integer","minimum":1,"maximum":10000,"description":"The number of paths to return."}},` +
		`"required":["pattern"],"additionalProperties":false}`
	grepSchema = `{"type":"object","properties":{` +
		`"pattern":{"type":"string","minLength":1,"description":"The regular expression (RE2) or, with literal, the text to find."},` +
		`"path":{"type":"string","minLength":1,"description":"The directory to search under."},` +
		`"glob":{"type":"string","minLength":1,"description":"Only search files whose path matches this glob."},` +
		`"literal":{"type":"boolean","description":"Treat the pattern as plain text."},` +
		`"ignore_case":{"type":"boolean","description":"Match regardless of case."},` +
		`"limit":{"type":"integer","minimum":1,"maximum":10000,"description":"The number of matching lines to return."}},` +
		`"required":["pattern"],"additionalProperties":false}`
	lsSchema = `{"type":"object","properties":{` +
		`"path":{"type":"string","minLength":1,"description":"The directory to list."},` +
		`"limit":{"type":"integer","minimum":1,"maximum":10000,"description":"The number of entries to return."}},` +
		`"additionalProperties":false}`
)
