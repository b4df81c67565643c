package main

import "strings"

// rustKeywords are Rust's strict and reserved keywords; a WIT name that
// converts to one gets a trailing underscore.
var rustKeywords = map[string]bool{
	"as": true, "break": true, "const": true, "continue": true, "crate": true, "else": true, "enum": true,
	"extern": true, "false": true, "fn": true, "for": true, "if": true, "impl": true, "in": true, "let": true,
	"loop": true, "match": true, "mod": true, "move": true, "mut": true, "pub": true, "ref": true,
	"return": true, "self": true, "Self": true, "static": true, "struct": true, "super": true, "trait": true,
	"true": true, "type": true, "unsafe": true, "use": true, "where": true, "while": true, "async": true,
	"await": true, "dyn": true, "abstract": true, "become": true, "box": true, "do": true, "final": true,
	"macro": true, "override": true, "priv": true, "typeof": true, "unsized": true, "virtual": true,
	"yield": true, "try": true, "union": true,
}

// rustReservedTypes are the names the generated code uses unqualified; a
// WIT type converting to one would shadow it.
var rustReservedTypes = map[string]bool{
	"String": true, "Vec": true, "Option": true, "Result": true, "Box": true, "Some": true, "None": true,
	"Ok": true, "Err": true, "Guest": true, "Self": true,
}

// rustTypeName converts a kebab-case WIT name to an UpperCamelCase Rust
// type or case name: "tool-call" becomes "ToolCall", "http-fault"
// "HttpFault".
func rustTypeName(kebab string) string {
	var b strings.Builder
	for _, w := range strings.Split(strings.TrimPrefix(kebab, "%"), "-") {
		if w == "" {
			continue
		}
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	n := b.String()
	if rustKeywords[n] {
		n += "_"
	}
	return n
}

// rustSnake converts a kebab-case WIT name to a snake_case Rust field,
// function, parameter or module name; a keyword gets a trailing
// underscore ("type" becomes "type_").
func rustSnake(kebab string) string {
	n := strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(kebab, "%"), "-", "_"))
	if rustKeywords[n] {
		n += "_"
	}
	return n
}

// indentRust indents generated Rust source by brace depth, four spaces a
// level. Comment lines and string literals do not count; the generator
// writes one statement or item per line.
func indentRust(src string) string {
	var b strings.Builder
	depth := 0
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			b.WriteString("\n")
			continue
		}
		if strings.HasPrefix(line, "//") {
			b.WriteString(strings.Repeat("    ", depth) + line + "\n")
			continue
		}
		lead := 0
		for lead < len(line) && strings.IndexByte("})]", line[lead]) >= 0 {
			lead++
		}
		b.WriteString(strings.Repeat("    ", max(depth-lead, 0)) + line + "\n")
		inString := false
		for i := 0; i < len(line); i++ {
			switch c := line[i]; {
			case inString && c == '\\':
				i++
			case c == '"':
				inString = !inString
			case inString:
			case c == '{' || c == '(' || c == '[':
				depth++
			case c == '}' || c == ')' || c == ']':
				depth--
			}
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}
