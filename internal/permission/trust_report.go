package permission

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// TrustReport is what `grit trust` shows: the repository, its state before
// and after, and the files the hash covers.
type TrustReport struct {
	Root string `json:"root"`
	// Previous is the state before this command; State the state after.
	Previous string   `json:"previous_state"`
	State    string   `json:"state"`
	Hash     string   `json:"hash,omitempty"`
	Files    []string `json:"files"`
	Store    string   `json:"store"`
}

// TrustOptions locate the repository and the trust store.
type TrustOptions struct {
	Root string // "" means the current directory
	// Store is the trust file; "" means DefaultTrustPath().
	Store string
}

func (o TrustOptions) open() (string, *Trust, string, error) {
	root, err := WorkspaceRoot(o.Root)
	if err != nil {
		return "", nil, "", err
	}
	store := o.Store
	if store == "" {
		if store, err = DefaultTrustPath(); err != nil {
			return "", nil, "", err
		}
	}
	return root, OpenTrust(store), store, nil
}

// CheckTrust reports the repository's trust state without changing it.
func CheckTrust(o TrustOptions) (TrustReport, error) {
	root, t, store, err := o.open()
	if err != nil {
		return TrustReport{}, err
	}
	st, err := t.Check(root)
	if err != nil {
		return TrustReport{}, err
	}
	return TrustReport{Root: root, Previous: st.State, State: st.State, Hash: st.Hash, Files: nonNil(st.Files), Store: store}, nil
}

// GrantTrust trusts the repository's settings, hooks and skills as they are
// now; a later change to any of them asks again.
func GrantTrust(o TrustOptions) (TrustReport, error) {
	before, err := CheckTrust(o)
	if err != nil {
		return TrustReport{}, err
	}
	root, t, _, _ := o.open()
	st, err := t.Grant(root)
	if err != nil {
		return TrustReport{}, err
	}
	before.State, before.Hash, before.Files = st.State, st.Hash, nonNil(st.Files)
	return before, nil
}

// RevokeTrust forgets the repository: its own settings, hooks and skills
// are ignored again.
func RevokeTrust(o TrustOptions) (TrustReport, error) {
	before, err := CheckTrust(o)
	if err != nil {
		return TrustReport{}, err
	}
	root, t, _, _ := o.open()
	if err := t.Revoke(root); err != nil {
		return TrustReport{}, err
	}
	after, err := t.Check(root)
	if err != nil {
		return TrustReport{}, err
	}
	before.State = after.State
	return before, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// CheckTrustAt reads whether the user trusts root (trustPath "" is the
// default file).
func CheckTrustAt(root, trustPath string) (TrustStatus, error) {
	if trustPath == "" {
		var err error
		if trustPath, err = DefaultTrustPath(); err != nil {
			return TrustStatus{}, err
		}
	}
	status, err := OpenTrust(trustPath).Check(root)
	if err != nil {
		return status, fmt.Errorf("trust: %w", err)
	}
	return status, nil
}

// WorkspaceRoot is the workspace of a session (trust is keyed by the same
// path, so every face resolves a workspace with it): root made absolute
// when given, else the git top level of the current directory (as Claude
// Code takes the project), else the current directory.
func WorkspaceRoot(root string) (string, error) {
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		root = gitTop(wd)
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("workspace: %w", err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("workspace %s is not a directory", abs)
	}
	return abs, nil
}

// gitTop is the top level of the git work tree holding dir (the nearest
// directory with a .git entry, a directory or a worktree's file), or dir.
func gitTop(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// LaunchDir is the current directory when it lies in the workspace root
// (symlinks resolved), else root: where relative paths and Bash start.
func LaunchDir(root string) string {
	wd, err := os.Getwd()
	if err != nil {
		return root
	}
	if real, err := filepath.EvalSymlinks(wd); err == nil {
		wd = real
	}
	if rel, err := filepath.Rel(root, wd); err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return root
	}
	return wd
}
