package markdown

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/smith-agent/smith/termkit/screen"
)

// SyntaxTheme styles the token classes of highlighted code. The zero
// value draws code unhighlighted (in Theme.CodeBlock).
type SyntaxTheme struct {
	Keyword, Type, Builtin, Function, String, Number, Comment screen.Style
	// DiffAdd, DiffDel and DiffHunk style the lines of a diff block.
	DiffAdd, DiffDel, DiffHunk screen.Style
}

// syntax is how a language is tokenized: a small lexer description,
// enough for the colours a reader scans by (keywords, types, strings,
// numbers, comments, called names), not a parser.
type syntax struct {
	keywords, types, builtins map[string]bool
	line                      []string    // line comment openers
	block                     [][2]string // block comment delimiters
	quotes                    string      // string quote characters (backslash escapes)
	raw                       [][2]string // strings without escapes, possibly multi-line
	dollarVars                bool        // $name is a variable (shells)
	diff                      bool
	keysAreStrings            bool // JSON/YAML: "key": drawn as Type
}

func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

var cBlock = [][2]string{{"/*", "*/"}}

// languages maps a fence label (lower-cased) to its lexer.
var languages = func() map[string]*syntax {
	goLang := &syntax{
		keywords: words("break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var"),
		types:    words("bool byte complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string uint uint8 uint16 uint32 uint64 uintptr any comparable"),
		builtins: words("true false nil iota append cap clear close complex copy delete imag len make max min new panic print println real recover"),
		line:     []string{"//"}, block: cBlock, quotes: `"'`, raw: [][2]string{{"`", "`"}},
	}
	rust := &syntax{
		keywords: words("as async await break const continue crate dyn else enum extern fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait type unsafe use where while"),
		types:    words("bool char str i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize f32 f64 String Vec Option Result Box"),
		builtins: words("true false None Some Ok Err println print format vec panic assert assert_eq"),
		line:     []string{"//"}, block: cBlock, quotes: `"`,
	}
	python := &syntax{
		keywords: words("and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case"),
		types:    words("int float str bytes bool list dict set tuple object type"),
		builtins: words("True False None self print len range open isinstance super enumerate zip map filter sorted"),
		line:     []string{"#"}, quotes: `"'`, raw: [][2]string{{`"""`, `"""`}, {`'''`, `'''`}},
	}
	js := &syntax{
		keywords: words("async await break case catch class const continue debugger default delete do else export extends finally for from function if import in instanceof let new of return static super switch this throw try typeof var void while with yield interface type enum implements private public protected readonly as"),
		types:    words("string number boolean any unknown never void object Array Promise Map Set Record"),
		builtins: words("true false null undefined NaN Infinity console window document require module"),
		line:     []string{"//"}, block: cBlock, quotes: `"'`, raw: [][2]string{{"`", "`"}},
	}
	c := &syntax{
		keywords: words("auto break case catch class const constexpr continue default delete do else enum explicit extends extern final finally for friend goto if implements import inline interface namespace new noexcept operator override package private protected public register return sizeof static struct super switch template this throw throws try typedef typename union using virtual volatile while fun val var when object data sealed func let guard in is as"),
		types:    words("void bool char short int long float double signed unsigned size_t int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t String string Integer Boolean Object byte"),
		builtins: words("true false null nullptr NULL nil self"),
		line:     []string{"//"}, block: cBlock, quotes: `"'`,
	}
	shell := &syntax{
		keywords: words("if then else elif fi for while until do done case esac in function return local export readonly declare set unset shift exit break continue source"),
		builtins: words("echo printf cd pwd test read eval exec trap true false grep sed awk cat ls rm mkdir cp mv git go make"),
		line:     []string{"#"}, quotes: `"'`, dollarVars: true,
	}
	json := &syntax{builtins: words("true false null"), quotes: `"`, keysAreStrings: true}
	yaml := &syntax{builtins: words("true false null yes no on off ~"), line: []string{"#"}, quotes: `"'`, keysAreStrings: true}
	toml := &syntax{builtins: words("true false"), line: []string{"#"}, quotes: `"'`, keysAreStrings: true}
	sql := &syntax{
		keywords: words("select from where and or not insert into values update set delete create table drop alter index join left right inner outer on group by order having limit offset as distinct union all primary key foreign references null is in like between case when then else end begin commit rollback SELECT FROM WHERE AND OR NOT INSERT INTO VALUES UPDATE SET DELETE CREATE TABLE DROP ALTER INDEX JOIN LEFT RIGHT INNER OUTER ON GROUP BY ORDER HAVING LIMIT OFFSET AS DISTINCT UNION ALL PRIMARY KEY FOREIGN REFERENCES NULL IS IN LIKE BETWEEN CASE WHEN THEN ELSE END BEGIN COMMIT ROLLBACK"),
		types:    words("int integer text varchar char boolean date timestamp real float bigint INT INTEGER TEXT VARCHAR CHAR BOOLEAN DATE TIMESTAMP REAL FLOAT BIGINT"),
		line:     []string{"--"}, block: cBlock, quotes: `'"`,
	}
	ruby := &syntax{
		keywords: words("alias and begin break case class def defined? do else elsif end ensure for if in module next not or redo rescue retry return self super then undef unless until when while yield require"),
		builtins: words("true false nil puts print p attr_accessor attr_reader"),
		line:     []string{"#"}, quotes: `"'`,
	}
	markup := &syntax{block: [][2]string{{"<!--", "-->"}}, quotes: `"'`}
	diff := &syntax{diff: true}
	m := map[string]*syntax{}
	for names, s := range map[string]*syntax{
		"go golang":             goLang,
		"rust rs":               rust,
		"python py python3 py3": python,
		"javascript js jsx typescript ts tsx mjs cjs node":      js,
		"c h cpp c++ cc cxx hpp java kotlin kt csharp cs swift": c,
		"sh bash shell zsh fish console shellscript":            shell,
		"json jsonc json5":                     json,
		"yaml yml":                             yaml,
		"toml ini":                             toml,
		"sql postgres postgresql mysql sqlite": sql,
		"ruby rb":                              ruby,
		"html xml svg xhtml vue":               markup,
		"diff patch udiff":                     diff,
	} {
		for _, n := range strings.Fields(names) {
			m[n] = s
		}
	}
	return m
}()

