package vcs

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/smith-agent/smith/core/vcs/internal/index"
	"github.com/smith-agent/smith/core/vcs/internal/object"
)

// dirtyDirs returns the directories ("" and "a/b/" keys) holding a path
// that differs between the sorted lists old and cur: their trees changed.
// The other directories' trees are as in old.
func dirtyDirs(old, cur []index.Entry) map[string]bool {
	dirty := map[string]bool{}
	mark := func(p string) {
		dirty[""] = true
		for i := 0; i < len(p); i++ {
			if p[i] == '/' {
				dirty[p[:i+1]] = true
			}
		}
	}
	i, j := 0, 0
	for i < len(old) || j < len(cur) {
		switch {
		case j == len(cur) || (i < len(old) && old[i].Path < cur[j].Path):
			mark(old[i].Path)
			i++
		case i == len(old) || cur[j].Path < old[i].Path:
			mark(cur[j].Path)
			j++
		default:
			if old[i].Mode != cur[j].Mode || old[i].ID != cur[j].ID {
				mark(cur[j].Path)
			}
			i++
			j++
		}
	}
	return dirty
}

// keptTrees returns the trees of old that still hold the entries of cur:
// those of directories without a change.
func keptTrees(old *cache, cur []index.Entry) []index.Tree {
	dirty := dirtyDirs(old.entries, cur)
	var out []index.Tree
	for _, t := range old.trees {
		if !dirty[t.Dir] {
			out = append(out, t)
		}
	}
	return out
}

// writeTrees stores the trees of ents (sorted by path) and returns the
// root tree id and the tree of every directory, sorted. Directories
// without a change since old keep old's tree, neither encoded nor
// written again.
func (s *Store) writeTrees(ents []index.Entry, old *cache) (ID, []index.Tree, error) {
	dirty := dirtyDirs(old.entries, ents)
	trees := make([]index.Tree, 0, len(old.trees)+1)
	var write func(dir string, ents []index.Entry) (object.ID, error)
	write = func(dir string, ents []index.Entry) (object.ID, error) {
		if !dirty[dir] {
			if id, lo, hi, ok := old.tree(dir); ok {
				trees = append(trees, old.trees[lo:hi]...)
				return id, nil
			}
		}
		at := len(trees)
		trees = append(trees, index.Tree{Dir: dir})
		var entries []object.TreeEntry
		for i := 0; i < len(ents); {
			rest := ents[i].Path[len(dir):]
			j := strings.IndexByte(rest, '/')
			if j < 0 {
				entries = append(entries, object.TreeEntry{Mode: object.Mode(ents[i].Mode), Name: rest, ID: ents[i].ID})
				i++
				continue
			}
			sub := ents[i].Path[:len(dir)+j+1] // "dir/name/"
			n := sort.Search(len(ents)-i, func(k int) bool { return !strings.HasPrefix(ents[i+k].Path, sub) })
			id, err := write(sub, ents[i:i+n])
			if err != nil {
				return id, err
			}
			entries = append(entries, object.TreeEntry{Mode: object.ModeTree, Name: rest[:j], ID: id})
			i += n
		}
		b, err := object.EncodeTree(entries)
		if err != nil {
			return object.ID{}, fmt.Errorf("vcs: %v", err)
		}
		id, _, err := s.objs.Write(object.TypeTree, b)
		if err != nil {
			return id, fmt.Errorf("vcs: %w", err)
		}
		trees[at].ID = id
		return id, nil
	}
	id, err := write("", ents)
	return ID(id), trees, err
}

// flatten returns the files of tree sorted by path (Path, Mode and ID;
// where they come from a cache, also its stat) and the tree of every
// directory, sorted. Only trees that none of the caches (nil ones are
// passed over) holds are read. The result may share a cache's arrays: do
// not modify it.
func (s *Store) flatten(tree ID, caches ...*cache) ([]index.Entry, []index.Tree, error) {
	caches = slices.DeleteFunc(slices.Clone(caches), func(c *cache) bool { return c == nil })
	for _, c := range caches {
		if id, _, _, ok := c.tree(""); ok && ID(id) == tree {
			return c.entries, c.trees, nil
		}
	}
	var out []index.Entry
	var trees []index.Tree
	var walk func(dir string, id object.ID) error
	walk = func(dir string, id object.ID) error {
		for _, c := range caches {
			if cid, lo, hi, ok := c.tree(dir); ok && cid == id {
				elo, ehi := below(c.entries, dir)
				out = append(out, c.entries[elo:ehi]...)
				trees = append(trees, c.trees[lo:hi]...)
				return nil
			}
		}
		t, b, err := s.objs.Read(id)
		if err != nil {
			return fmt.Errorf("vcs: tree %s: %w", id, err)
		}
		if t != object.TypeTree {
			return fmt.Errorf("vcs: object %s is a %s, not a tree", id, t)
		}
		entries, err := object.ParseTree(b)
		if err != nil {
			return fmt.Errorf("vcs: tree %s: %v", id, err)
		}
		trees = append(trees, index.Tree{Dir: dir, ID: id})
		for _, e := range entries {
			if e.Mode.IsTree() {
				if err := walk(dir+e.Name+"/", e.ID); err != nil {
					return err
				}
				continue
			}
			out = append(out, index.Entry{Path: dir + e.Name, Mode: uint32(e.Mode), ID: e.ID, Racy: true})
		}
		return nil
	}
	if err := walk("", object.ID(tree)); err != nil {
		return nil, nil, err
	}
	return out, trees, nil
}
