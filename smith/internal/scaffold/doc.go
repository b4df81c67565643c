// Package scaffold writes a new plugin package for `smith plugin new`: a
// manifest, a plugin contributing one tool and one command, its tests, a
// build script and a README, in Go or Rust, with a copy of Smith's plugin
// API (wit.Sources) so that it builds with no network. The templates are
// under templates/: common/ for every language, then one directory per
// language; a .tmpl file is a text/template over [Data] with the
// delimiters [[ and ]], since Go and Rust sources are full of {{.
package scaffold
