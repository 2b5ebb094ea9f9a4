package cli

import (
	"encoding/json"
	"fmt"

	"github.com/grit-dev/grit/internal/permission"
	"github.com/spf13/cobra"
)

type trustFlags struct {
	revoke bool
	dryRun bool
	asJSON bool
}

func newTrustCmd(e *env) *cobra.Command {
	var f trustFlags
	cmd := &cobra.Command{
		Use:   "trust [PATH]",
		Short: "Trust a repository's own settings, hooks and skills (or revoke that trust)",
		Long: `A repository can carry its own .grit/settings.json (permission rules, a permission
mode, hooks that run commands), .grit/hooks, .grit/skills and MCP definitions.
Grit ignores all of them, in every mode and in headless runs (-p), until you
trust the repository, because they run code or widen what the model may do.

grit trust lists the files that trust covers and records a hash of their
contents (paths, executable bits and bytes). If any of them changes later, the
repository is untrusted again until you review it and run grit trust again.
PATH defaults to the current directory, the same root grit and grit -p use.

States: nothing (no such files: nothing to trust), untrusted, changed (trusted
once, changed since), trusted. The store is ~/.config/grit/trust.json
($XDG_CONFIG_HOME honoured).`,
		Example: `  grit trust --dry-run        # show what would be trusted, change nothing
  grit trust                  # trust the current repository as it is now
  grit trust ~/src/project --json
  grit trust --revoke         # ignore the repository's settings and hooks again`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.revoke && f.dryRun {
				return usageErrorf("use either --revoke or --dry-run, not both")
			}
			o := permission.TrustOptions{}
			if len(args) == 1 {
				o.Root = args[0]
			}
			var rep permission.TrustReport
			var err error
			switch {
			case f.dryRun:
				rep, err = permission.CheckTrust(o)
			case f.revoke:
				rep, err = permission.RevokeTrust(o)
			default:
				rep, err = permission.GrantTrust(o)
			}
			if err != nil {
				return err
			}
			if f.asJSON {
				return json.NewEncoder(e.Out).Encode(rep)
			}
			printTrust(e, rep, f)
			return nil
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.revoke, "revoke", false, "forget the repository: its settings, hooks and skills are ignored again")
	fl.BoolVar(&f.dryRun, "dry-run", false, "show the state and the files trust would cover, change nothing")
	fl.BoolVar(&f.asJSON, "json", false, "print the report as JSON")
	return cmd
}

func printTrust(e *env, r permission.TrustReport, f trustFlags) {
	switch {
	case r.State == permission.TrustNothing && r.Previous == permission.TrustNothing:
		fmt.Fprintf(e.Out, "%s has no settings, hooks or skills of its own: nothing to trust.\n", r.Root)
		return
	case f.dryRun:
		fmt.Fprintf(e.Out, "%s is %s. grit trust would cover:\n", r.Root, r.State)
	case f.revoke:
		fmt.Fprintf(e.Out, "%s: trust revoked (was %s). These files are ignored again:\n", r.Root, r.Previous)
	default:
		fmt.Fprintf(e.Out, "%s: trusted (was %s). Trust covers:\n", r.Root, r.Previous)
	}
	for _, p := range r.Files {
		fmt.Fprintf(e.Out, "  %s\n", p)
	}
	if r.Hash != "" && !f.revoke {
		fmt.Fprintf(e.Out, "content hash %s\n", r.Hash)
	}
	if !f.dryRun && !f.revoke {
		fmt.Fprintln(e.Err, "grit: a change to any of these files makes the repository untrusted again")
	}
}