// syntaxFor returns the lexer for a fence label ("go", "Python", "ts",
// or a file name such as "main.rs"), or nil.
func syntaxFor(lang string) *syntax {
	lang = strings.ToLower(strings.TrimSpace(lang))
	if s := languages[lang]; s != nil {
		return s
	}
	if i := strings.LastIndexByte(lang, '.'); i >= 0 {
		return languages[lang[i+1:]]
	}
	return nil
}

// tokenize returns body's n lines as styled spans, or nil when lang has
// no lexer or the theme no syntax colours.
func tokenize(lang, body string, n int, th Theme) [][]Span {
	sx := syntaxFor(lang)
	if sx == nil || th.Syntax == (SyntaxTheme{}) {
		return nil
	}
	st := th.Syntax
	base := th.CodeBlock
	lines := make([][]Span, 1, n)
	emit := func(s string, style screen.Style) {
		for {
			part, rest, nl := strings.Cut(s, "\n")
			if part != "" {
				l := &lines[len(lines)-1]
				if k := len(*l); k > 0 && (*l)[k-1].Style == over(base, style) {
					(*l)[k-1].Text += part
				} else {
					*l = append(*l, Span{Text: part, Style: over(base, style)})
				}
			}
			if !nl || len(lines) == n {
				return
			}
			lines = append(lines, nil)
			s = rest
		}
	}
	if sx.diff {
		for _, l := range strings.Split(body, "\n") {
			s := screen.Style{}
			switch {
			case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
				s = st.Comment
			case strings.HasPrefix(l, "+"):
				s = st.DiffAdd
			case strings.HasPrefix(l, "-"):
				s = st.DiffDel
			case strings.HasPrefix(l, "@@"):
				s = st.DiffHunk
			}
			emit(l+"\n", s)
		}
		return pad(lines, n)
	}
	src := body
	for i := 0; i < len(src); {
		rest := src[i:]
		// Comments.
		if p := prefixIn(rest, sx.line); p != "" {
			end := strings.IndexByte(rest, '\n')
			if end < 0 {
				end = len(rest)
			}
			emit(rest[:end], st.Comment)
			i += end
			continue
		}
		if d, ok := delimIn(rest, sx.block); ok {
			end := strings.Index(rest[len(d[0]):], d[1])
			if end < 0 {
				end = len(rest)
			} else {
				end += len(d[0]) + len(d[1])
			}
			emit(rest[:end], st.Comment)
			i += end
			continue
		}
		// Strings.
		if d, ok := delimIn(rest, sx.raw); ok {
			end := strings.Index(rest[len(d[0]):], d[1])
			if end < 0 {
				end = len(rest)
			} else {
				end += len(d[0]) + len(d[1])
			}
			emit(rest[:end], st.String)
			i += end
			continue
		}
		if q := rest[0]; strings.IndexByte(sx.quotes, q) >= 0 {
			end := 1
			for end < len(rest) && rest[end] != q && rest[end] != '\n' {
				if rest[end] == '\\' && end+1 < len(rest) {
					end++
				}
				end++
			}
			if end < len(rest) && rest[end] == q {
				end++
			}
			s := st.String
			if sx.keysAreStrings && isKey(rest[end:]) {
				s = st.Type
			}
			emit(rest[:end], s)
			i += end
			continue
		}
		r, size := utf8.DecodeRuneInString(rest)
		switch {
		case sx.dollarVars && r == '$':
			end := 1
			for end < len(rest) && (isWord(rest[end]) || rest[end] == '{' || rest[end] == '}') {
				end++
			}
			emit(rest[:end], st.Builtin)
			i += end
		case r >= '0' && r <= '9':
			end := 1
			for end < len(rest) && (isWord(rest[end]) || rest[end] == '.') {
				end++
			}
			emit(rest[:end], st.Number)
			i += end
		case r == '_' || unicode.IsLetter(r):
			end := size
			for end < len(rest) {
				r2, s2 := utf8.DecodeRuneInString(rest[end:])
				if r2 != '_' && !unicode.IsLetter(r2) && !unicode.IsDigit(r2) && !(sx.dollarVars && r2 == '-') {
					break
				}
				end += s2
			}
			w := rest[:end]
			style := screen.Style{}
			switch {
			case sx.keywords[w]:
				style = st.Keyword
			case sx.types[w]:
				style = st.Type
			case sx.builtins[w]:
				style = st.Builtin
			case strings.HasPrefix(strings.TrimLeft(rest[end:], " "), "("):
				style = st.Function
			case sx.keysAreStrings && isKey(rest[end:]):
				style = st.Type
			}
			emit(w, style)
			i += end
		default:
			emit(rest[:size], screen.Style{})
			i += size
		}
	}
	return pad(lines, n)
}

// pad makes lines n long.
func pad(lines [][]Span, n int) [][]Span {
	for len(lines) < n {
		lines = append(lines, nil)
	}
	return lines[:n]
}

// isKey reports whether what follows a token makes it a mapping key.
func isKey(after string) bool {
	after = strings.TrimLeft(after, " \t")
	return strings.HasPrefix(after, ":") || strings.HasPrefix(after, "=")
}

func isWord(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func prefixIn(s string, ps []string) string {
	for _, p := range ps {
		if strings.HasPrefix(s, p) {
			return p
		}
	}
	return ""
}

func delimIn(s string, ds [][2]string) ([2]string, bool) {
	for _, d := range ds {
		if strings.HasPrefix(s, d[0]) {
			return d, true
		}
	}
	return [2]string{}, false
}
