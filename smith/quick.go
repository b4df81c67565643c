package main

// quickAnswer answers the invocations that need no command tree: the root
// help (`smith`, `smith --help`, `-h`, `help`, `h`) and the version
// (`--version`, `-v`). It returns the text the cli package would print for
// them, from quick_gen.go, and false for every other argument list.
//
// Building the command tree, its flags and the help template costs about
// an eighth of the start (2 of ~15 ms on a slow 2-core VM), so main
// answers these before it.
// TestQuickAnswers holds the text to the cli's own output for every listed
// invocation and regenerates quick_gen.go with -update.
func quickAnswer(args []string) (string, bool) {
	if len(args) > 1 {
		return "", false
	}
	arg := ""
	if len(args) == 1 {
		arg = args[0]
	}
	switch arg {
	case "", "--help", "-h", "help", "h":
		return quickHelpHead + version + quickHelpTail, true
	case "--version", "-v":
		return "smith version " + version + "\n", true
	}
	return "", false
}
