package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Mount kinds of a plan, applied in order inside the sandbox's mount
// namespace on top of the host's file system (read-only for the command).
const (
	mountTmpfs   = "tmpfs"    // a fresh writable tmpfs at Dst
	mountTmpfsRO = "tmpfs-ro" // an empty read-only tmpfs at Dst (masks a directory)
	mountBind    = "bind"     // Src bound writable at Dst
	mountROBind  = "ro-bind"  // Src bound read-only at Dst
)

// mountOp is one step of a plan.
type mountOp struct {
	Kind string `json:"kind"`
	Src  string `json:"src,omitempty"`
	Dst  string `json:"dst"`
}

// plan is what both isolating backends build the sandbox from: the mounts,
// the paths the command may write (for Landlock), and the working directory.
type plan struct {
	Mounts []mountOp `json:"mounts"`
	// Writable are the directories the command may write: the workspace,
	// caches and extra writable paths, and the private tmpfs directories.
	Writable []string `json:"writable"`
	Dir      string   `json:"dir"`
	Network  bool     `json:"network"`
	// created lists mount points that will be created on the host for
	// missing protected paths (removed after the run).
	created []string
	// journal is the file recording created until they are removed.
	journal string
}

// masks holds the empty file and directory that mask missing protected
// paths and secrets, and serialises creating and removing mount points.
type masks struct {
	root      string // the temporary directory holding both
	empty     string // an empty read-only directory
	emptyFile string // an empty read-only file
	journals  string // the directory of mask journals (see writeJournal)

	mu sync.Mutex // serialises creating and removing mask mount points
	// live counts the runs using each mask point this process created: a
	// run that starts while another's mask exists mounts over it too, and
	// the point goes only when the last of them ends.
	live map[string]int
}

func newMasks(home string) (*masks, error) {
	root, err := os.MkdirTemp("", "grit-sandbox-empty-")
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	emptyFile := filepath.Join(root, "empty")
	if err := os.WriteFile(emptyFile, nil, 0o444); err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	// Directories are masked by a read-only empty directory of their own.
	emptyDir := filepath.Join(root, "dir")
	if err := os.Mkdir(emptyDir, 0o555); err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	m := &masks{root: root, empty: emptyDir, emptyFile: emptyFile, journals: journalDir(home), live: map[string]int{}}
	sweepJournals(m.journals)
	return m, nil
}

// runSockets are host paths holding Unix sockets that reach services
// outside the sandbox; masked when the network is allowed (with the
// network off all of /run is replaced).
var runSockets = []string{"/run/docker.sock", "/run/user", "/run/dbus", "/run/containerd", "/run/podman", "/run/snapd.socket"}

