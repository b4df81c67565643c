package object

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Commit is the part of a commit object a snapshot store reads and writes.
// Author and committer are the same identity.
type Commit struct {
	Tree    ID
	Parents []ID
	Name    string // identity name; no '<', '>' or newline
	Email   string // identity email; no '<', '>' or newline
	Time    time.Time
	Message string // ends with "\n" when encoded
}

// EncodeCommit returns the content of a commit object for c. The time is
// written in seconds with c.Time's zone offset; a message without a final
// newline gets one.
func EncodeCommit(c Commit) ([]byte, error) {
	for _, s := range []string{c.Name, c.Email} {
		if strings.ContainsAny(s, "<>\n\x00") {
			return nil, fmt.Errorf("commit identity %q contains '<', '>', NUL or a newline", s)
		}
	}
	if c.Name == "" || c.Email == "" {
		return nil, fmt.Errorf("commit identity needs a name and an email, got %q <%q>", c.Name, c.Email)
	}
	if strings.ContainsRune(c.Message, 0) {
		return nil, fmt.Errorf("commit message contains NUL")
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "tree %s\n", c.Tree)
	for _, p := range c.Parents {
		fmt.Fprintf(&b, "parent %s\n", p)
	}
	_, off := c.Time.Zone()
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	ident := fmt.Sprintf("%s <%s> %d %c%02d%02d", c.Name, c.Email, c.Time.Unix(), sign, off/3600, off/60%60)
	fmt.Fprintf(&b, "author %s\ncommitter %s\n\n", ident, ident)
	b.WriteString(c.Message)
	if !strings.HasSuffix(c.Message, "\n") {
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}

// ParseCommit parses the content of a commit object: the tree, the parents
// (which must come right after it), the committer identity and time, and
// the message. Unknown headers (gpgsig, encoding) are skipped, continuation
// lines included.
func ParseCommit(b []byte) (Commit, error) {
	var c Commit
	head, msg, ok := bytes.Cut(b, []byte("\n\n"))
	if !ok {
		if !bytes.HasSuffix(b, []byte("\n")) {
			return c, fmt.Errorf("commit has no blank line before its message")
		}
		head = b[:len(b)-1]
	}
	c.Message = string(msg)
	sawTree, sawCommitter := false, false
	for i, line := range bytes.Split(head, []byte("\n")) {
		key, val, _ := bytes.Cut(line, []byte(" "))
		switch {
		case i == 0:
			if string(key) != "tree" {
				return c, fmt.Errorf("commit does not start with a tree line")
			}
			id, err := ParseID(string(val))
			if err != nil {
				return c, fmt.Errorf("commit tree: %v", err)
			}
			c.Tree, sawTree = id, true
		case string(key) == "parent":
			if len(c.Parents) != i-1 {
				return c, fmt.Errorf("commit parent line %d comes after other headers", i+1)
			}
			id, err := ParseID(string(val))
			if err != nil {
				return c, fmt.Errorf("commit parent: %v", err)
			}
			c.Parents = append(c.Parents, id)
		case string(key) == "committer":
			name, email, t, err := parseIdent(val)
			if err != nil {
				return c, fmt.Errorf("commit committer: %v", err)
			}
			c.Name, c.Email, c.Time, sawCommitter = name, email, t, true
		}
	}
	if !sawTree || !sawCommitter {
		return c, fmt.Errorf("commit lacks a tree or committer line")
	}
	return c, nil
}

// parseIdent parses "name <email> seconds +hhmm".
func parseIdent(b []byte) (string, string, time.Time, error) {
	lt := bytes.IndexByte(b, '<')
	gt := bytes.LastIndexByte(b, '>')
	if lt < 0 || gt < lt {
		return "", "", time.Time{}, fmt.Errorf("identity %q has no <email>", b)
	}
	name := string(bytes.TrimSpace(b[:lt]))
	email := string(b[lt+1 : gt])
	fields := strings.Fields(string(b[gt+1:]))
	if len(fields) != 2 {
		return "", "", time.Time{}, fmt.Errorf("identity %q has no time and zone", b)
	}
	sec, err := strconv.ParseInt(fields[0], 10, 64)
	if err != nil {
		return "", "", time.Time{}, fmt.Errorf("identity time %q is not a number", fields[0])
	}
	z := fields[1]
	if len(z) != 5 || (z[0] != '+' && z[0] != '-') {
		return "", "", time.Time{}, fmt.Errorf("identity zone %q is not +hhmm", z)
	}
	hh, err1 := strconv.Atoi(z[1:3])
	mm, err2 := strconv.Atoi(z[3:5])
	if err1 != nil || err2 != nil || z[1] == '+' || z[1] == '-' || z[3] == '+' || z[3] == '-' {
		return "", "", time.Time{}, fmt.Errorf("identity zone %q is not +hhmm", z)
	}
	off := hh*3600 + mm*60
	if z[0] == '-' {
		off = -off
	}
	return name, email, time.Unix(sec, 0).In(time.FixedZone("", off)), nil
}
