package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/grit-dev/grit/internal/explore"
	"github.com/grit-dev/grit/internal/web"
)

type exploreFlags struct {
	addr       string
	open       bool
	token      string
	model      string
	allowHosts []string
}

func newExploreCmd(e *env) *cobra.Command {
	var f exploreFlags
	cmd := &cobra.Command{
		Use:   "explore [PATH | GIT-URL]",
		Short: "Explore a repository in the browser: search, symbols, AST, edges, model bench",
		Long: `Explore serves a local web page that shows every layer of the harness on one
repository: the search with each signal's share of every score, the
definitions of a file, its tree-sitter syntax tree with byte ranges, its
imports, callers and callees, and a model bench that rewrites one function
and shows the diff (it writes only when you press Apply, and Undo restores).

With no argument it explores the repository around the current directory.
A directory is explored in place. A git URL (https://, ssh://, file://,
git@host:path) or a local bare repository is cloned shallow into
$XDG_CACHE_HOME/grit/repos/<host>/<path> (default ~/.cache) and indexed,
with progress shown in the page. The page's "Clone & Explore" field does the
same and remembers recent repositories.

The server binds 127.0.0.1 and prints a URL carrying a per-run access token;
opening it sets a cookie and removes the token from the address bar. Every
view has its own address (/search?q=, /file/PATH#L12, /symbol/PATH::NAME),
which reloads, goes Back and can be shared; a first visit adds ?token=.

To use it from another machine, bind all interfaces with a token of at least
32 characters: --addr 0.0.0.0:8080 --token $(openssl rand -hex 16). The page
then answers to this machine's host name and addresses; --allow-host adds
another name a browser uses to reach it (a DNS alias, a proxy). The JSON API
the page uses is under /api/ (see docs/api.md).`,
		Example: `  grit explore
  grit explore ~/src/myproject --open
  grit explore https://github.com/psf/requests
  grit explore --addr 127.0.0.1:9000 --model openai:qwen2.5-coder-7b
  grit explore --addr 0.0.0.0:8080 --token "$(openssl rand -hex 16)" --allow-host devbox.example.com`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			source := ""
			if len(args) == 1 {
				source = args[0]
			} else {
				wd, err := os.Getwd()
				if err != nil {
					return err
				}
				source = exploreRoot(wd)
			}
			if _, err := explore.ParseSource(source); err != nil {
				return usageErrorf("%v", err)
			}
			srv, err := web.Start(web.StartOptions{Source: source, Addr: f.addr, Token: f.token, Model: f.model, AllowHosts: f.allowHosts})
			if err != nil {
				return err
			}
			fmt.Fprintf(e.Out, "grit explore: %s\n", srv.URL())
			if u := srv.RemoteURL(); u != "" {
				fmt.Fprintf(e.Out, "grit explore: from another machine: %s\n", u)
			}
			fmt.Fprintf(e.Err, "exploring %s (indexing progress is shown in the page); Ctrl-C stops\n", source)
			if f.open {
				openBrowser(e, srv.URL())
			}
			return srv.Serve(e.ctx)
		},
	}
	cmd.Flags().StringVar(&f.addr, "addr", "127.0.0.1:8080", "address to listen on (host:port); non-loopback needs --token")
	cmd.Flags().BoolVar(&f.open, "open", false, "open the page with xdg-open")
	cmd.Flags().StringVar(&f.token, "token", "", "access token, at least 32 characters (default: random for this run)")
	cmd.Flags().StringArrayVar(&f.allowHosts, "allow-host", nil, "also accept this host name or IP in the Host header (repeatable)")
	cmd.Flags().StringVar(&f.model, "model", "", "model for the Model tab, PROVIDER:MODEL (default: GRIT_MODEL, settings, then ollama:qwen2.5-coder:7b)")
	return cmd
}

// exploreRoot is the nearest ancestor of dir holding .git or .grit, else dir.
func exploreRoot(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		for _, m := range []string{".git", ".grit"} {
			if _, err := os.Stat(filepath.Join(d, m)); err == nil {
				return d
			}
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}

// openBrowser runs xdg-open if there is one; the URL is printed either way.
func openBrowser(e *env, url string) {
	bin, err := exec.LookPath("xdg-open")
	if err != nil {
		fmt.Fprintln(e.Err, "--open: xdg-open not found; open the URL above yourself")
		return
	}
	cmd := exec.Command(bin, url)
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(e.Err, "--open: %v\n", err)
		return
	}
	go cmd.Wait()
}
