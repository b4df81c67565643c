package markdown

// everyDoc exercises every construct the renderer lays out.
const everyDoc = "# Markdown view\n" +
	"\n" +
	"A paragraph with **strong**, *emphasis*, ~~strike~~, `inline code` and a soft\n" +
	"line break, then a hard break:  \n" +
	"after it. Links: [the docs](https://example.com/docs), <https://example.com>,\n" +
	"www.example.org, mail@example.com, [same](https://same.example) and\n" +
	"[https://same.example](https://same.example). An image: ![a cat](https://example.com/cat.png).\n" +
	"Escapes \\*kept\\* &amp; entities &copy;. Inline <b>html</b> stays text.\n" +
	"\n" +
	"## Second level\n" +
	"\n" +
	"### Third level heading that is long enough to wrap at a narrow width\n" +
	"\n" +
	"- first item\n" +
	"- second item whose text is long enough to wrap onto a following line with a hanging indent\n" +
	"  - nested item\n" +
	"    - deeper item\n" +
	"- [ ] open task\n" +
	"- [x] done task\n" +
	"\n" +
	"8. eight\n" +
	"9. nine\n" +
	"10. ten, with two digits\n" +
	"\n" +
	"1) loose item one\n" +
	"\n" +
	"   second paragraph of item one\n" +
	"\n" +
	"2) loose item two\n" +
	"\n" +
	"> A block quote with *emphasis* that runs long enough to wrap inside the gutter.\n" +
	">\n" +
	"> > A nested quote.\n" +
	"\n" +
	"```go\n" +
	"package main\n" +
	"\n" +
	"func main() {\n" +
	"\tfmt.Println(\"hello, world\") // a comment long enough to be cut at thirty columns\n" +
	"}\n" +
	"```\n" +
	"\n" +
	"```\n" +
	"plain\tcode without a language\n" +
	"```\n" +
	"\n" +
	"    indented code block\n" +
	"\n" +
	"| Name | Left | Center | Right |\n" +
	"|------|:-----|:------:|------:|\n" +
	"| `go` | a | b | 1 |\n" +
	"| chroma | a much longer cell that will need to wrap | c | 22 |\n" +
	"\n" +
	"---\n" +
	"\n" +
	"<div>\n" +
	"an HTML block <script>alert(1)</script>\n" +
	"</div>\n" +
	"\n" +
	"Wide text: 日本語のテキスト and emoji 👩‍💻 done.\n"

// hostileDoc puts control characters everywhere text can go.
const hostileDoc = "Text \x1b[31mred\x1b[0m, BEL \a, C1 \u009b2J and \u0085 here.\n" +
	"\n" +
	"[link \x1b(0 \a \u009b31m text](https://example.com/&#27;[2J&#x9b;x&#7;)\n" +
	"\n" +
	"```sh\n" +
	"echo \x1b[2J \a \u009b6n\n" +
	"```\n" +
	"\n" +
	"| a\x1b[1m | b |\n" +
	"|---|---|\n" +
	"| \x07 | \u009dOSC |\n" +
	"\n" +
	"`code \x1b]52;c;AAAA\x07`\n"