// buildPlan computes the sandbox for cfg with dir as working directory.
// It holds m.mu while it decides which mount points to create, so callers
// must call m.removeMasks(p) after the run (the process group gone).
func buildPlan(cfg Config, m *masks, dir string) (plan, error) {
	ws := filepath.Clean(cfg.Workspace)
	p := plan{Dir: dir, Network: cfg.Network}
	add := func(kind, src, dst string) { p.Mounts = append(p.Mounts, mountOp{Kind: kind, Src: src, Dst: dst}) }
	add(mountTmpfs, "", "/tmp")
	p.Writable = append(p.Writable, "/tmp")
	// Path-named Unix sockets (docker.sock, the D-Bus and user sockets) are
	// reachable through a read-only mount and across network namespaces, so
	// the directories that hold them are replaced with empty ones.
	if !cfg.Network {
		add(mountTmpfs, "", "/run")
		add(mountTmpfs, "", "/var/tmp")
		p.Writable = append(p.Writable, "/run", "/var/tmp")
	} else {
		add(mountTmpfs, "", "/var/tmp")
		p.Writable = append(p.Writable, "/var/tmp")
		for _, s := range runSockets {
			if fi, err := os.Stat(s); err == nil {
				if fi.IsDir() {
					add(mountTmpfs, "", s)
				} else {
					add(mountROBind, m.emptyFile, s)
				}
			}
		}
	}
	// Caches and extra writable paths, then the workspace, so that the
	// workspace's own protections below are applied last.
	home := cfg.Home
	for _, w := range append(CachePaths(home), cfg.WritablePaths...) {
		if !filepath.IsAbs(w) || w == "/" || strings.HasPrefix(w, "/tmp/") || w == "/tmp" || strings.HasPrefix(ws, w+"/") {
			continue
		}
		if err := os.MkdirAll(w, 0o755); err != nil {
			continue
		}
		add(mountBind, w, w)
		p.Writable = append(p.Writable, w)
	}
	// Bound after the private /tmp, so a workspace under /tmp shows through.
	add(mountBind, ws, ws)
	p.Writable = append(p.Writable, ws)

	// Secrets in the home directory: masked whatever else is writable.
	if home != "" {
		for _, h := range secretHome {
			s := filepath.Join(home, h)
			fi, err := os.Lstat(s)
			if err != nil {
				continue
			}
			if fi.IsDir() {
				add(mountTmpfsRO, "", s)
			} else {
				add(mountROBind, m.emptyFile, s)
			}
		}
	}
	// .env* files in the workspace hold secrets: masked.
	for _, pat := range []string{".env*", "*/.env*"} {
		matches, _ := filepath.Glob(filepath.Join(ws, pat))
		for _, f := range matches {
			if fi, err := os.Lstat(f); err == nil && fi.Mode().IsRegular() {
				add(mountROBind, m.emptyFile, f)
			}
		}
	}

	// Protected workspace paths: read-only if present; if missing, the first
	// missing component is masked read-only so it cannot be created. Bound
	// as wholes, they are mount points: rename, unlink and replace fail too.
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := protect(&p, m, ws, append(append([]string{}, defaultProtected...), cfg.Protected...)); err != nil {
		m.release(p.created)
		return plan{}, err
	}
	// The repository's git directories named by files (a linked worktree's
	// or submodule's), wherever they are: read-only too.
	for _, g := range linkedGitPaths(ws) {
		add(mountROBind, g, g)
	}
	journal, err := writeJournal(m.journals, p.created)
	if err != nil {
		m.release(p.created)
		return plan{}, err
	}
	p.journal = journal
	return p, nil
}

// protect adds the mounts for the workspace-relative paths rels to p.
// m.mu is held.
func protect(p *plan, m *masks, ws string, rels []string) error {
	add := func(kind, src, dst string) { p.Mounts = append(p.Mounts, mountOp{Kind: kind, Src: src, Dst: dst}) }
	masked := map[string]bool{}
	for _, rel := range rels {
		rel = filepath.Clean(rel)
		if filepath.IsAbs(rel) || rel == "." || strings.HasPrefix(rel, "..") {
			return fmt.Errorf("sandbox: protected path %q must be relative to the workspace", rel)
		}
		cur := ws
		parts := strings.Split(rel, string(filepath.Separator))
		for i, part := range parts {
			cur = filepath.Join(cur, part)
			fi, err := os.Lstat(cur)
			if err == nil && fi.Mode()&os.ModeSymlink != 0 {
				target, _ := os.Readlink(cur)
				return fmt.Errorf("refusing to build the sandbox: %s is a symlink (to %s); protected paths must be real files or directories", cur, target)
			}
			if err == nil && m.live[cur] > 0 {
				// Another run's mask point: mounted over again, and kept
				// until this run ends too.
				m.live[cur]++
				p.created = append(p.created, cur)
				add(mountROBind, cur, cur)
				break
			}
			if err == nil && i == len(parts)-1 {
				add(mountROBind, cur, cur)
				break
			}
			if err == nil {
				if !fi.IsDir() {
					break // a file where a directory would be: nothing below can exist
				}
				continue
			}
			if !os.IsNotExist(err) {
				return fmt.Errorf("sandbox: %w", err)
			}
			if masked[cur] {
				break
			}
			masked[cur] = true
			m.live[cur]++
			p.created = append(p.created, cur)
			if i == len(parts)-1 && protectedFileNames[part] {
				// An empty regular file, not /dev/null: tools that walk the
				// tree (pytest) expect files to be files.
				add(mountROBind, m.emptyFile, cur)
			} else {
				add(mountROBind, m.empty, cur)
			}
			break
		}
	}
	return nil
}

// release drops a run's hold on its mask points and deletes the ones no
// run uses any more. m.mu is held.
func (m *masks) release(created []string) {
	for i := len(created) - 1; i >= 0; i-- {
		p := created[i]
		if m.live[p]--; m.live[p] > 0 {
			continue
		}
		delete(m.live, p)
		removeMaskPoint(p)
	}
}

// removeMasks deletes the empty mount points a finished run created on the
// host, then its journal.
func (m *masks) removeMasks(p plan) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.release(p.created)
	if p.journal != "" {
		os.Remove(p.journal)
	}
}
